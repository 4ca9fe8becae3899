package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var addressTests = []test{
	{"CapCountsEverySession", testAddressCap},
}

// capped is at(d) with a cap of n seats per address.
func capped(d time.Duration, n int) booking.Moment {
	m := at(d)
	m.SeatsPerAddress = n
	return m
}

func holdFrom(s store, showID, owner, address string, m booking.Moment, seats ...string) (booking.Hold, error) {
	h := newHold(showID, owner, m, seats...)
	h.Address = address
	return h, s.HoldSeats(context.Background(), h, m)
}

func wantCapped(t *testing.T, what string, err error, cap int, retry time.Duration) {
	t.Helper()
	var ce *booking.HeldCapError
	if !errors.As(err, &ce) || ce.Cap != cap || ce.RetryAfter != retry {
		t.Errorf("%s: %v (%+v), want a cap of %d with Retry-After %v", what, err, ce, cap, retry)
	}
}

// testAddressCap: the seats held live from one address in one show are
// capped over all its sessions, counted after a session's hold replaces
// its previous one; other addresses, lapsed locks and holds without an
// address count for nobody.
func testAddressCap(t *testing.T, s store) {
	const addr, other = "203.0.113.0", "198.51.100.7"
	show, _ := newShow(t, s, 1, 12, later)
	if _, err := holdFrom(s, show.ID, "o1", addr, capped(0, 6), "A1", "A2", "A3", "A4"); err != nil {
		t.Fatal(err)
	}
	if _, err := holdFrom(s, show.ID, "o2", addr, capped(time.Minute, 6), "A5", "A6"); err != nil {
		t.Fatal(err)
	}
	_, err := holdFrom(s, show.ID, "o3", addr, capped(2*time.Minute, 6), "A7")
	wantCapped(t, "a seventh seat from the address", err, 6, ttl-2*time.Minute)
	if got := availableIDs(t, s, show.ID, at(2*time.Minute)); len(got) != 6 {
		t.Errorf("after the refused hold %d seats are available, want 6 (nothing of it kept)", len(got))
	}
	// o1 moves its four seats: its previous hold's count as free.
	if _, err := holdFrom(s, show.ID, "o1", addr, capped(3*time.Minute, 6), "A7", "A8", "A9", "A10"); err != nil {
		t.Errorf("replacing four seats by four: %v", err)
	}
	// o1 asks for five: six plus one is over, and its hold stays as it was.
	before := getSeats(t, s, show.ID)
	_, err = holdFrom(s, show.ID, "o1", addr, capped(4*time.Minute, 6), "A7", "A8", "A9", "A10", "A11")
	wantCapped(t, "replacing four seats by five", err, 6, ttl-3*time.Minute) // o2's locks, from 1m, are the oldest
	unchanged(t, s, show.ID, before)
	// Another address, and a hold without one, are not counted.
	if _, err := holdFrom(s, show.ID, "o4", other, capped(4*time.Minute, 6), "A1", "A2"); err != nil {
		t.Errorf("another address: %v", err)
	}
	if _, err := holdFrom(s, show.ID, "o5", "", capped(4*time.Minute, 1), "A3", "A4"); err != nil {
		t.Errorf("no address: %v", err)
	}
	// Once o2's locks lapse they count for nobody.
	if _, err := holdFrom(s, show.ID, "o3", addr, capped(ttl+time.Minute, 6), "A11", "A12"); err != nil {
		t.Errorf("after o2's hold lapsed: %v", err)
	}
	// No cap: anything goes.
	if _, err := holdFrom(s, show.ID, "o6", addr, capped(ttl+time.Minute, 0), "A5", "A6"); err != nil {
		t.Errorf("without a cap: %v", err)
	}
}

// testRaceAddressCap: sessions of one address hold seats of one show all
// at once; however they interleave, no more than the cap are held.
func testRaceAddressCap(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	const cap, sessions = 6, 10
	show, _ := newShow(t, s, 2, 10, later)
	m := capped(0, cap)
	errs := make([]error, sessions)
	concurrently(sessions, func(i int) {
		h := newHold(show.ID, fmt.Sprintf("o%d", i), m, fmt.Sprintf("%s%d", rowLabel(i/5), 2*(i%5)+1), fmt.Sprintf("%s%d", rowLabel(i/5), 2*(i%5)+2))
		h.Address = "203.0.113.0"
		errs[i] = s.HoldSeats(ctx, h, m)
	})
	won := 0
	for i, err := range errs {
		var ce *booking.HeldCapError
		switch {
		case err == nil:
			won++
		case errors.As(err, &ce):
		default:
			t.Fatalf("session %d: %v", i, err)
		}
	}
	if won != cap/2 {
		t.Errorf("%d holds of 2 seats won from one address, want %d (cap %d)", won, cap/2, cap)
	}
	if held := occupancy(t, s, show.ID, m).Held; held != won*2 {
		t.Errorf("%d seats held, want %d", held, won*2)
	}
}
