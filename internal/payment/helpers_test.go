package payment

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
)

// world is a real store and service on a temp SQLite file, on the fake
// clock at t0: the only fake in these tests is the clock.
type world struct {
	store *sqlite.Store
	svc   *booking.Service
	clock *booking.ManualClock
}

func newWorld(t testing.TB) world {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "boxoffice.db"))
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { store.Close() })
	clock := booking.NewManualClock(t0)
	return world{store: store, svc: booking.NewService(store, clock, booking.DefaultPolicy), clock: clock}
}

// payment holds two ₹225 seats of a new show and starts paying for them: a
// pending payment of ₹450.
func (w world) payment(t testing.TB) booking.Payment {
	t.Helper()
	ctx := context.Background()
	show := booking.Show{
		ID:       booking.NewID(),
		Movie:    booking.Movie{ID: "m1", Title: "The Long Queue", Rating: "UA", RuntimeMin: 142, Language: "Hindi"},
		Theatre:  booking.Theatre{ID: "t1", Name: "Regal Talkies", City: "Pune"},
		Screen:   "Audi 2",
		StartsAt: t0.Add(24 * time.Hour),
		Currency: "INR",
	}
	var seats []booking.Seat
	for i, id := range []string{"A1", "A2"} {
		seats = append(seats, booking.Seat{
			ShowID: show.ID, ID: id, Row: "A", Number: i + 1, GridRow: 0, GridCol: i,
			Category: "Classic", Price: 22500, Kind: booking.KindStandard, Status: booking.SeatAvailable,
		})
	}
	if err := booking.CreateShowStep(ctx, w.store, time.Now, show, seats); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
	holdID, err := w.svc.HoldSeats(ctx, show.ID, "visitor1", []string{"A1", "A2"})
	if err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	p, _, err := w.svc.StartPayment(ctx, holdID, "visitor1", "moviegoer@example.com")
	if err != nil {
		t.Fatalf("StartPayment: %v", err)
	}
	return p
}
