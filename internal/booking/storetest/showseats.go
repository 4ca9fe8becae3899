package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// testShowSeats: ShowSeats is Show, Seats and ActiveHold, read together;
// no viewer, or one without a hold, has none.
func testShowSeats(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 3, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	hold(t, s, show.ID, "o2", at(0), "B3")
	ss, err := s.ShowSeats(ctx, show.ID, "o1")
	if err != nil {
		t.Fatalf("ShowSeats: %v", err)
	}
	stored, err := s.Show(ctx, show.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(stored, ss.Show); diff != "" {
		t.Errorf("ShowSeats' show (-Show +ShowSeats):\n%s", diff)
	}
	if diff := cmp.Diff(getSeats(t, s, show.ID), ss.Seats); diff != "" {
		t.Errorf("ShowSeats' seats (-Seats +ShowSeats):\n%s", diff)
	}
	if ss.Hold == nil || ss.Hold.ID != h1.ID {
		t.Errorf("ShowSeats' hold = %+v, want %s", ss.Hold, h1.ID)
	}
	for _, owner := range []string{"", "o3"} {
		if ss, err := s.ShowSeats(ctx, show.ID, owner); err != nil || ss.Hold != nil || len(ss.Seats) != 6 {
			t.Errorf("ShowSeats for %q: %d seats, hold %+v, %v; want 6 seats and no hold", owner, len(ss.Seats), ss.Hold, err)
		}
	}
	_, err = s.ShowSeats(ctx, "nope", "o1")
	wantErr(t, "ShowSeats of an unknown show", err, booking.ErrShowNotFound)
}

// testShowSeatsIsOneRead: while a session moves its hold between A1 and A2
// over and over, every ShowSeats for it agrees with itself: exactly one
// seat is locked, by the hold it returns.
func testShowSeatsIsOneRead(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	hold(t, s, show.ID, "o1", at(0), "A1")
	const moves = 40
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := 1; i <= moves; i++ {
			seat := []string{"A1", "A2"}[i%2]
			m := at(time.Duration(i) * time.Millisecond)
			if err := s.HoldSeats(ctx, newHold(show.ID, "o1", m, seat), m); err != nil {
				t.Errorf("move %d to %s: %v", i, seat, err)
				return
			}
		}
	}()
	reads := 0
	for {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Error("no read ran while the hold moved")
			}
			return
		default:
		}
		reads++
		ss, err := s.ShowSeats(ctx, show.ID, "o1")
		if err != nil {
			t.Fatalf("ShowSeats: %v", err)
		}
		if msg := agrees(ss); msg != "" {
			t.Fatalf("read %d: %s", reads, msg)
		}
	}
}

// agrees says how ss disagrees with itself when its hold is the only one.
func agrees(ss booking.ShowSeats) string {
	if ss.Hold == nil {
		return "no hold"
	}
	var locked []string
	for _, seat := range ss.Seats {
		if seat.Status == booking.SeatLocked {
			if seat.HoldID != ss.Hold.ID {
				return fmt.Sprintf("seat %s is locked by %s, the hold read is %s", seat.ID, seat.HoldID, ss.Hold.ID)
			}
			locked = append(locked, seat.ID)
		}
	}
	if !cmp.Equal(locked, ss.Hold.SeatIDs) {
		return fmt.Sprintf("seats %v are locked, the hold read has %v", locked, ss.Hold.SeatIDs)
	}
	return ""
}
