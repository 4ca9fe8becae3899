package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// handlePrint is GET /bookings/:bookingID/print, a booking's printable
// tickets (SPEC §16 "Printing"): one per seat, for an 80 mm receipt
// printer. It opens to whom the booking page opens (printBooking) and to
// signed-in staff and admins; anyone else gets 404. A booking that is not
// confirmed has nothing to print: 409 with why. ?print=1 opens the print
// dialog once the page has loaded (the counter links so).
func (s *Server) handlePrint(c echo.Context) error {
	b, err := s.printBooking(c)
	if err != nil {
		return err
	}
	b, _ = s.refreshPending(c, b)
	show, err := s.svc.Show(c.Request().Context(), b.ShowID)
	if err != nil {
		return errorf("web: show %s of booking %s: %w", b.ShowID, b.ID, err)
	}
	m, err := s.printModel(c, b, show)
	if err != nil {
		return err
	}
	if !m.Confirmed() {
		m.Page = s.page(c, localizer(c).T("print.nothing"))
		return s.render(c, http.StatusConflict, pages.PrintTickets(m))
	}
	m.Page = s.page(c, localizer(c).N("print.title", len(m.Tickets)))
	return s.render(c, http.StatusOK, pages.PrintTickets(m))
}

// printBooking reads the booking the print page is for: with ?key=, the one
// the key opens, whoever asks (a wrong key is 404 for everyone, as on the
// booking page); else the visitor's own, or any booking for a signed-in
// account (staff print again at the counter).
func (s *Server) printBooking(c echo.Context) (booking.Booking, error) {
	ctx := c.Request().Context()
	id := c.Param("bookingID")
	if c.QueryParams().Has("key") {
		return s.svc.BookingByKey(ctx, id, c.QueryParam("key"))
	}
	b, err := s.svc.Booking(ctx, id, s.visitor(c))
	if !errors.Is(err, booking.ErrBookingNotFound) {
		return b, err
	}
	adm, _, aerr := s.signedIn(c)
	switch {
	case aerr != nil:
		return booking.Booking{}, aerr
	case adm.ID == "":
		return booking.Booking{}, err
	}
	return s.svc.AnyBooking(ctx, id)
}

// printModel is b's tickets, one per seat, as bookingSeats lists them, with
// the QR code the booking page shows (ticketQR of the ticket code: what the
// door scans).
func (s *Server) printModel(c echo.Context, b booking.Booking, show booking.Show) (model.PrintTickets, error) {
	loc := localizer(c)
	m := model.PrintTickets{
		BookingID: b.ID, State: string(b.State), BookingURL: bookingURL(b.ID),
		Show:      s.showModelIn(loc, show),
		AutoPrint: c.QueryParam("print") == "1",
	}
	if c.QueryParams().Has("key") {
		m.BookingURL += "?key=" + url.QueryEscape(c.QueryParam("key"))
	}
	if b.State != booking.BookingConfirmed {
		return m, nil
	}
	q, err := ticketQR(b.TicketCode)
	if err != nil {
		return m, errorf("web: QR code of booking %s: %w", b.ID, err)
	}
	m.TicketCode, m.QR = b.TicketCode, &q
	for _, t := range bookingSeatsIn(loc, b) {
		row, seat := splitSeatID(t.ID)
		m.Tickets = append(m.Tickets, model.PrintTicket{BookingSeat: t, Row: row, Seat: seat})
	}
	return m, nil
}

// splitSeatID splits a seat id into its row label and seat number: "F12" is
// row "F", seat "12" (a layout's rows are labelled A to ZZ, its seats
// numbered). An id of another shape is all seat.
func splitSeatID(id string) (row, seat string) {
	i := strings.IndexFunc(id, func(r rune) bool { return r < 'A' || r > 'Z' })
	if i <= 0 || i == len(id) {
		return "", id
	}
	return id[:i], id[i:]
}
