package web

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// adminCallbackLimit bounds the callback log on a show's page.
const adminCallbackLimit = 200

// handleAdminShow is GET /admin/shows/:showID: the counts, the seat map in
// admin colours, the bookings, the refunds due and the callbacks.
func (s *Server) handleAdminShow(c echo.Context) error {
	ctx := c.Request().Context()
	store := s.svc.Store()
	showID := c.Param("showID")
	show, err := store.Show(ctx, showID)
	if err != nil {
		return err
	}
	m := s.svc.Now()
	occ, err := store.Occupancy(ctx, showID, m)
	if err != nil {
		return err
	}
	seats, err := store.Seats(ctx, showID)
	if err != nil {
		return err
	}
	bookings, err := store.ShowBookings(ctx, showID)
	if err != nil {
		return err
	}
	callbacks, err := store.Callbacks(ctx, booking.CallbackQuery{ShowID: showID, Limit: adminCallbackLimit})
	if err != nil {
		return err
	}
	v := model.AdminShow{
		AdminPage: s.adminPage(c, show.Movie.Title),
		Show:      s.showModel(show),
		Counts:    countsModel(occ),
		TTL:       m.TTL.String(),
		Rows:      s.adminSeatRows(seats, m),
		Callbacks: s.adminCallbacks(callbacks),
		CSVURL:    adminShowURL(showID) + "/bookings.csv",
	}
	if c.QueryParam("refunded") != "" {
		v.Notice = &model.Notice{Kind: "info", Text: "Refund made."}
	}
	for _, b := range bookings {
		b = s.refreshPending(c, b)
		bm := s.adminBookingModel(b)
		v.Bookings = append(v.Bookings, bm)
		if bm.RefundAction != "" {
			v.RefundQueue = append(v.RefundQueue, bm)
		}
	}
	return s.render(c, http.StatusOK, pages.AdminShow(v))
}

// handleAdminRefund is POST /admin/bookings/:bookingID/refund: the
// signed-in admin refunds a refund_due booking through the payment provider
// (the sandbox simulates it). One click, idempotent: pressing again, or two
// admins at once, make one refund; the booking becomes refunded with the
// refund's id, who and when.
func (s *Server) handleAdminRefund(c echo.Context) error {
	ctx := c.Request().Context()
	adm := currentAdmin(c)
	b, err := s.svc.Refund(ctx, c.Param("bookingID"), adm.Email)
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "refund made", "booking_id", b.ID, "refund_id", b.RefundID, "admin", adm.Email, "request_id", requestIDOf(c))
	return redirect(c, adminShowURL(b.ShowID)+"?refunded="+b.ID)
}

// handleAdminBookingsCSV is GET /admin/shows/:showID/bookings.csv.
func (s *Server) handleAdminBookingsCSV(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	if _, err := s.svc.Store().Show(ctx, showID); err != nil {
		return err
	}
	bookings, err := s.svc.Store().ShowBookings(ctx, showID)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="bookings-`+safeFilePart(showID)+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	return writeBookingsCSV(c.Response(), bookings)
}

var csvHeader = []string{"booking_id", "state", "seats", "amount_minor", "currency", "ticket_code",
	"payment_id", "visitor", "created_at", "updated_at", "reason", "refunded_at", "refunded_by", "refund_id"}

// writeBookingsCSV writes bookings as CSV, every cell through csvCell.
func writeBookingsCSV(w interface{ Write([]byte) (int, error) }, bookings []booking.Booking) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, b := range bookings {
		row := []string{b.ID, string(b.State), strings.Join(b.SeatIDs, " "), strconv.FormatInt(int64(b.Amount), 10),
			b.Currency, b.TicketCode, b.PaymentID, short(b.Owner), ts(b.CreatedAt), ts(b.UpdatedAt),
			b.Reason, ts(b.RefundedAt), b.RefundedBy, b.RefundID}
		for i := range row {
			row[i] = csvCell(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvCell defuses formula injection: a spreadsheet runs a cell that starts
// with = + - @ (or a tab or carriage return before one) as a formula, so
// such a cell gets a leading single quote, which spreadsheets show as text.
// encoding/csv does the quoting of commas, quotes and newlines.
func csvCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

// safeFilePart keeps a file name in a header to plain characters.
func safeFilePart(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}
