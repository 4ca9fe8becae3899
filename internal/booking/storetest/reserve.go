package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// reserveTests are SPEC §16's house and blocked seats and the online
// cut-off, through the store's steps.
var reserveTests = []test{
	{"ReserveFreeSeats", testReserveFreeSeats},
	{"ReserveConflicts", testReserveConflicts},
	{"ReserveFreesLapsedLock", testReserveFreesLapsedLock},
	{"ReserveUnknownSeat", testReserveUnknownSeat},
	{"ReservedSeatNotHeldOnline", testReservedSeatNotHeldOnline},
	{"CounterHoldTakesHouseSeats", testCounterHoldTakesHouseSeats},
	{"BestHoldSkipsReserved", testBestHoldSkipsReserved},
	{"SettlementTreatsReservedAsTaken", testSettlementTreatsReservedAsTaken},
	{"OnlineCutoff", testOnlineCutoff},
}

func (s store) Reserve(ctx context.Context, showID string, ids []string, r booking.SeatReserve, m booking.Moment) error {
	return booking.ReserveSeatsStep(ctx, s.Store, m.Clock(), showID, ids, r, m.Rules)
}

// reserve reserves seats at m and fails the test unless it succeeds.
func reserve(t *testing.T, s store, showID string, r booking.SeatReserve, m booking.Moment, ids ...string) {
	t.Helper()
	if err := s.Reserve(context.Background(), showID, ids, r, m); err != nil {
		t.Fatalf("Reserve(%v, %q) at %v: %v", ids, r, m.Now, err)
	}
}

// reserves are the show's seats with a reserve, by id.
func reserves(t *testing.T, s store, showID string) map[string]booking.SeatReserve {
	t.Helper()
	out := map[string]booking.SeatReserve{}
	for _, seat := range getSeats(t, s, showID) {
		if seat.Reserve != booking.ReserveNone {
			out[seat.ID] = seat.Reserve
		}
	}
	return out
}

// testReserveFreeSeats: free seats become house or blocked, are counted
// as reserved and not available online, and "none" releases them.
func testReserveFreeSeats(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	reserve(t, s, show.ID, booking.ReserveHouse, at(0), "A1", "A2")
	reserve(t, s, show.ID, booking.ReserveBlocked, at(0), "A3")
	if diff := cmp.Diff(map[string]booking.SeatReserve{"A1": "house", "A2": "house", "A3": "blocked"}, reserves(t, s, show.ID)); diff != "" {
		t.Errorf("reserves (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"A4"}, availableIDs(t, s, show.ID, at(0))); diff != "" {
		t.Errorf("AvailableSeatIDs with reserves (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(booking.Occupancy{Total: 4, Available: 1, Reserved: 3}, occupancy(t, s, show.ID, at(0))); diff != "" {
		t.Errorf("Occupancy with reserves (-want +got):\n%s", diff)
	}
	reserve(t, s, show.ID, booking.ReserveNone, at(time.Minute), "A1", "A3")
	if diff := cmp.Diff(map[string]booking.SeatReserve{"A2": "house"}, reserves(t, s, show.ID)); diff != "" {
		t.Errorf("reserves after releasing A1, A3 (-want +got):\n%s", diff)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": free, "A3": free})
}

// testReserveConflicts: a booked seat, a seat locked live, and a lapsed
// lock whose hold is being paid for cannot be reserved; the answer names
// exactly those, and nothing changes, not even the free seats asked for
// with them.
func testReserveConflicts(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	_, _ = book(t, s, show.ID, "o1", at(0), "A1")
	hold(t, s, show.ID, "o2", at(0), "A2")
	paying := hold(t, s, show.ID, "o3", at(0), "A3")
	pay(t, s, paying, at(time.Minute))
	reserve(t, s, show.ID, booking.ReserveHouse, at(0), "A6")
	m := at(time.Minute)
	before := getSeats(t, s, show.ID)
	for _, tc := range []struct {
		ids  []string
		want []string
	}{
		{[]string{"A1", "A4"}, []string{"A1"}},
		{[]string{"A2", "A4", "A6"}, []string{"A2"}},
		{[]string{"A1", "A2", "A4"}, []string{"A1", "A2"}},
	} {
		err := s.Reserve(ctx, show.ID, tc.ids, booking.ReserveBlocked, m)
		var conflict *booking.ReserveConflictError
		if !errors.As(err, &conflict) || !cmp.Equal(conflict.Seats, tc.want) {
			t.Errorf("Reserve(%v) = %v; want a conflict on %v", tc.ids, err, tc.want)
		}
		wantCode(t, "Reserve of taken seats", err, booking.ECONFLICT)
	}
	// A3's lock lapses, but its payment is pending.
	late := at(ttl + time.Minute)
	err := s.Reserve(ctx, show.ID, []string{"A3", "A4"}, booking.ReserveHouse, late)
	var conflict *booking.ReserveConflictError
	if !errors.As(err, &conflict) || !cmp.Equal(conflict.Seats, []string{"A3"}) {
		t.Errorf("Reserve of a lapsed lock being paid for = %v; want a conflict on A3", err)
	}
	unchanged(t, s, show.ID, before)
	// Releasing never conflicts.
	reserve(t, s, show.ID, booking.ReserveNone, late, "A1", "A2", "A6")
	if got := reserves(t, s, show.ID); len(got) != 0 {
		t.Errorf("reserves after releasing = %v, want none", got)
	}
}

// testReserveFreesLapsedLock: reserving a seat whose lock lapsed (no
// payment) frees it in the same step; its hold's other seat is left as
// it is.
func testReserveFreesLapsedLock(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	reserve(t, s, show.ID, booking.ReserveBlocked, at(ttl), "A1")
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h)})
	if diff := cmp.Diff(map[string]booking.SeatReserve{"A1": "blocked"}, reserves(t, s, show.ID)); diff != "" {
		t.Errorf("reserves (-want +got):\n%s", diff)
	}
}

// testReserveUnknownSeat: a seat the show lacks, or no seat, is EINVALID
// and changes nothing; an unknown show is not found.
func testReserveUnknownSeat(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	before := getSeats(t, s, show.ID)
	wantCode(t, "Reserve of A9", s.Reserve(ctx, show.ID, []string{"A1", "A9"}, booking.ReserveHouse, at(0)), booking.EINVALID)
	wantCode(t, "Reserve of nothing", s.Reserve(ctx, show.ID, nil, booking.ReserveHouse, at(0)), booking.EINVALID)
	wantCode(t, "Reserve of a non-seat", s.Reserve(ctx, show.ID, []string{"a1"}, booking.ReserveHouse, at(0)), booking.EINVALID)
	wantErr(t, "Reserve of an unknown show", s.Reserve(ctx, booking.NewID(), []string{"A1"}, booking.ReserveHouse, at(0)), booking.ErrShowNotFound)
	unchanged(t, s, show.ID, before)
}

// testReservedSeatNotHeldOnline: an online hold of a house or blocked
// seat is refused as for a taken seat, naming it, and changes nothing.
func testReservedSeatNotHeldOnline(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	reserve(t, s, show.ID, booking.ReserveHouse, at(0), "A1")
	reserve(t, s, show.ID, booking.ReserveBlocked, at(0), "A2")
	before := getSeats(t, s, show.ID)
	err := s.HoldSeats(ctx, newHold(show.ID, "o1", at(time.Minute), "A1", "A2", "A3"), at(time.Minute))
	var unavailable *booking.UnavailableError
	if !errors.As(err, &unavailable) || !cmp.Equal(unavailable.Seats, []string{"A1", "A2"}) {
		t.Errorf("HoldSeats of reserved seats = %v; want A1, A2 unavailable", err)
	}
	unchanged(t, s, show.ID, before)
}

// testCounterHoldTakesHouseSeats: the box office's hold (Hold.Counter)
// may take a house seat, never a blocked one.
func testCounterHoldTakesHouseSeats(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	reserve(t, s, show.ID, booking.ReserveHouse, at(0), "A1")
	reserve(t, s, show.ID, booking.ReserveBlocked, at(0), "A2")
	m := at(time.Minute)
	blocked := newHold(show.ID, "staff", m, "A2")
	blocked.Counter = true
	var unavailable *booking.UnavailableError
	if err := s.HoldSeats(ctx, blocked, m); !errors.As(err, &unavailable) {
		t.Errorf("counter HoldSeats of a blocked seat = %v; want it unavailable", err)
	}
	house := newHold(show.ID, "staff", m, "A1")
	house.Counter = true
	if err := s.HoldSeats(ctx, house, m); err != nil {
		t.Fatalf("counter HoldSeats of a house seat: %v", err)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(getHold(t, s, house.ID))})
	if diff := cmp.Diff(booking.Occupancy{Total: 4, Available: 2, Reserved: 2}, occupancy(t, s, show.ID, m)); diff != "" {
		t.Errorf("Occupancy with a house seat held (-want +got):\n%s", diff)
	}
}

// testBestHoldSkipsReserved: the one-step best hold never takes a seat
// with a reserve, even where the best block would be.
func testBestHoldSkipsReserved(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 3, 6, later)
	m := at(0)
	best := wantBlock(t, s, show.ID, booking.BestRequest{Party: 2}, m)
	reserve(t, s, show.ID, booking.ReserveHouse, m, best[0])
	h := newHold(show.ID, "o1", m)
	h.SeatIDs = nil
	got, err := s.HoldBest(ctx, h, booking.BestRequest{Party: 2}, m)
	if err != nil {
		t.Fatalf("HoldBest: %v", err)
	}
	for _, id := range got.SeatIDs {
		if id == best[0] {
			t.Errorf("HoldBest took %v, with the house seat %s", got.SeatIDs, id)
		}
	}
	seats := getSeats(t, s, show.ID)
	want, _ := booking.BestBlock(seats, booking.BestRequest{Party: 2}, func(st booking.Seat) bool { return st.AvailableOnlineAt(m) || st.LockedBy(h.ID) })
	if diff := cmp.Diff(want.IDs(), got.SeatIDs); diff != "" {
		t.Errorf("HoldBest (-best online +got):\n%s", diff)
	}
}

// testSettlementTreatsReservedAsTaken: a late payment whose lapsed seat
// was reserved meanwhile (the reserve freed it) is refund_due, and the
// seat stays reserved and free.
func testSettlementTreatsReservedAsTaken(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(time.Minute))
	if err := s.CloseCheckout(context.Background(), p.ID, at(2*time.Minute).Now); err != nil {
		t.Fatalf("CloseCheckout: %v", err)
	}
	reserve(t, s, show.ID, booking.ReserveHouse, at(ttl+time.Minute), "A1")
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), at(ttl+2*time.Minute))
	if st.Effect != booking.EffectRefundDue || !cmp.Equal(st.Conflicts, []string{"A1"}) {
		t.Errorf("settlement = %q on %v (%s); want refund_due on A1", st.Effect, st.Conflicts, st.Reason)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free})
}

// testOnlineCutoff: with a cut-off of N seats, an online hold, one-step
// best hold included, that would leave fewer than N available online is
// EGONE and changes nothing; one that leaves N is fine; a counter hold
// is not subject to it; 0 turns it off.
func testOnlineCutoff(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	reserve(t, s, show.ID, booking.ReserveHouse, at(0), "A6")
	if err := booking.SetOnlineCutoffStep(ctx, s.Store, fixed(base), show.ID, 2); err != nil {
		t.Fatalf("SetOnlineCutoffStep: %v", err)
	}
	if got := getShow(t, s, show.ID).OnlineCutoff; got != 2 {
		t.Errorf("Show.OnlineCutoff = %d, want 2", got)
	}
	m := at(time.Minute)
	// 5 available online: holding 3 leaves 2.
	hold(t, s, show.ID, "o1", m, "A1", "A2")
	before := getSeats(t, s, show.ID)
	wantErr(t, "HoldSeats past the cut-off", s.HoldSeats(ctx, newHold(show.ID, "o2", m, "A3", "A4"), m), booking.ErrOnlineCutoff)
	best := newHold(show.ID, "o2", m)
	best.SeatIDs = nil
	_, err := s.HoldBest(ctx, best, booking.BestRequest{Party: 2}, m)
	wantErr(t, "HoldBest past the cut-off", err, booking.ErrOnlineCutoff)
	unchanged(t, s, show.ID, before)
	// Replacing o1's hold frees its seats: 3 for 2 leaves 2.
	hold(t, s, show.ID, "o1", m, "A3", "A4", "A5")
	counter := newHold(show.ID, "staff", m, "A1", "A2")
	counter.Counter = true
	if err := s.HoldSeats(ctx, counter, m); err != nil {
		t.Errorf("counter HoldSeats past the cut-off: %v", err)
	}
	// The locks lapse: the cut-off reopens by itself.
	late := at(ttl + 2*time.Minute)
	hold(t, s, show.ID, "o3", late, "A1", "A2", "A3")
	if err := booking.SetOnlineCutoffStep(ctx, s.Store, fixed(base), show.ID, 0); err != nil {
		t.Fatalf("SetOnlineCutoffStep(0): %v", err)
	}
	hold(t, s, show.ID, "o4", late, "A4", "A5")
	wantCode(t, "SetOnlineCutoffStep(-1)", booking.SetOnlineCutoffStep(ctx, s.Store, fixed(base), show.ID, -1), booking.EINVALID)
	wantErr(t, "SetOnlineCutoffStep of an unknown show", booking.SetOnlineCutoffStep(ctx, s.Store, fixed(base), booking.NewID(), 1), booking.ErrShowNotFound)
}
