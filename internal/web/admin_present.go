package web

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// This file turns domain values into the admin pages' view models.

func adminShowURL(showID string) string       { return "/admin/shows/" + showID }
func adminPaymentURL(paymentID string) string { return "/admin/payments/" + paymentID }

// short is an id's first characters: enough to tell ids apart on a page.
func short(id string) string { return prefix(id, 8) }

func prefix(id string, n int) string {
	if len(id) > n {
		return id[:n]
	}
	return id
}

func (s *Server) adminTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(s.loc).Format("2 Jan 15:04:05")
}

// countsModel is a show's counts and its occupancy bar.
func countsModel(o booking.Occupancy) model.AdminCounts {
	c := model.AdminCounts{Total: o.Total, Booked: o.Booked, Held: o.Held, Available: o.Available, Reserved: o.Reserved, Percent: o.Percent()}
	width := func(n int) float64 {
		if o.Total == 0 {
			return 0
		}
		return float64(n) * 100 / float64(o.Total)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	c.BookedWidth, c.HeldX, c.HeldWidth = f(width(o.Booked)), f(width(o.Booked)), f(width(o.Held))
	c.Label = fmt.Sprintf("%d%% full: %d booked, %d held of %d seats", c.Percent, o.Booked, o.Held, o.Total)
	if o.Reserved > 0 {
		c.Label += fmt.Sprintf(", %d reserved", o.Reserved)
	}
	return c
}

// cancelledCounts are the counts of a cancelled show (SPEC §10): nothing
// is held or available or reserved any more, a seat is booked only while
// its booking is still confirmed (booked: the seats of confirmed
// bookings, none once the cancellation's steps are done), and the rest
// are off sale. A cancelled booking's seat keeps its status booked in the
// store: the seat rule's count would call it booked.
func cancelledCounts(o booking.Occupancy, booked int) model.AdminCounts {
	c := model.AdminCounts{Total: o.Total, Booked: booked, OffSale: o.Total - booked, Cancelled: true,
		BookedWidth: "0.00", HeldX: "0.00", HeldWidth: "0.00"}
	if o.Total > 0 {
		c.Percent = booked * 100 / o.Total
		c.BookedWidth = strconv.FormatFloat(float64(booked)*100/float64(o.Total), 'f', 2, 64)
	}
	c.Label = fmt.Sprintf("Cancelled: nothing on sale, %d of %d seats still booked", booked, o.Total)
	return c
}

// cancelledSales counts what a cancelled show had sold: its bookings
// that were confirmed (now due a refund, or refunded) and their seats.
func cancelledSales(bookings []booking.Booking) *model.CancelledSales {
	var s model.CancelledSales
	for _, b := range bookings {
		switch b.State {
		case booking.BookingRefundDue:
			s.Due++
		case booking.BookingRefunded:
			s.Refunded++
		case booking.BookingConfirmed:
		default:
			continue // never sold: pending, failed
		}
		s.Bookings++
		s.Seats += len(b.SeatIDs)
		if !b.AdmittedAt.IsZero() {
			s.AdmittedBookings++
		}
	}
	return &s
}

// adminSeatMap draws a show's seats for the admin as the moviegoer's map
// draws them (drawSeats, mode "admin"): bands with their prices, aisles,
// wheelchair spaces and companion seats; each seat a checkbox for a
// reserve (SPEC §16), in the seat rule's state with its reserve, who
// holds it until when (in the show's theatre's zone) or which booking
// owns it; conflicts are marked and ticked. On a cancelled show a seat is
// booked only while its booking (of bookings) is confirmed; the rest are
// off sale (unavailable), as its counts say (cancelledCounts).
func (s *Server) adminSeatMap(show booking.Show, seats []booking.Seat, at booking.Moment, conflicts []string, bookings []booking.Booking) model.SeatMap {
	m := model.SeatMap{Show: s.adminShowModel(show), Currency: show.Currency, Mode: "admin"}
	sm := booking.SeatMap{Show: show, Seats: seats, At: at}
	for _, c := range booking.Categories(seats) {
		m.Categories = append(m.Categories, model.Category{Name: c.Name, Price: c.Price.Format(show.Currency)})
	}
	sel := selection{mode: "admin", chosen: setOf(conflicts), conflicts: setOf(conflicts)}
	if show.Cancelled() {
		sel.bookings = make(map[string]booking.BookingState, len(bookings))
		for _, b := range bookings {
			sel.bookings[b.ID] = b.State
		}
	}
	s.drawSeats(i18n.For(i18n.English), &m, sm, sel) // admin pages stay English
	return m
}

// layoutPreview draws a layout's seats as the moviegoer's map draws them
// (drawSeats, mode "preview"), without prices (a show sets them) or
// checkboxes.
func (s *Server) layoutPreview(seats []booking.Seat) *model.SeatMap {
	m := &model.SeatMap{Mode: "preview"}
	for _, c := range booking.Categories(seats) {
		m.Categories = append(m.Categories, model.Category{Name: c.Name})
	}
	s.drawSeats(i18n.For(i18n.English), m, booking.SeatMap{Seats: seats, At: s.svc.Now()}, selection{mode: "preview", chosen: map[string]bool{}})
	return m
}

// adminSeat is seat st as the admin's map shows it: the seat rule's
// state (a reserve is shown beside it, not instead), who holds or booked
// it, and an accessible name that says all of it.
func (s *Server) adminSeat(sm booking.SeatMap, st booking.Seat, priceText string, sel selection, v *model.Seat) {
	m := sm.At
	state := booking.StateHeld
	switch {
	case st.Status == booking.SeatBooked:
		state = booking.StateBooked
	case st.AvailableAt(m):
		state = booking.StateAvailable
	}
	v.State, v.Reserve, v.ExpiresAt, v.Disabled = string(state), string(st.Reserve), "", false
	switch state {
	case booking.StateBooked:
		v.Status = "booked, booking " + st.BookingID
	case booking.StateAvailable:
		v.Status = "available"
	default:
		exp := st.LockExpiresAt(m.TTL)
		v.ExpiresAt = expiryAttr(exp)
		v.Status = fmt.Sprintf("held by hold %s until %s", short(st.HoldID), exp.In(s.showLocation(sm.Show)).Format("2 Jan 15:04:05"))
	}
	if sm.Show.Cancelled() {
		// The cancellation leaves a cancelled booking's seats booked in
		// the store; on the map, as in the counts, only a confirmed
		// booking's seat is booked.
		if bs, ok := sel.bookings[st.BookingID]; state != booking.StateBooked || !ok || bs != booking.BookingConfirmed {
			v.State, v.ExpiresAt = string(booking.StateUnavailable), ""
			v.Status = "off sale, the show is cancelled"
			if state == booking.StateBooked {
				v.Status += "; booking " + st.BookingID + " " + strings.ReplaceAll(string(bs), "_", " ")
			}
		}
	}
	if st.Reserve != booking.ReserveNone {
		v.Status += ", " + string(st.Reserve)
	}
	if v.Conflict {
		v.Status += ", cannot take this reserve"
	}
	v.Note = st.ID + ": " + v.Status
	what := v.What
	if what != "" {
		what += ", "
	}
	v.Name = "Row " + st.Row + ", seat " + v.Number + ", " + what + st.Category + ", " + priceText + ", " + v.Status
}

// refundLabel is the refund button's words: where the money goes back
// through.
func (s *Server) refundLabel() string {
	switch {
	case s.opts.Payments == nil:
		return "Refund"
	case s.sandbox:
		return "Refund (sandbox: simulated)"
	}
	name := s.opts.Payments.Name()
	return "Refund through " + strings.ToUpper(name[:1]) + name[1:]
}

// adminBookingModel is a booking for the admin pages; its admission is in
// loc, its show's theatre's zone.
func (s *Server) adminBookingModel(b booking.Booking, loc *time.Location) model.AdminBooking {
	m := model.AdminBooking{
		ID: b.ID, Short: short(b.ID), State: string(b.State), Seats: strings.Join(b.SeatIDs, ", "),
		Total: b.Amount.Format(b.Currency), TicketCode: b.TicketCode, Created: s.adminTime(b.CreatedAt),
		Reason: adminReason(b.Reason), PaymentID: b.PaymentID, PaymentURL: adminPaymentURL(b.PaymentID), Owner: short(b.Owner),
		Tickets: bookingSeats(b),
	}
	if !b.AdmittedAt.IsZero() {
		m.Admitted = b.AdmittedAt.In(loc).Format("2 Jan 15:04:05") + " by " + b.AdmittedBy
	}
	switch {
	case b.State == booking.BookingRefunded:
		m.RefundPaid = s.adminTime(b.RefundedAt) + " by " + b.RefundedBy
		if b.RefundID != "" {
			m.RefundPaid += " (" + b.RefundID + ")"
		} else if b.AtBoxOffice() {
			m.RefundPaid += " (at the counter, " + string(b.RefundMethod) + ")"
		} else {
			m.RefundPaid += " (outside boxoffice)"
		}
	case b.RefundPending() && b.AtBoxOffice():
		m.CounterRefundURL = counterBookingURL(b.ID)
	case b.RefundPending():
		m.RefundAction = "/admin/bookings/" + b.ID + "/refund"
		m.RefundLabel = s.refundLabel()
		m.RefundedElsewhereAction = "/admin/bookings/" + b.ID + "/refunded"
	}
	return m
}

func (s *Server) adminCallbacks(list []booking.CallbackRecord) []model.AdminCallback {
	out := make([]model.AdminCallback, 0, len(list))
	for _, r := range list {
		cb := model.AdminCallback{
			At: s.adminTime(r.ReceivedAt), Signature: string(r.Signature), EventID: r.EventID,
			EventType: r.EventType, PaymentID: r.PaymentID, Status: r.Status,
			Outcome: r.Outcome, Duplicate: r.Duplicate, Reason: adminReason(r.Reason),
		}
		if r.PaymentID != "" {
			cb.PaymentURL = adminPaymentURL(r.PaymentID)
		}
		out = append(out, cb)
	}
	return out
}

// paymentVerdict says in one sentence what became of a payment, from its
// booking and the callbacks received for it.
func paymentVerdict(p booking.Payment, b booking.Booking, callbacks []booking.CallbackRecord) string {
	switch {
	case b.State == booking.BookingConfirmed:
		return "Paid and booked: ticket " + b.TicketCode + "."
	case b.State == booking.BookingRefunded:
		return "Charged, then refunded (" + b.RefundID + "). Why: " + adminReason(b.Reason)
	case b.State == booking.BookingRefundDue:
		return "Charged, but nothing was booked: a refund is due and not yet made. Why: " + adminReason(b.Reason)
	case b.State == booking.BookingFailed:
		return "The payment failed or was declined: nothing was charged, nothing booked."
	}
	refused := 0
	for _, r := range callbacks {
		if r.Outcome == booking.OutcomeRejected || r.Outcome == booking.OutcomeError {
			refused++
		}
	}
	if refused > 0 {
		return fmt.Sprintf("Still pending: %d callback(s) for it were refused (see below), none took effect.", refused)
	}
	return "Still pending: the payment provider has not told us the outcome yet (no callback received)."
}
