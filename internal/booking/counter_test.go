package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestCashUp: a day's rows per staff account add up sales by method, comp
// seats (sold for 0), and refunds at the counter by who made them that
// day, whenever the sale was; online bookings and automatic refunds count
// for nobody.
func TestCashUp(t *testing.T) {
	day := t0.Truncate(24 * time.Hour)
	next := day.Add(24 * time.Hour)
	sale := func(by string, method booking.Method, amount booking.Money, seats int, at time.Time) booking.Booking {
		b := booking.Booking{Channel: booking.ChannelBoxOffice, SoldBy: by, Method: method, Amount: amount, CreatedAt: at, State: booking.BookingConfirmed}
		for i := range seats {
			b.SeatIDs = append(b.SeatIDs, "A"+string(rune('1'+i)))
			b.Tickets = append(b.Tickets, booking.SeatTicket{SeatID: b.SeatIDs[i], Price: amount / booking.Money(seats)})
		}
		return b
	}
	refunded := func(b booking.Booking, by string, method booking.Method, at time.Time) booking.Booking {
		b.State, b.RefundedBy, b.RefundMethod, b.RefundedAt = booking.BookingRefunded, by, method, at
		return b
	}
	comp := sale("ana@x", booking.MethodComp, 0, 2, day.Add(time.Hour))
	typedZero := sale("ana@x", booking.MethodCash, 300_00, 2, day.Add(2*time.Hour))
	typedZero.Tickets[1].Price, typedZero.Tickets[0].Price = 0, 300_00
	bookings := []booking.Booking{
		sale("ana@x", booking.MethodCash, 500_00, 2, day.Add(time.Hour)),
		sale("ana@x", booking.MethodCard, 200_00, 1, day.Add(3*time.Hour)),
		comp,
		typedZero,
		// Sold yesterday by ben, refunded today by ana in cash.
		refunded(sale("ben@x", booking.MethodCash, 150_00, 1, day.Add(-time.Hour)), "ana@x", booking.MethodCash, day.Add(5*time.Hour)),
		// Sold today by ben by card and refunded today by him.
		refunded(sale("ben@x", booking.MethodCard, 400_00, 2, day.Add(6*time.Hour)), "ben@x", booking.MethodCard, day.Add(7*time.Hour)),
		// A cancelled show's comp, refunded automatically.
		refunded(sale("ben@x", booking.MethodComp, 0, 1, day.Add(-48*time.Hour)), booking.RefundedAutomatically, booking.MethodComp, day.Add(time.Hour)),
		// Tomorrow's sale, and an online booking.
		sale("ana@x", booking.MethodCash, 900_00, 3, next),
		{Channel: booking.ChannelOnline, Amount: 700_00, CreatedAt: day.Add(time.Hour), SeatIDs: []string{"B1"}},
	}
	got := booking.CashUp(bookings, day, next)
	want := []booking.CashUpRow{
		{Staff: "ana@x", Sales: 4, Seats: 7, Cash: 800_00, Card: 200_00, Comp: 3, CashRefunds: 150_00},
		{Staff: "ben@x", Sales: 1, Seats: 2, Card: 400_00, CardRefunds: 400_00},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CashUp (-want +got):\n%s", diff)
	}
	if got[0].Net() != 650_00 || got[1].Net() != 0 {
		t.Errorf("net cash %d and %d, want 65000 (800 taken − 150 refunded) and 0", got[0].Net(), got[1].Net())
	}
}

// TestCounterOffers: the box office offers at first the shows starting
// within 12 hours and those running now (from their start for their
// movie's runtime), not cancelled ones.
func TestCounterOffers(t *testing.T) {
	show := func(start time.Duration, runtime int) booking.Show {
		return booking.Show{StartsAt: t0.Add(start), Movie: booking.Movie{RuntimeMin: runtime}}
	}
	cancelled := show(time.Hour, 120)
	cancelled.CancelledAt = t0
	for name, c := range map[string]struct {
		show booking.Show
		want bool
	}{
		"in an hour":          {show(time.Hour, 120), true},
		"in 12 hours":         {show(12*time.Hour, 120), true},
		"in 12 hours and 1s":  {show(12*time.Hour+time.Second, 120), false},
		"started, running":    {show(-119*time.Minute, 120), true},
		"started, just ended": {show(-120*time.Minute, 120), false},
		"cancelled":           {cancelled, false},
		"starting now":        {show(0, 0), true},
	} {
		if got := booking.CounterOffers(c.show, t0); got != c.want {
			t.Errorf("%s: CounterOffers = %v, want %v", name, got, c.want)
		}
	}
}

// TestLostSeatsWithReserves: Sell may take a free house seat but never a
// blocked one (SPEC §16), nor a seat locked by another hold; a seat its
// hold still locks is its own, however old the lock.
func TestLostSeatsWithReserves(t *testing.T) {
	m := booking.Rules{TTL: 15 * time.Minute}.At(t0)
	h := booking.Hold{ID: "h1", SeatIDs: []string{"A1", "A2", "A3", "A4", "A5", "A6"}, Counter: true}
	seats := []booking.Seat{
		{ID: "A1", Status: booking.SeatLocked, HoldID: "h1", LockedAt: t0.Add(-time.Hour)},
		{ID: "A2", Status: booking.SeatAvailable, Reserve: booking.ReserveHouse},
		{ID: "A3", Status: booking.SeatAvailable, Reserve: booking.ReserveBlocked},
		{ID: "A4", Status: booking.SeatLocked, HoldID: "h2", LockedAt: t0.Add(-time.Minute)},
		{ID: "A5", Status: booking.SeatAvailable},
		// A6 is gone from the show.
	}
	if diff := cmp.Diff([]string{"A3", "A4", "A6"}, booking.LostSeats(h, seats, m)); diff != "" {
		t.Errorf("LostSeats (-want +got):\n%s", diff)
	}
}
