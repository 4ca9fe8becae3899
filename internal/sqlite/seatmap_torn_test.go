package sqlite

import (
	"context"
	"slices"
	"testing"

	"boxoffice/internal/booking"
)

// tornStore is the real store with a write slipped in just after the seats
// of a seat map are read and before its viewer's hold is: by the Seats
// method when a map is read in separate steps, by ShowSeats' hook when it
// is read in one.
type tornStore struct {
	*Store
	between func()
}

func (t *tornStore) Seats(ctx context.Context, showID string) ([]booking.Seat, error) {
	seats, err := t.Store.Seats(ctx, showID)
	t.between()
	return seats, err
}

// TestSeatMapIsOneRead: a moviegoer holding A1 holds A2 instead while
// their seat map is being read, between the read of its seats and of
// their hold. The map is the state before that hold or after it, never
// half of each: a seat the map shows as the viewer's is in their hold, and
// every seat of their hold is shown as theirs. Read in three steps, the map
// had A1 locked by the replaced hold (so shown held by someone else) and
// the new hold of A2 (shown available).
func TestSeatMapIsOneRead(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	mustCreateShow(t, s, "s1", 1, 4)
	clock := booking.NewManualClock(t0)
	svc := booking.NewService(&tornStore{Store: s}, clock, booking.Policy{HoldTTL: ttl, MaxSeats: 4, AllowGaps: true})
	if _, err := svc.HoldSeats(ctx, "s1", "o1", []string{"A1"}); err != nil {
		t.Fatal(err)
	}

	wrote := 0
	between := func() {
		if wrote > 0 {
			return
		}
		wrote++
		if _, err := booking.NewService(s, clock, booking.Policy{HoldTTL: ttl, MaxSeats: 4, AllowGaps: true}).
			HoldSeats(ctx, "s1", "o1", []string{"A2"}); err != nil {
			t.Errorf("the hold between the reads: %v", err)
		}
	}
	svc = booking.NewService(&tornStore{Store: s, between: between}, clock, booking.Policy{HoldTTL: ttl, MaxSeats: 4, AllowGaps: true})
	s.showSeatsHook = between
	sm, err := svc.SeatMap(ctx, "s1", "o1")
	if err != nil {
		t.Fatal(err)
	}
	if wrote != 1 {
		t.Fatalf("the write between the reads ran %d times, want once", wrote)
	}
	if sm.MyHold == nil {
		t.Fatal("the map has no hold of the viewer's")
	}
	var mine []string
	for _, seat := range sm.Seats {
		if sm.State(seat) == booking.StateMine {
			mine = append(mine, seat.ID)
		}
	}
	if !slices.Equal(mine, sm.MyHold.SeatIDs) {
		t.Errorf("the map shows %v as the viewer's, and their hold %s has %v: a torn read", mine, sm.MyHold.ID, sm.MyHold.SeatIDs)
	}
	for _, seat := range sm.Seats {
		if seat.Status == booking.SeatLocked && seat.HoldID != sm.MyHold.ID {
			if h, err := s.Hold(ctx, seat.HoldID); err == nil && h.Owner == "o1" {
				t.Errorf("seat %s is locked by %s, another hold of the viewer's than the map's %s", seat.ID, seat.HoldID, sm.MyHold.ID)
			}
		}
	}
}
