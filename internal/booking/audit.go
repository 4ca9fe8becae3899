package booking

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Audit is what a show's seats, holds, bookings and payments are in the
// database at one moment, for CheckAudit: the load tool reads it at the end
// of a run, from the database rather than from the answers it got.
type Audit struct {
	Seats    []Seat
	Holds    map[string]Hold // every hold a seat is locked by
	Bookings []Booking
	Payments map[string]Payment // by id: the payment of every booking
	// Report is the show as the film report reads it (FilmShows, SPEC
	// §17): its sums of the bookings the report counts. Nil when the
	// report does not list it (a cancelled show of a film with no other
	// show that day).
	Report *ShowSales
	// Sales are the show's bookings as the sales report reads them
	// (SalesBookings, SPEC §17) over SalesFrom to SalesTo, dates that
	// hold, in every zone, each instant a booking of the show was
	// confirmed or refunded at.
	Sales              []BookingSale
	SalesFrom, SalesTo time.Time
}

// AuditReader reads what an Audit needs; every Store does.
type AuditReader interface {
	Seats(ctx context.Context, showID string) ([]Seat, error)
	ShowBookings(ctx context.Context, showID string) ([]Booking, error)
	Hold(ctx context.Context, holdID string) (Hold, error)
	Payment(ctx context.Context, paymentID string) (Payment, error)
	Show(ctx context.Context, showID string) (Show, error)
	FilmReportReader
	SalesReportReader
}

// LoadAudit reads a show's Audit. It reads in several steps, so it is one
// moment only when nothing writes meanwhile, as at the end of a load run.
func LoadAudit(ctx context.Context, r AuditReader, showID string) (Audit, error) {
	a := Audit{Holds: map[string]Hold{}, Payments: map[string]Payment{}}
	var err error
	if a.Seats, err = r.Seats(ctx, showID); err != nil {
		return a, err
	}
	for _, s := range a.Seats {
		if s.Status != SeatLocked || s.HoldID == "" {
			continue
		}
		if _, ok := a.Holds[s.HoldID]; ok {
			continue
		}
		h, err := r.Hold(ctx, s.HoldID)
		if err != nil {
			return a, fmt.Errorf("hold %s of seat %s: %w", s.HoldID, s.ID, err)
		}
		a.Holds[h.ID] = h
	}
	if a.Bookings, err = r.ShowBookings(ctx, showID); err != nil {
		return a, err
	}
	for _, b := range a.Bookings {
		p, err := r.Payment(ctx, b.PaymentID)
		if err != nil {
			return a, fmt.Errorf("payment %s of booking %s: %w", b.PaymentID, b.ID, err)
		}
		a.Payments[p.ID] = p
	}
	show, err := r.Show(ctx, showID)
	if err != nil {
		return a, err
	}
	// Every instant of the show's date in any zone: the report's read of
	// its day lists it, when it lists it at all.
	day := DayOf(show.StartsAt, time.UTC)
	from, to := InstantsOf(day, day)
	sales, err := r.FilmShows(ctx, from, to)
	if err != nil {
		return a, err
	}
	for _, v := range sales {
		if v.ShowID == showID {
			a.Report = &v
		}
	}
	// The sales report's read of the days of its bookings' sales and
	// refunds, in every zone (UTC's dates, a day either side).
	var first, last time.Time
	for _, b := range a.Bookings {
		for _, t := range []time.Time{b.ConfirmedAt, b.RefundedAt} {
			if t.IsZero() {
				continue
			}
			if day := DayOf(t, time.UTC); first.IsZero() || day.Before(first) {
				first = day
			}
			if day := DayOf(t, time.UTC); day.After(last) {
				last = day
			}
		}
	}
	if !first.IsZero() {
		a.SalesFrom, a.SalesTo = first.AddDate(0, 0, -1), last.AddDate(0, 0, 1)
		from, to := InstantsOf(a.SalesFrom, a.SalesTo)
		if a.Sales, err = r.SalesBookings(ctx, SalesQuery{From: from, To: to, ShowID: showID}); err != nil {
			return a, err
		}
	}
	return a, nil
}

// AuditCounts is what an Audit adds up to.
type AuditCounts struct {
	Seats, Available, Locked, Booked int
	Confirmed, RefundDue, Pending    int // bookings
	PaidPayments                     int
}

// Add is n and o added up, for the audit of several shows.
func (n AuditCounts) Add(o AuditCounts) AuditCounts {
	return AuditCounts{
		Seats: n.Seats + o.Seats, Available: n.Available + o.Available, Locked: n.Locked + o.Locked,
		Booked: n.Booked + o.Booked, Confirmed: n.Confirmed + o.Confirmed, RefundDue: n.RefundDue + o.RefundDue,
		Pending: n.Pending + o.Pending, PaidPayments: n.PaidPayments + o.PaidPayments,
	}
}

// CheckAudit returns every way a breaks the rules that no load, crash or
// race may break, each with its evidence, and what a adds up to:
//   - no seat is in two confirmed bookings;
//   - every confirmed booking's seats are booked by it, and every booked
//     seat belongs to a booking that lists it and is confirmed, or is due a
//     refund (or refunded) because its show was cancelled, which keeps its
//     seats from being sold again;
//   - every locked seat names its hold;
//   - no hold is partly applied: a hold whose lock is live has every one of
//     its seats locked by it, at one time;
//   - every succeeded payment's booking is confirmed, refund due or
//     refunded, and every confirmed booking's payment succeeded;
//   - every box-office booking has its recorded payment (SPEC §16):
//     provider box_office, the sale's method and amount, succeeded;
//   - the film report's figures of the show (admissions, comps, gross,
//     tax) are the sums over the bookings it counts (Booking.Counts,
//     Booking.Sums), and a show with such a booking is in the report;
//   - every confirmed booking knows when it became confirmed, and the
//     sales report's rows of the show's bookings (checkSalesReport) add
//     up to the sums over them.
func CheckAudit(a Audit, m Moment) ([]string, AuditCounts) {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	var n AuditCounts
	seats := make(map[string]Seat, len(a.Seats))
	for _, s := range a.Seats {
		seats[s.ID] = s
		n.Seats++
		switch s.Status {
		case SeatAvailable:
			n.Available++
		case SeatLocked:
			n.Locked++
			if s.HoldID == "" {
				fail("seat %s is locked by no hold", s.ID)
			}
		case SeatBooked:
			n.Booked++
		default:
			fail("seat %s is %q", s.ID, s.Status)
		}
	}

	bookedBy := map[string]string{} // seat: the confirmed booking that has it
	bookings := map[string]Booking{}
	var counted TicketSums
	for _, b := range a.Bookings {
		bookings[b.ID] = b
		if b.Counts() {
			counted = counted.Add(b.Sums())
		}
		p, ok := a.Payments[b.PaymentID]
		switch {
		case !ok:
			fail("booking %s has no payment %s", b.ID, b.PaymentID)
		case p.State == PaymentSucceeded && b.State != BookingConfirmed && b.State != BookingRefundDue && b.State != BookingRefunded:
			fail("payment %s succeeded but its booking %s is %s", p.ID, b.ID, b.State)
		case b.State == BookingConfirmed && p.State != PaymentSucceeded:
			fail("booking %s is confirmed but its payment %s is %s", b.ID, p.ID, p.State)
		}
		if ok && b.AtBoxOffice() && (p.Provider != ProviderBoxOffice || p.Method != b.Method || p.Amount != b.Amount || p.State != PaymentSucceeded) {
			fail("box-office booking %s (%s, %d) has payment %s by %q (%s, %d, %s), not its sale's", b.ID, b.Method, b.Amount, p.ID, p.Provider, p.Method, p.Amount, p.State)
		}
		if ok && p.State == PaymentSucceeded {
			n.PaidPayments++
		}
		switch b.State {
		case BookingPending:
			n.Pending++
		case BookingRefundDue:
			n.RefundDue++
		case BookingConfirmed:
			n.Confirmed++
			for _, id := range b.SeatIDs {
				if other, dup := bookedBy[id]; dup {
					fail("seat %s is in two bookings: %s and %s", id, other, b.ID)
				}
				bookedBy[id] = b.ID
				if s := seats[id]; s.Status != SeatBooked || s.BookingID != b.ID {
					fail("booking %s has seat %s, which is %s (booking %q)", b.ID, id, s.Status, s.BookingID)
				}
			}
		}
	}
	for _, s := range a.Seats {
		if s.Status != SeatBooked {
			continue
		}
		b, ok := bookings[s.BookingID]
		keeps := b.State == BookingConfirmed ||
			((b.State == BookingRefundDue || b.State == BookingRefunded) && ReasonIs(b.Reason, ReasonShowCancelled))
		if !ok || !keeps || !slices.Contains(b.SeatIDs, s.ID) {
			fail("seat %s is booked by %q, which is not a confirmed booking of it", s.ID, s.BookingID)
		}
	}

	switch {
	case a.Report != nil && a.Report.Sums != counted:
		fail("the film report counts %+v for the show; its bookings add up to %+v", a.Report.Sums, counted)
	case a.Report == nil && counted != (TicketSums{}):
		fail("the film report leaves out the show, whose bookings add up to %+v", counted)
	}

	for _, b := range a.Bookings {
		if b.State == BookingConfirmed && b.ConfirmedAt.IsZero() {
			fail("booking %s is confirmed but has no confirmed_at", b.ID)
		}
	}
	bad = append(bad, checkSalesReport(a)...)

	for _, id := range slices.Sorted(maps.Keys(a.Holds)) {
		h := a.Holds[id]
		var locked []string
		live, times := false, map[int64]bool{}
		for _, sid := range h.SeatIDs {
			s := seats[sid]
			if s.Status == SeatLocked && s.HoldID == h.ID {
				locked = append(locked, sid)
				live = live || !LockLapsed(s.LockedAt, m)
				times[s.LockedAt.UnixNano()] = true
			}
		}
		if live && (len(locked) != len(h.SeatIDs) || len(times) != 1) {
			fail("hold %s of %v is partly applied: only %v are locked by it", h.ID, h.SeatIDs, locked)
		}
		if live && h.State != HoldActive {
			fail("hold %s is %s but still locks %v", h.ID, h.State, locked)
		}
	}
	return bad, n
}

// checkSalesReport builds the sales report (BuildSalesReport) of a's
// Sales over its dates and checks its totals against the sums over a's
// bookings: the rows of all types count each booking confirmed once,
// with its seats and amount, and the amount of each refunded one, in its
// channel's rows when it had been confirmed, else in unsold; and in each
// theatre, day, channel, method and currency the types' rows add up to
// the row of all types.
func checkSalesReport(a Audit) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	var want, got SalesFigures
	var wantUnsold, gotUnsold Money
	for _, b := range a.Bookings {
		if !b.ConfirmedAt.IsZero() {
			want = want.Add(SalesFigures{Bookings: 1, Seats: len(TicketsOf(b)), Gross: b.Amount})
		}
		if b.State == BookingRefunded && !b.RefundedAt.IsZero() {
			if b.ConfirmedAt.IsZero() {
				wantUnsold += b.Amount
			} else {
				want.Refunds += b.Amount
			}
		}
	}
	if len(a.Sales) == 0 && want == (SalesFigures{}) && wantUnsold == 0 {
		return nil
	}
	r := BuildSalesReport(a.SalesFrom, a.SalesTo, a.Sales, "configured", time.UTC)
	type group struct {
		theatre, channel, method, currency string
		day                                time.Time
	}
	all, types := map[group]SalesFigures{}, map[group]SalesFigures{}
	for _, row := range r.Rows {
		g := group{row.TheatreID, string(row.Channel), row.Method, row.Currency, row.Day}
		switch {
		case row.Channel == ChannelUnsold:
			gotUnsold += row.Refunds
		case row.TicketType == AllTypes:
			got = got.Add(row.SalesFigures)
			all[g] = all[g].Add(row.SalesFigures)
		default:
			types[g] = types[g].Add(SalesFigures{Seats: row.Seats, Gross: row.Gross, Refunds: row.Refunds})
		}
	}
	if got != want {
		fail("the sales report counts %+v for the show; its bookings add up to %+v", got, want)
	}
	if gotUnsold != wantUnsold {
		fail("the sales report's unsold refunds of the show are %d; its refunded bookings never confirmed add up to %d", gotUnsold, wantUnsold)
	}
	for g, f := range all {
		if t := types[g]; t != (SalesFigures{Seats: f.Seats, Gross: f.Gross, Refunds: f.Refunds}) {
			fail("the sales report's rows of %s, %s, %s, %q by type add up to %+v; the row of all types has %+v", g.day.Format(DateLayout), g.channel, g.method, g.currency, t, f)
		}
	}
	return bad
}
