package storetest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var ruleTests = []test{
	{"TimesKeepNanoseconds", testTimesKeepNanoseconds},
	{"LapsedLockIsAvailableLazily", testLapsedLockIsAvailableLazily},
	{"StoreQueryAgreesWithGoRule", testStoreQueryAgreesWithGoRule},
}

// testTimesKeepNanoseconds: the seat rule compares instants to the
// nanosecond, so a store must give back exactly the instant it was given.
func testTimesKeepNanoseconds(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 3, later)
	m := booking.Rules{TTL: ttl, AllowGaps: true}.At(base.Add(987654321 * time.Nanosecond))
	h := hold(t, s, show.ID, "o1", m, "A2") // as stored
	if !h.CreatedAt.Equal(m.Now) {
		t.Errorf("Hold: CreatedAt %v, want %v", h.CreatedAt, m.Now)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h), "A3": free})
}

// testLapsedLockIsAvailableLazily: a lock TTL old frees its seat for every
// reader and for a new hold, while nothing rewrites the stored lock.
func testLapsedLockIsAvailableLazily(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, base.Add(24*time.Hour))
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	stored := getSeats(t, s, show.ID)

	summary := func(m booking.Moment) int {
		t.Helper()
		shows, err := s.UpcomingShows(ctx, base, 10, m)
		if err != nil || len(shows) != 1 {
			t.Fatalf("UpcomingShows = %v, %v; want the show", shows, err)
		}
		return shows[0].SeatsLeft
	}

	// 1ns before the lock lapses it still protects its seats.
	young := at(ttl - time.Nanosecond)
	if diff := cmp.Diff([]string{"A3", "A4"}, availableIDs(t, s, show.ID, young)); diff != "" {
		t.Errorf("AvailableSeatIDs 1ns before the lapse (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(booking.Occupancy{Total: 4, Held: 2, Available: 2}, occupancy(t, s, show.ID, young)); diff != "" {
		t.Errorf("Occupancy 1ns before the lapse (-want +got):\n%s", diff)
	}
	if got := summary(young); got != 2 {
		t.Errorf("UpcomingShows 1ns before the lapse: %d seats left, want 2", got)
	}
	err := s.HoldSeats(ctx, newHold(show.ID, "o2", young, "A2", "A3"), young)
	if diff := cmp.Diff([]string{"A2"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("HoldSeats 1ns before the lapse: %v; unavailable seats (-want +got):\n%s", err, diff)
	}
	unchanged(t, s, show.ID, stored)

	// Exactly TTL after the lock was taken, and later, its seats are free to
	// every reader...
	for _, m := range []booking.Moment{at(ttl), at(ttl + time.Nanosecond), at(100 * ttl)} {
		if diff := cmp.Diff([]string{"A1", "A2", "A3", "A4"}, availableIDs(t, s, show.ID, m)); diff != "" {
			t.Errorf("AvailableSeatIDs at base+%v (-want +got):\n%s", m.Now.Sub(base), diff)
		}
		if diff := cmp.Diff(booking.Occupancy{Total: 4, Available: 4}, occupancy(t, s, show.ID, m)); diff != "" {
			t.Errorf("Occupancy at base+%v (-want +got):\n%s", m.Now.Sub(base), diff)
		}
		if got := summary(m); got != 4 {
			t.Errorf("UpcomingShows at base+%v: %d seats left, want 4", m.Now.Sub(base), got)
		}
	}
	// ...while the stored lock still says locked, with its old time, and the
	// hold is still active: reading rewrote nothing.
	unchanged(t, s, show.ID, stored)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h1), "A2": lockedBy(h1), "A3": free, "A4": free})
	if got := getHold(t, s, h1.ID).State; got != booking.HoldActive {
		t.Errorf("lapsed hold's state %q, want %q: nothing rewrites it", got, booking.HoldActive)
	}

	// A new hold takes a lapsed seat exactly at the lapse; the other seat of
	// the old hold stays as stored.
	h2 := hold(t, s, show.ID, "o2", at(ttl), "A2", "A3")
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h1), "A2": lockedBy(h2), "A3": lockedBy(h2), "A4": free})
	if diff := cmp.Diff([]string{"A1", "A4"}, availableIDs(t, s, show.ID, at(ttl))); diff != "" {
		t.Errorf("AvailableSeatIDs after the new hold (-want +got):\n%s", diff)
	}
}

// testStoreQueryAgreesWithGoRule fills a show with seats in every state,
// locked at random instants, some of them with a reserve, and compares
// what the store's query finds available online with
// booking.SeatIsAvailableOnline applied to the stored seats (and its
// counts with booking.CountOccupancy), at random moments and at the exact
// boundaries of the locks.
func testStoreQueryAgreesWithGoRule(t *testing.T, s store) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed(t), 0x5ea7))
	show, seats := newShow(t, s, sized(10, 6), 24, base.Add(24*time.Hour))
	began := time.Now()

	span := int64(3 * ttl)
	instant := func() time.Duration { return time.Duration(rng.Int64N(span)) }
	// A few instants are shared, so that equal lock times occur.
	shared := []time.Duration{instant(), instant(), instant()}
	var states [4]int // untouched, locked, booked, released
	for _, seat := range seats {
		owner := "o-" + seat.ID
		d := instant()
		if rng.IntN(8) == 0 {
			d = shared[rng.IntN(len(shared))]
		}
		m := at(d)
		switch k := rng.IntN(10); {
		case k < 2:
			states[0]++
		case k < 7:
			states[1]++
			h := hold(t, s, show.ID, owner, m, seat.ID)
			if k == 6 {
				// Re-held by someone else once the first lock lapsed.
				later := at(h.CreatedAt.Sub(base) + ttl + time.Duration(rng.Int64N(int64(time.Minute))))
				hold(t, s, show.ID, owner+"-2", later, seat.ID)
			}
		case k < 9:
			states[2]++
			book(t, s, show.ID, owner, m, seat.ID)
		default:
			states[3]++
			h := hold(t, s, show.ID, owner, m, seat.ID)
			if _, err := s.ReleaseHold(ctx, h.ID, owner); err != nil {
				t.Fatalf("ReleaseHold: %v", err)
			}
		}
	}
	// A reserve on seats in any state, written as it is stored (the
	// reserve step refuses some of them, the counter's hold makes them).
	var house, blocked []string
	for _, seat := range seats {
		switch rng.IntN(6) {
		case 0:
			house = append(house, seat.ID)
		case 1:
			blocked = append(blocked, seat.ID)
		}
	}
	for r, ids := range map[booking.SeatReserve][]string{booking.ReserveHouse: house, booking.ReserveBlocked: blocked} {
		if err := s.Atomically(ctx, time.Now, func(tx booking.Tx) error { return tx.SetSeatReserve(show.ID, ids, r) }); err != nil {
			t.Fatalf("SetSeatReserve(%q): %v", r, err)
		}
	}
	stored := getSeats(t, s, show.ID)
	t.Logf("%d seats: %d untouched, %d locked, %d booked, %d released, %d house, %d blocked (%v)",
		len(seats), states[0], states[1], states[2], states[3], len(house), len(blocked), time.Since(began))
	began = time.Now()

	// The moments to compare at: random ones with TTLs of several lengths,
	// and for each lock time L and a TTL, L+TTL-1ns, L+TTL and L+TTL+1ns.
	ttls := []time.Duration{ttl, 5 * time.Minute, time.Hour, time.Nanosecond}
	randomMoments, boundaryLocks := sized(150, 40), sized(60, 20)
	var moments []booking.Moment
	for range randomMoments {
		d := time.Duration(rng.Int64N(span+int64(2*ttl))) - ttl
		moments = append(moments, booking.Rules{TTL: ttls[rng.IntN(len(ttls))], AllowGaps: true}.At(base.Add(d)))
	}
	var lockTimes []time.Time
	for _, seat := range stored {
		if seat.Status == booking.SeatLocked {
			lockTimes = append(lockTimes, seat.LockedAt)
		}
	}
	rng.Shuffle(len(lockTimes), func(i, j int) { lockTimes[i], lockTimes[j] = lockTimes[j], lockTimes[i] })
	for i, lockedAt := range lockTimes[:min(len(lockTimes), boundaryLocks)] {
		d := ttls[i%2] // the usual TTL and another
		for _, off := range []time.Duration{-time.Nanosecond, 0, time.Nanosecond} {
			moments = append(moments, booking.Rules{TTL: d, AllowGaps: true}.At(lockedAt.Add(d+off)))
		}
	}

	cases, failures := 0, 0
	for i, m := range moments {
		var want []string
		for _, seat := range stored {
			if booking.SeatIsAvailableOnline(seat.Status, seat.LockedAt, seat.Reserve, m) {
				want = append(want, seat.ID)
			}
		}
		cases += len(stored)
		got := availableIDs(t, s, show.ID, m)
		if diff := cmp.Diff(want, got); diff != "" {
			failures++
			t.Errorf("AvailableSeatIDs at base%+v with TTL %v disagrees with the Go rule of available online (-go +store):\n%s%s",
				m.Now.Sub(base), m.TTL, diff, explain(stored, want, got))
		}
		if diff := cmp.Diff(booking.CountOccupancy(stored, m), occupancy(t, s, show.ID, m)); diff != "" {
			failures++
			t.Errorf("Occupancy at base%+v with TTL %v disagrees with the Go rule (-go +store):\n%s", m.Now.Sub(base), m.TTL, diff)
		}
		if i%10 == 0 {
			shows, err := s.UpcomingShows(ctx, base, 1, m)
			if err != nil || len(shows) != 1 {
				t.Fatalf("UpcomingShows = %v, %v; want the show", shows, err)
			}
			if shows[0].SeatsLeft != len(want) {
				failures++
				t.Errorf("UpcomingShows at base%+v with TTL %v: %d seats left, the Go rule says %d", m.Now.Sub(base), m.TTL, shows[0].SeatsLeft, len(want))
			}
			list, err := s.ListOccupancy(ctx, booking.ShowFilter{}, m)
			if err != nil || len(list) != 1 {
				t.Fatalf("ListOccupancy = %v, %v; want the show", list, err)
			}
			if diff := cmp.Diff(booking.CountOccupancy(stored, m), list[0].Occupancy); diff != "" {
				failures++
				t.Errorf("ListOccupancy at base%+v with TTL %v disagrees with the Go rule (-go +store):\n%s", m.Now.Sub(base), m.TTL, diff)
			}
		}
		if failures >= 5 {
			t.Fatal("too many disagreements; stopping")
		}
	}
	t.Logf("compared %d (seat, moment) cases at %d moments (%v)", cases, len(moments), time.Since(began))
	// None of those reads changed a seat.
	unchanged(t, s, show.ID, stored)
}

// explain describes the seats on which the store and the Go rule disagree.
func explain(stored []booking.Seat, want, got []string) string {
	out := ""
	for _, seat := range stored {
		if slices.Contains(want, seat.ID) != slices.Contains(got, seat.ID) {
			out += "\n  " + seat.ID + ": status " + string(seat.Status) + ", locked at " + seat.LockedAt.Format(time.RFC3339Nano) +
				", reserve " + string(seat.Reserve)
		}
	}
	return out
}
