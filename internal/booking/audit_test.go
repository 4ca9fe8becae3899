package booking

import (
	"strings"
	"testing"
	"time"
)

// TestCheckAudit: a consistent show has no violation and adds up; each
// break of a rule is found, with its evidence.
func TestCheckAudit(t *testing.T) {
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	m := Rules{TTL: 15 * time.Minute}.At(now)
	good := func() Audit {
		seat := func(id string, st SeatStatus, hold, bk string, at time.Time) Seat {
			return Seat{ID: id, Status: st, HoldID: hold, BookingID: bk, LockedAt: at}
		}
		a := Audit{
			Seats: []Seat{
				seat("A1", SeatBooked, "", "b1", time.Time{}),
				seat("A2", SeatBooked, "", "b1", time.Time{}),
				seat("A3", SeatLocked, "h2", "", now.Add(-time.Minute)),
				seat("A4", SeatLocked, "h2", "", now.Add(-time.Minute)),
				seat("A5", SeatLocked, "h3", "", now.Add(-time.Hour)), // lapsed, its other seat taken
				seat("A6", SeatAvailable, "", "", time.Time{}),
			},
			Holds: map[string]Hold{
				"h2": {ID: "h2", SeatIDs: []string{"A3", "A4"}, State: HoldActive},
				"h3": {ID: "h3", SeatIDs: []string{"A4", "A5"}, State: HoldActive},
			},
			Bookings: []Booking{
				{ID: "b1", PaymentID: "p1", SeatIDs: []string{"A1", "A2"}, State: BookingConfirmed, Amount: 250_00, ConfirmedAt: now.Add(-2 * time.Hour),
					Tickets: []SeatTicket{{SeatID: "A1", Type: "adult", Price: 250_00, TaxRate: 1800}, {SeatID: "A2", Type: "comp", Price: 0, TaxRate: 1800}}},
				{ID: "b2", PaymentID: "p2", SeatIDs: []string{"A1"}, State: BookingRefundDue},
				{ID: "b3", PaymentID: "p3", SeatIDs: []string{"A3"}, State: BookingPending},
				// Sold at the counter, then refunded there: its seat free.
				{ID: "b4", PaymentID: "p4", SeatIDs: []string{"A6"}, State: BookingRefunded, Amount: 180_00,
					Channel: ChannelBoxOffice, Method: MethodCash, RefundMethod: MethodCash,
					ConfirmedAt: now.Add(-3 * time.Hour), RefundedAt: now.Add(-time.Hour)},
				// A late payment, refunded: money returned without a sale.
				{ID: "b5", PaymentID: "p5", SeatIDs: []string{"A5"}, State: BookingRefunded, Amount: 100_00, RefundedAt: now.Add(-30 * time.Minute)},
			},
			Payments: map[string]Payment{
				"p1": {ID: "p1", State: PaymentSucceeded},
				"p2": {ID: "p2", State: PaymentSucceeded},
				"p3": {ID: "p3", State: PaymentPending},
				"p4": {ID: "p4", State: PaymentSucceeded, Provider: ProviderBoxOffice, Method: MethodCash, Amount: 180_00},
				"p5": {ID: "p5", State: PaymentSucceeded, Amount: 100_00},
			},
			Report:    &ShowSales{Sums: TicketSums{Admissions: 1, Comps: 1, Gross: 250_00, Tax: 38_14}},
			SalesFrom: DayOf(now, time.UTC).AddDate(0, 0, -1),
			SalesTo:   DayOf(now, time.UTC).AddDate(0, 0, 1),
		}
		for _, b := range a.Bookings {
			if !b.ConfirmedAt.IsZero() || b.State == BookingRefunded {
				v := SaleOf(b)
				v.TheatreID, v.TimeZone = "t1", "Asia/Kolkata"
				a.Sales = append(a.Sales, v)
			}
		}
		return a
	}
	// A cancelled show's bookings are due a refund and keep their seats.
	cancelled := good()
	cancelled.Bookings[0].State, cancelled.Bookings[0].Reason = BookingRefundDue, ReasonShowCancelled
	cancelled.Report = nil
	if bad, _ := CheckAudit(cancelled, m); len(bad) != 0 {
		t.Errorf("a cancelled show's refund-due booking: %q", bad)
	}
	bad, n := CheckAudit(good(), m)
	if len(bad) != 0 {
		t.Fatalf("a consistent show: %q", bad)
	}
	want := AuditCounts{Seats: 6, Available: 1, Locked: 3, Booked: 2, Confirmed: 1, RefundDue: 1, Pending: 1, PaidPayments: 4}
	if n != want {
		t.Errorf("counts %+v, want %+v", n, want)
	}

	// A6, refunded at the counter (b4), sold there again (b6): one
	// confirmed booking of it, the refunded one beside it.
	resold := func() Audit {
		a := good()
		b6 := Booking{ID: "b6", PaymentID: "p6", SeatIDs: []string{"A6"}, State: BookingConfirmed, Amount: 180_00,
			Channel: ChannelBoxOffice, Method: MethodCard, ConfirmedAt: now.Add(-30 * time.Minute),
			Tickets: []SeatTicket{{SeatID: "A6", Type: "adult", Price: 180_00, TaxRate: 1800}}}
		a.Seats[5].Status, a.Seats[5].BookingID = SeatBooked, "b6"
		a.Bookings = append(a.Bookings, b6)
		a.Payments["p6"] = Payment{ID: "p6", State: PaymentSucceeded, Provider: ProviderBoxOffice, Method: MethodCard, Amount: 180_00}
		a.Report.Sums = a.Report.Sums.Add(b6.Sums())
		v := SaleOf(b6)
		v.TheatreID, v.TimeZone = "t1", "Asia/Kolkata"
		a.Sales = append(a.Sales, v)
		return a
	}
	bad, n = CheckAudit(resold(), m)
	if len(bad) != 0 {
		t.Errorf("a seat sold again after a counter refund: %q", bad)
	}
	want = AuditCounts{Seats: 6, Available: 0, Locked: 3, Booked: 3, Confirmed: 2, RefundDue: 1, Pending: 1, PaidPayments: 5}
	if n != want {
		t.Errorf("counts after the resale %+v, want %+v", n, want)
	}
	for _, c := range []struct {
		name  string
		spoil func(a *Audit)
		want  string
	}{
		{"resold seat in two confirmed bookings", func(a *Audit) {
			a.Bookings = append(a.Bookings, Booking{ID: "b7", PaymentID: "p7", SeatIDs: []string{"A6"}, State: BookingConfirmed, Amount: 180_00,
				Channel: ChannelBoxOffice, Method: MethodCash, ConfirmedAt: now.Add(-10 * time.Minute)})
			a.Payments["p7"] = Payment{ID: "p7", State: PaymentSucceeded, Provider: ProviderBoxOffice, Method: MethodCash, Amount: 180_00}
		}, "seat A6 is in two bookings: b6 and b7"},
		{"refund undone while resold", func(a *Audit) { a.Bookings[3].State = BookingConfirmed },
			"seat A6 is in two bookings: b4 and b6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := resold()
			c.spoil(&a)
			bad, _ := CheckAudit(a, m)
			if len(bad) == 0 || !strings.Contains(strings.Join(bad, "\n"), c.want) {
				t.Errorf("violations %q, want one saying %q", bad, c.want)
			}
		})
	}

	for _, c := range []struct {
		name  string
		spoil func(a *Audit)
		want  string
	}{
		{"seat in two bookings", func(a *Audit) {
			a.Bookings = append(a.Bookings, Booking{ID: "b4", PaymentID: "p1", SeatIDs: []string{"A2"}, State: BookingConfirmed})
		}, "seat A2 is in two bookings: b1 and b4"},
		{"booking's seat not booked", func(a *Audit) { a.Seats[1].Status, a.Seats[1].BookingID = SeatAvailable, "" },
			"booking b1 has seat A2, which is available"},
		{"booked seat without a booking", func(a *Audit) { a.Seats[5].Status, a.Seats[5].BookingID = SeatBooked, "b9" },
			`seat A6 is booked by "b9"`},
		{"hold partly applied", func(a *Audit) { a.Seats[3].HoldID = "h9" }, "hold h2 of [A3 A4] is partly applied"},
		{"hold locked at two times", func(a *Audit) { a.Seats[3].LockedAt = now }, "hold h2 of [A3 A4] is partly applied"},
		{"released hold still locks", func(a *Audit) { h := a.Holds["h2"]; h.State = HoldReleased; a.Holds["h2"] = h },
			"hold h2 is released but still locks"},
		{"paid, not booked", func(a *Audit) { a.Payments["p3"] = Payment{ID: "p3", State: PaymentSucceeded} },
			"payment p3 succeeded but its booking b3 is pending"},
		{"booked, not paid", func(a *Audit) { a.Payments["p1"] = Payment{ID: "p1", State: PaymentFailed} },
			"booking b1 is confirmed but its payment p1 is failed"},
		{"no payment", func(a *Audit) { delete(a.Payments, "p3") }, "booking b3 has no payment p3"},
		{"locked by no hold", func(a *Audit) { a.Seats[2].HoldID = "" }, "seat A3 is locked by no hold"},
		{"counter sale without its payment", func(a *Audit) { a.Payments["p4"] = Payment{ID: "p4", State: PaymentSucceeded, Amount: 180_00} },
			"box-office booking b4 (cash, 18000) has payment p4"},
		{"counter refund keeps its seat", func(a *Audit) { a.Seats[5].Status, a.Seats[5].BookingID = SeatBooked, "b4" },
			`seat A6 is booked by "b4", which is not a confirmed booking of it`},
		{"refund due keeps seats", func(a *Audit) { a.Bookings[0].State = BookingRefundDue },
			"seat A1 is booked by \"b1\", which is not a confirmed booking of it"},
		{"report's tax off", func(a *Audit) { a.Report.Sums.Tax++ },
			"the film report counts {Admissions:1 Comps:1 Gross:25000 Tax:3815} for the show; its bookings add up to {Admissions:1 Comps:1 Gross:25000 Tax:3814}"},
		{"report counts a refunded booking", func(a *Audit) { a.Bookings[0].State = BookingRefunded; a.Bookings[0].Reason = ReasonShowCancelled },
			"the film report counts {Admissions:1 Comps:1 Gross:25000 Tax:3814} for the show; its bookings add up to {Admissions:0 Comps:0 Gross:0 Tax:0}"},
		{"report leaves the show out", func(a *Audit) { a.Report = nil }, "the film report leaves out the show"},
		{"confirmed without its sale time", func(a *Audit) { a.Bookings[0].ConfirmedAt = time.Time{} },
			"booking b1 is confirmed but has no confirmed_at"},
		{"sales report misses a sale", func(a *Audit) { a.Sales = a.Sales[1:] },
			"the sales report counts {Bookings:1 Seats:1 Gross:18000 Refunds:18000} for the show; its bookings add up to {Bookings:2 Seats:3 Gross:43000 Refunds:18000}"},
		{"sales report misses a refund", func(a *Audit) { a.Sales[1].RefundedAt = time.Time{} },
			"its bookings add up to {Bookings:2 Seats:3 Gross:43000 Refunds:18000}"},
		{"sales report's refund on a day outside its range", func(a *Audit) { a.Sales[1].RefundedAt = now.AddDate(0, 0, 3) },
			"its bookings add up to {Bookings:2 Seats:3 Gross:43000 Refunds:18000}"},
		{"sales report counts an unsold refund as a sale's", func(a *Audit) { a.Sales[2].ConfirmedAt = now.Add(-time.Hour) },
			"the sales report's unsold refunds of the show are 0; its refunded bookings never confirmed add up to 10000"},
		{"sales report's types do not add up", func(a *Audit) {
			a.Sales[0].Tickets = []SeatTicket{{SeatID: "A1", Type: "adult", Price: 200_00}, {SeatID: "A2", Type: "comp"}}
		}, "the sales report's rows of 2030-01-01, online, configured, \"\" by type add up to {Bookings:0 Seats:2 Gross:20000 Refunds:0}; the row of all types has {Bookings:1 Seats:2 Gross:25000 Refunds:0}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := good()
			c.spoil(&a)
			bad, _ := CheckAudit(a, m)
			if len(bad) == 0 || !strings.Contains(strings.Join(bad, "\n"), c.want) {
				t.Errorf("violations %q, want one saying %q", bad, c.want)
			}
		})
	}
}
