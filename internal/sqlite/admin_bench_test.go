package sqlite

// Benchmark of the admin's occupancy overview (Store.ListOccupancy) on a
// million seats: 2,000 shows × 500 seats over 20 days (100 shows a day) in
// 10 theatres, with 20,000 holds of 4 seats at spread-out instants (some
// lapsed, some not) and 200 paid bookings.
//
//	go test -run '^$' -bench ListOccupancy -benchtime 20x -count 1 ./internal/sqlite/
//
// docs/PERFORMANCE.md has the numbers.

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

func BenchmarkListOccupancy(b *testing.B) {
	if testing.Short() {
		b.Skip("1M-seat database skipped in -short mode")
	}
	ctx := context.Background()
	s, _ := mustOpen(b)
	const shows, perDay, theatres = 2000, 100, 10
	start := time.Now()
	var ids []string
	for i := range shows {
		id := fmt.Sprintf("show%05d", i)
		show, seats := testShow(id, benchRows, benchCols)
		// From the day after t0: the holds below are made around t0, and
		// a show that has started is closed to them (SALES_CLOSE).
		show.StartsAt = t0.Add(time.Duration(i/perDay+1)*24*time.Hour + time.Duration(i%perDay)*time.Minute)
		th := i % theatres
		show.Theatre = booking.Theatre{ID: fmt.Sprintf("t%02d", th), Name: fmt.Sprintf("Theatre %02d", th), City: "Pune"}
		if err := booking.CreateShowStep(ctx, s, time.Now, show, seats); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	b.Logf("seeded %d seats in %v", shows*benchRows*benchCols, time.Since(start).Round(time.Millisecond))

	// Holds at instants spread over two TTLs before "now": about half have
	// lapsed. Every 100th is paid for and booked.
	start = time.Now()
	now := t0.Add(2 * ttl)
	_, seats := testShow("x", benchRows, benchCols)
	for i := range 20000 {
		show := ids[(i*7919)%len(ids)]
		block := (i / len(ids)) % (benchRows * benchCols / benchBlock)
		var seatIDs []string
		for k := range benchBlock {
			seatIDs = append(seatIDs, seats[block*benchBlock+k].ID)
		}
		m := booking.Rules{TTL: ttl, AllowGaps: true}.At(t0.Add(time.Duration(i) * (2 * ttl / 20000)))
		h := newBenchHold(show, seatIDs, m.Now)
		if err := booking.HoldSeatsStep(ctx, s, m.Clock(), h, m.Rules); err != nil {
			b.Fatalf("hold %d: %v", i, err)
		}
		if i%100 == 0 {
			p, _, err := booking.StartPaymentStep(ctx, s, m.Clock(), h.ID, h.Owner, booking.PaymentStart{PaymentID: booking.NewID(), BookingID: booking.NewID()}, m.Rules)
			if err != nil {
				b.Fatal(err)
			}
			ev := booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded, PaymentID: p.ID, HoldID: h.ID, Amount: p.Amount, Currency: p.Currency}
			if _, err := booking.SettlePaymentStep(ctx, s, m.Clock(), ev, booking.NewTicketCode(), m.Rules); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Logf("made 20,000 holds and 200 bookings in %v", time.Since(start).Round(time.Millisecond))
	s.checkpoint(ctx)

	m := booking.Rules{TTL: ttl, AllowGaps: true}.At(now)
	day := t0.Add(7 * 24 * time.Hour)
	for _, tc := range []struct {
		name  string
		f     booking.ShowFilter
		shows int
	}{
		{"all-2000-shows", booking.ShowFilter{}, 2000},
		{"first-501", booking.ShowFilter{Limit: 501}, 501},
		{"a-page-of-51", booking.ShowFilter{From: day, Limit: 51}, 51},
		{"page-20-of-51", booking.ShowFilter{Limit: 51, Offset: 19 * 50}, 51},
		{"past-page-6-of-51", booking.ShowFilter{To: day, Newest: true, Limit: 51, Offset: 5 * 50}, 51},
		{"one-day", booking.ShowFilter{From: day, To: day.Add(24 * time.Hour)}, perDay},
		{"one-day-one-theatre", booking.ShowFilter{From: day, To: day.Add(24 * time.Hour), TheatreID: "t03"}, perDay / theatres},
	} {
		b.Run(tc.name, func(b *testing.B) {
			testkit.Measure(b, func(int) time.Duration {
				begin := time.Now()
				list, err := s.ListOccupancy(ctx, tc.f, m)
				if err != nil || len(list) != tc.shows {
					b.Fatalf("ListOccupancy: %d shows, %v; want %d", len(list), err, tc.shows)
				}
				return time.Since(begin)
			})
		})
	}
}
