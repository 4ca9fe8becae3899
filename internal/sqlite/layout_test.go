package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// TestSeatsLayoutCache checks that a seat map read through the cached
// layout is exactly what a store reading everything returns, as seats get
// locked, released and booked by another process, and that the cache stays
// bounded.
func TestSeatsLayoutCache(t *testing.T) {
	a, path := mustOpen(t)
	b := reopen(t, path) // another process: its changes bypass a's cache
	ctx := context.Background()
	show, seats := testShow("s1", 3, 5)
	if err := booking.CreateShowStep(ctx, a, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		cached, err := a.Seats(ctx, "s1")
		if err != nil {
			t.Fatalf("%s: Seats: %v", step, err)
		}
		if a.layouts.get("s1") == nil {
			t.Fatalf("%s: layout not cached", step)
		}
		fresh := reopen(t, path)
		want, err := fresh.Seats(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, cached); diff != "" {
			t.Errorf("%s: cached seat map (-want +got):\n%s", step, diff)
		}
		cached[0].Status = "tampered" // callers own what they get
	}
	check("fresh show")
	m := booking.Rules{TTL: ttl, AllowGaps: true}.At(t0)
	h := hold("s1", "o1", "A1", "B2")
	if err := booking.HoldSeatsStep(ctx, b, m.Clock(), h, m.Rules); err != nil {
		t.Fatal(err)
	}
	check("held by another process")
	if err := booking.HoldSeatsStep(ctx, b, m.Clock(), hold("s1", "o2", "C5"), m.Rules); err != nil {
		t.Fatal(err)
	}
	if _, err := booking.ReleaseHoldStep(ctx, b, time.Now, h.ID, "o1"); err != nil {
		t.Fatal(err)
	}
	check("released")

	// A seat the cached layout lacks (no path adds one; a hand edit could)
	// sends the read back to the table.
	if _, err := b.write.ExecContext(ctx, `INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, price, status, booking_id)
		VALUES ('s1', 'Z9', 'Z', 9, 9, 9, 100, 'booked', 'bk1')`); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Seats(ctx, "s1"); err != nil || len(got) != len(seats)+1 {
		t.Errorf("Seats after a seat was added behind the cache: %d seats, %v; want %d", len(got), err, len(seats)+1)
	}

	// Bounded: the least recently used layout goes first.
	c := newLayoutCache(2)
	for _, id := range []string{"x", "y", "x", "z"} {
		c.put(id, &layout{})
		c.get(id)
	}
	if c.get("y") != nil || c.get("x") == nil || c.get("z") == nil || c.order.Len() != 2 {
		t.Errorf("LRU of 2 after x y x z: has y %v, x %v, z %v, len %d", c.get("y") != nil, c.get("x") != nil, c.get("z") != nil, c.order.Len())
	}
}
