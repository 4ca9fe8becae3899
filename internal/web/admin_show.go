package web

import (
	"encoding/csv"
	"io"
	"net/http"
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
	var notice *model.Notice
	switch {
	case c.QueryParam("refunded") != "":
		notice = &model.Notice{Kind: "info", Text: "Refund made."}
	case c.QueryParam("cancelled") != "":
		notice = &model.Notice{Kind: "info", Text: "The show is cancelled: sales have stopped, and its bookings are in the refund queue."}
	case c.QueryParam("opening") != "":
		notice = &model.Notice{Kind: "info", Text: "Sales opening saved."}
	case c.QueryParam("prices") != "":
		notice = &model.Notice{Kind: "info", Text: "Prices saved."}
	case c.QueryParam("reserved") != "":
		notice = &model.Notice{Kind: "info", Text: "Seats saved."}
	case c.QueryParam("cutoff") != "":
		notice = &model.Notice{Kind: "info", Text: "Online cut-off saved."}
	}
	return s.renderAdminShow(c, http.StatusOK, notice, nil)
}

// renderAdminShow renders the show's admin page with status; opening, when
// not nil, is the sales opening form as the admin sent it, with its error.
func (s *Server) renderAdminShow(c echo.Context, status int, notice *model.Notice, opening *model.Field) error {
	return s.renderAdminShowWith(c, status, notice, opening, nil)
}

// renderAdminShowWith is renderAdminShow with prices, when not nil, the
// price table's form as the admin sent it, with its problems.
func (s *Server) renderAdminShowWith(c echo.Context, status int, notice *model.Notice, opening *model.Field, prices *model.AdminShowPrices) error {
	return s.renderAdminShowSent(c, status, notice, adminShowSent{opening: opening, prices: prices})
}

// adminShowSent is what an admin sent that the show's page shows again
// with its problems: a form (nil: as stored), or the seats a reserve
// could not take.
type adminShowSent struct {
	opening   *model.Field
	prices    *model.AdminShowPrices
	cutoff    *model.Field
	conflicts []string
}

// renderAdminShowSent renders the show's admin page with status and what
// the admin sent.
func (s *Server) renderAdminShowSent(c echo.Context, status int, notice *model.Notice, sent adminShowSent) error {
	opening, prices := sent.opening, sent.prices
	ctx := c.Request().Context()
	showID := c.Param("showID")
	r, err := s.svc.ShowReport(ctx, showID, adminCallbackLimit)
	if err != nil {
		return err
	}
	show, occ, seats, bookings, callbacks, m := r.Show, r.Occupancy, r.Seats, r.Bookings, r.Callbacks, r.At
	v := model.AdminShow{
		AdminPage: s.adminPage(c, show.Movie.Title),
		Show:      s.adminShowModel(show),
		Counts:    countsModel(occ),
		TTL:       durationText(m.TTL),
		Callbacks: s.adminCallbacks(callbacks),
		CSVURL:    adminShowURL(showID) + "/bookings.csv",
	}
	v.Notice = notice
	if v.Opening, err = s.salesOpeningModel(ctx, show, m.Now, opening); err != nil {
		return err
	}
	if v.Prices = prices; prices == nil {
		if v.Prices, err = s.showPricesModel(c, showID, nil, nil); err != nil {
			return err
		}
	}
	if !show.Cancelled() {
		v.CancelURL = adminShowURL(showID) + "/cancel"
	}
	v.ReserveAction, v.Conflicts = adminShowURL(showID)+"/reserve", sent.conflicts
	v.Cutoff = cutoffModel(show, occ, sent.cutoff)
	v.Door = booking.CountAdmitted(bookings)
	v.Map = s.adminSeatMap(show, seats, m, sent.conflicts, bookings)
	if show.Cancelled() {
		v.Counts, v.Sold = cancelledCounts(occ, v.Door.Booked), cancelledSales(bookings)
	}
	lookups := lookupBudget{left: adminLookupsPerView, until: time.Now().Add(adminLookupTime)}
	for _, b := range bookings {
		if lookups.allows() {
			var asked bool
			b, asked = s.refreshPending(c, b)
			lookups.spent(asked)
		}
		if b.State == booking.BookingConfirmed {
			v.Confirmed++
		}
		bm := s.adminBookingModel(b, s.showLocation(show))
		v.Bookings = append(v.Bookings, bm)
		if bm.RefundAction != "" || bm.CounterRefundURL != "" {
			v.RefundQueue = append(v.RefundQueue, bm)
		}
	}
	return s.render(c, status, pages.AdminShow(v))
}

// A show's page looks its stuck payments up at the provider (SPEC §9) one
// after another inside its request, so it bounds them twice: at most
// adminLookupsPerView lookups, and none started once adminLookupTime has
// passed since the page began them. The rest are left for the next view,
// which gets to them: a payment just asked is not due again for
// booking.LookupEvery, so the next view's lookups go to the others.
const (
	adminLookupsPerView = 5
	adminLookupTime     = 3 * time.Second
)

// lookupBudget is what is left of a request's provider lookups: a number
// and a wall-clock deadline (a provider's latency is real time, not the
// booking clock).
type lookupBudget struct {
	left  int
	until time.Time
}

func (l *lookupBudget) allows() bool { return l.left > 0 && time.Now().Before(l.until) }

func (l *lookupBudget) spent(asked bool) {
	if asked {
		l.left--
	}
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
	if booking.ErrorCode(err) == booking.EINTERNAL {
		// The provider did not answer, or not as it should: nothing was
		// recorded, and pressing again asks again with the same key.
		s.log.ErrorContext(ctx, "refund through the provider failed", "booking_id", c.Param("bookingID"),
			"err", err, "request_id", requestIDOf(c))
		return errProviderUnavailable
	}
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "refund made", "booking_id", b.ID, "refund_id", b.RefundID, "admin", adm.Email, "request_id", requestIDOf(c))
	return refundDone(c, b)
}

// handleAdminRefundedElsewhere is POST /admin/bookings/:bookingID/refunded:
// the admin records that a refund_due booking's money went back outside
// boxoffice (in the provider's dashboard), so it leaves the queue.
func (s *Server) handleAdminRefundedElsewhere(c echo.Context) error {
	ctx := c.Request().Context()
	adm := currentAdmin(c)
	b, err := s.svc.RefundedElsewhere(ctx, c.Param("bookingID"), adm.Email)
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "refund recorded as made outside boxoffice", "booking_id", b.ID, "admin", adm.Email, "request_id", requestIDOf(c))
	return refundDone(c, b)
}

// handleAdminShowCancel is POST /admin/shows/:showID/cancel with
// confirm=yes: the show is cancelled (SPEC §10). Refunds that
// REFUND_AUTOMATICALLY could not make stay in the queue, and the page says
// so.
func (s *Server) handleAdminShowCancel(c echo.Context) error {
	ctx := c.Request().Context()
	if c.FormValue("confirm") != "yes" {
		return booking.Errorf(booking.EINVALID, "Tick \"Yes, cancel this show\" to confirm: cancelling cannot be undone.")
	}
	adm := currentAdmin(c)
	show, due, err := s.svc.CancelShow(ctx, c.Param("showID"))
	if show.ID == "" && err != nil {
		return err
	}
	if err != nil {
		s.log.ErrorContext(ctx, "refunds of a cancelled show failed; they wait in the refund queue", "show_id", show.ID,
			"err", err, "request_id", requestIDOf(c))
	}
	s.log.InfoContext(ctx, "show cancelled", "show_id", show.ID, "bookings_due_refund", len(due), "admin", adm.Email,
		"request_id", requestIDOf(c))
	return redirect(c, adminShowURL(show.ID)+"?cancelled=1")
}

// handleAdminBookingsCSV is GET /admin/shows/:showID/bookings.csv: the
// show's bookings, amounts in major units with the currency, times in the
// theatre's zone with its offset.
func (s *Server) handleAdminBookingsCSV(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	show, bookings, err := s.svc.ShowBookings(ctx, showID)
	if err != nil {
		return err
	}
	return writeBookingsCSV(startCSV(c, "bookings-"+safeFilePart(showID)), bookings, s.showLocation(show))
}

// startCSV answers 200 with a CSV download named name (.csv added, name
// already safe for a header) and returns where its body goes.
func startCSV(c echo.Context, name string) io.Writer {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	return c.Response()
}

var csvHeader = []string{"booking_id", "state", "channel", "seats", "amount", "currency", "ticket_code", "email",
	"payment_id", "visitor", "created_at", "updated_at", "admitted_at", "admitted_by", "reason", "refunded_at",
	"refunded_by", "refund_id", "tickets"}

// writeBookingsCSV writes bookings as CSV, every cell through csvCell:
// amounts in their currency's major units (250.00, with the currency in
// the next column), times RFC 3339 in loc (the theatre's zone) with its
// offset.
func writeBookingsCSV(w interface{ Write([]byte) (int, error) }, bookings []booking.Booking, loc *time.Location) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(loc).Format(time.RFC3339)
	}
	for _, b := range bookings {
		channel := string(b.Channel)
		if channel == "" {
			channel = string(booking.ChannelOnline)
		}
		row := []string{b.ID, string(b.State), channel, strings.Join(b.SeatIDs, " "), majorUnits(b.Amount, b.Currency),
			b.Currency, b.TicketCode, b.Email, b.PaymentID, short(b.Owner), ts(b.CreatedAt), ts(b.UpdatedAt),
			ts(b.AdmittedAt), b.AdmittedBy, adminReason(b.Reason), ts(b.RefundedAt), b.RefundedBy, b.RefundID, csvTickets(b)}
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

// csvTickets is b's seats as sold (SPEC §15), each its seat, its type's id
// and its price in major units, "A1 adult 180.00; A2 child 90.00".
func csvTickets(b booking.Booking) string {
	var parts []string
	for _, t := range booking.TicketsOf(b) {
		parts = append(parts, t.SeatID+" "+t.Type+" "+majorUnits(t.Price, b.Currency))
	}
	return strings.Join(parts, "; ")
}

// majorUnits writes m in currency's major units with all its minor digits
// and no symbol or grouping, as CSV gives money (SPEC §17): "180.00" for
// INR 18000, "1500" for JPY 1500.
func majorUnits(m booking.Money, currency string) string { return m.Major(currency) }

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
