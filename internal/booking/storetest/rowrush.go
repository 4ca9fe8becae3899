package storetest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// testRaceRowRush (SPEC §18): 64 sessions from 8 addresses hold into one
// row at once, with the gap rule and a cap per address on, half of them
// choosing their seats and half asking for the best two: every answer is a
// hold or a refusal a person is told (taken, a gap, no block, the cap),
// never a store error, each step ends well inside the 5 s a step may take,
// and no seat is held twice. On MongoDB every hold into the row serialises
// on the row's guard, so this is where retries pile up.
func testRaceRowRush(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 40, later) // A1-A20 | A21-A40
	m := at(time.Minute)
	m.AllowGaps = false
	m.SeatsPerAddress = 12
	const sessions = 64
	type answer struct {
		hold booking.Hold
		err  error
		took time.Duration
	}
	answers := make([]answer, sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Go(func() {
			owner, address := "rush"+strconv.Itoa(i), "10.0.0."+strconv.Itoa(i%8)
			start := time.Now()
			var h booking.Hold
			var err error
			if i%2 == 0 {
				n := i%40 + 1
				h, err = holdFrom(s, show.ID, owner, address, m, "A"+strconv.Itoa(n), "A"+strconv.Itoa(n%40+1))
			} else {
				h = booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: show.ID, Owner: owner, Address: address}
				h, err = s.HoldBest(context.Background(), h, booking.BestRequest{Party: 2}, m)
			}
			answers[i] = answer{h, err, time.Since(start)}
		})
	}
	wg.Wait()
	held := map[string]string{}
	won := 0
	for i, a := range answers {
		if a.took > 4*time.Second {
			t.Errorf("session %d's step took %v", i, a.took)
		}
		var ue *booking.UnavailableError
		var ge *booking.GapError
		var ce *booking.HeldCapError
		switch {
		case a.err == nil:
			won++
			for _, id := range a.hold.SeatIDs {
				if other, ok := held[id]; ok {
					t.Errorf("seat %s held by %s and %s", id, other, a.hold.ID)
				}
				held[id] = a.hold.ID
			}
		case errors.As(a.err, &ue), errors.As(a.err, &ge), errors.As(a.err, &ce),
			errors.Is(a.err, booking.ErrNoBlock), booking.ErrorCode(a.err) == booking.EINVALID:
		default:
			t.Errorf("session %d: %v, want a hold or a refusal a person is told", i, a.err)
		}
	}
	if won == 0 {
		t.Fatal("nobody held a seat")
	}
	// What the holds say is what the seats say.
	var locked []string
	for _, st := range getSeats(t, s, show.ID) {
		if st.Status == booking.SeatLocked {
			locked = append(locked, st.ID)
			if held[st.ID] != st.HoldID {
				t.Errorf("seat %s locked by %s, but the answers gave it to %q", st.ID, st.HoldID, held[st.ID])
			}
		}
	}
	if len(locked) != len(held) {
		ids := make([]string, 0, len(held))
		for id := range held {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		t.Errorf("locked seats %v, but the answers hold %v", locked, ids)
	}
}
