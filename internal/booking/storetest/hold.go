package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var holdTests = []test{
	{"StoredHold", testStoredHold},
	{"AllOrNothing", testAllOrNothing},
	{"UnknownSeat", testUnknownSeat},
	{"UnknownShow", testUnknownShow},
	{"ReplacesPreviousHold", testReplacesPreviousHold},
	{"FailedHoldKeepsPreviousHold", testFailedHoldKeepsPreviousHold},
	{"HoldsOfTwoShowsCoexist", testHoldsOfTwoShowsCoexist},
	{"ReplacingLapsedHoldSparesOthersSeats", testReplacingLapsedHoldSparesOthersSeats},
	{"RetakingOwnLapsedSeatsReplaces", testRetakingOwnLapsedSeatsReplaces},
	{"LapsedHoldLostToOthersStaysGone", testLapsedHoldLostToOthersStaysGone},
	{"CompletedHoldIsNotReplaced", testCompletedHoldIsNotReplaced},
	{"PayingHoldIsNotReplaced", testPayingHoldIsNotReplaced},
	{"PayingHoldWithoutSeatsIsNotReplaced", testPayingHoldWithoutSeatsIsNotReplaced},
	{"ClosedCheckoutIsNotPaying", testClosedCheckoutIsNotPaying},
}

var releaseTests = []test{
	{"FreesSeats", testReleaseFreesSeats},
	{"Idempotent", testReleaseIdempotent},
	{"NotOwner", testReleaseNotOwner},
	{"LapsedHoldSparesOthersSeats", testReleaseLapsedHoldSparesOthersSeats},
	{"ReplacedHoldSparesCarriedSeats", testReleaseReplacedHold},
	{"CompletedHoldKeepsBooking", testReleaseCompletedHold},
}

func testStoredHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 3, later)
	m := at(time.Minute)
	in := newHold(show.ID, "o1", m, "A1", "B2", "A3")
	if err := s.HoldSeats(ctx, in, m); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	want := in
	want.Amount, want.Currency = classicPrice*2+primePrice, currency
	if diff := cmp.Diff(want, getHold(t, s, in.ID)); diff != "" {
		t.Errorf("Hold (-want +got):\n%s", diff)
	}
	active, err := s.ActiveHold(ctx, show.ID, "o1")
	if err != nil {
		t.Fatalf("ActiveHold: %v", err)
	}
	if diff := cmp.Diff(want, active); diff != "" {
		t.Errorf("ActiveHold (-want +got):\n%s", diff)
	}
	checkSeats(t, s, show.ID, map[string]seatView{
		"A1": lockedBy(want), "A2": free, "A3": lockedBy(want),
		"B1": free, "B2": lockedBy(want), "B3": free,
	})
	if diff := cmp.Diff([]string{"A2", "B1", "B3"}, availableIDs(t, s, show.ID, m)); diff != "" {
		t.Errorf("AvailableSeatIDs (-want +got):\n%s", diff)
	}
}

func testAllOrNothing(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 5, later)
	hold(t, s, show.ID, "o2", at(0), "B2")
	book(t, s, show.ID, "o3", at(0), "B3")
	hold(t, s, show.ID, "o4", at(-ttl), "B4") // lapsed: available
	prev := hold(t, s, show.ID, "o1", at(0), "A5")
	before := getSeats(t, s, show.ID)

	m := at(time.Minute)
	in := newHold(show.ID, "o1", m, "A1", "B2", "B3", "B4", "B5")
	err := s.HoldSeats(ctx, in, m)
	wantCode(t, "HoldSeats with two taken seats", err, booking.ECONFLICT)
	if diff := cmp.Diff([]string{"B2", "B3"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("HoldSeats: %v; *UnavailableError seats (-want +got):\n%s", err, diff)
	}
	unchanged(t, s, show.ID, before)
	_, err = s.Hold(ctx, in.ID)
	wantErr(t, "Hold(the failed hold)", err, booking.ErrHoldNotFound)
	if got := getHold(t, s, prev.ID); got.State != booking.HoldActive {
		t.Errorf("previous hold's state %q, want %q", got.State, booking.HoldActive)
	}
	if active, err := s.ActiveHold(ctx, show.ID, "o1"); err != nil || active.ID != prev.ID {
		t.Errorf("ActiveHold = %s, %v; want the previous hold %s", active.ID, err, prev.ID)
	}

	// One taken seat among many: exactly that one is named.
	err = s.HoldSeats(ctx, newHold(show.ID, "o5", m, "A1", "A2", "A3", "A4", "B2"), m)
	if diff := cmp.Diff([]string{"B2"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("HoldSeats: %v; *UnavailableError seats (-want +got):\n%s", err, diff)
	}
	unchanged(t, s, show.ID, before)
}

func testUnknownSeat(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	hold(t, s, show.ID, "o2", at(0), "A2")
	before := getSeats(t, s, show.ID)
	for _, seats := range [][]string{{"A1", "A9"}, {"Z1"}, {"A1", "A2", "B1"}} {
		in := newHold(show.ID, "o1", at(0), seats...)
		err := s.HoldSeats(ctx, in, at(0))
		wantCode(t, "HoldSeats with an unknown seat", err, booking.EINVALID)
		unchanged(t, s, show.ID, before)
		_, err = s.Hold(ctx, in.ID)
		wantErr(t, "Hold(the refused hold)", err, booking.ErrHoldNotFound)
	}
}

func testUnknownShow(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	before := getSeats(t, s, show.ID)
	in := newHold(booking.NewID(), "o1", at(0), "A1")
	err := s.HoldSeats(ctx, in, at(0))
	wantErr(t, "HoldSeats on an unknown show", err, booking.ErrShowNotFound)
	_, err = s.Hold(ctx, in.ID)
	wantErr(t, "Hold(the refused hold)", err, booking.ErrHoldNotFound)
	unchanged(t, s, show.ID, before)
}

// testReplacesPreviousHold: a session's new hold for a show replaces its
// previous one in the same step; seats of both are carried over.
func testReplacesPreviousHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 5, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	other := hold(t, s, show.ID, "o2", at(0), "A5")

	h2 := hold(t, s, show.ID, "o1", at(time.Minute), "A2", "A3")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldReplaced {
		t.Errorf("previous hold's state %q, want %q", got, booking.HoldReplaced)
	}
	if got := getHold(t, s, h2.ID).State; got != booking.HoldActive {
		t.Errorf("new hold's state %q, want %q", got, booking.HoldActive)
	}
	if got := getHold(t, s, other.ID).State; got != booking.HoldActive {
		t.Errorf("another session's hold state %q, want %q", got, booking.HoldActive)
	}
	checkSeats(t, s, show.ID, map[string]seatView{
		"A1": free, "A2": lockedBy(h2), "A3": lockedBy(h2), "A4": free, "A5": lockedBy(other),
	})
	if active, err := s.ActiveHold(ctx, show.ID, "o1"); err != nil || active.ID != h2.ID {
		t.Errorf("ActiveHold = %s, %v; want the new hold %s", active.ID, err, h2.ID)
	}
	if diff := cmp.Diff([]string{"A1", "A4"}, availableIDs(t, s, show.ID, at(time.Minute))); diff != "" {
		t.Errorf("AvailableSeatIDs (-want +got):\n%s", diff)
	}

	// The very same seats again: all carried over, the lock renewed.
	h3 := hold(t, s, show.ID, "o1", at(2*time.Minute), "A2", "A3")
	if got := getHold(t, s, h2.ID).State; got != booking.HoldReplaced {
		t.Errorf("second hold's state %q, want %q", got, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{
		"A1": free, "A2": lockedBy(h3), "A3": lockedBy(h3), "A4": free, "A5": lockedBy(other),
	})
}

func testFailedHoldKeepsPreviousHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	hold(t, s, show.ID, "o2", at(0), "A4")
	before := getSeats(t, s, show.ID)

	m := at(time.Minute)
	err := s.HoldSeats(ctx, newHold(show.ID, "o1", m, "A2", "A3", "A4"), m)
	if diff := cmp.Diff([]string{"A4"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("HoldSeats: %v; *UnavailableError seats (-want +got):\n%s", err, diff)
	}
	unchanged(t, s, show.ID, before)
	if diff := cmp.Diff(h1, getHold(t, s, h1.ID)); diff != "" {
		t.Errorf("previous hold (-want +got):\n%s", diff)
	}
	if active, err := s.ActiveHold(ctx, show.ID, "o1"); err != nil || active.ID != h1.ID {
		t.Errorf("ActiveHold = %s, %v; want the previous hold %s", active.ID, err, h1.ID)
	}
}

func testHoldsOfTwoShowsCoexist(t *testing.T, s store) {
	ctx := context.Background()
	x, _ := newShow(t, s, 1, 3, later)
	y, _ := newShow(t, s, 1, 3, base.Add(3*time.Hour))
	hx := hold(t, s, x.ID, "o1", at(0), "A1")
	hy := hold(t, s, y.ID, "o1", at(time.Minute), "A1", "A2")
	for _, tc := range []struct {
		show booking.Show
		h    booking.Hold
	}{{x, hx}, {y, hy}} {
		if got := getHold(t, s, tc.h.ID).State; got != booking.HoldActive {
			t.Errorf("hold of show %s: state %q, want %q", tc.show.ID, got, booking.HoldActive)
		}
		if active, err := s.ActiveHold(ctx, tc.show.ID, "o1"); err != nil || active.ID != tc.h.ID {
			t.Errorf("ActiveHold(%s) = %s, %v; want %s", tc.show.ID, active.ID, err, tc.h.ID)
		}
	}
	checkSeats(t, s, x.ID, map[string]seatView{"A1": lockedBy(hx), "A2": free, "A3": free})
	checkSeats(t, s, y.ID, map[string]seatView{"A1": lockedBy(hy), "A2": lockedBy(hy), "A3": free})
}

// testReplacingLapsedHoldSparesOthersSeats: replacement frees only the seats
// the previous hold still locks, not those someone took after it lapsed.
func testReplacingLapsedHoldSparesOthersSeats(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	h3 := hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A1")
	h2 := hold(t, s, show.ID, "o1", at(ttl+2*time.Minute), "A3")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldReplaced {
		t.Errorf("previous hold's state %q, want %q", got, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h3), "A2": free, "A3": lockedBy(h2), "A4": free})
}

// testRetakingOwnLapsedSeatsReplaces: seats whose lock by the session's
// previous hold has lapsed are free by the seat rule, and taking them again
// still replaces that hold.
func testRetakingOwnLapsedSeatsReplaces(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	h2 := hold(t, s, show.ID, "o1", at(ttl+time.Minute), "A1", "A2")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldReplaced {
		t.Errorf("lapsed hold whose seats were all taken again: state %q, want %q", got, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h2), "A2": lockedBy(h2), "A3": free, "A4": free})

	h3 := hold(t, s, show.ID, "o1", at(2*ttl+2*time.Minute), "A2", "A3")
	if got := getHold(t, s, h2.ID).State; got != booking.HoldReplaced {
		t.Errorf("lapsed hold with one seat taken again: state %q, want %q", got, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h3), "A3": lockedBy(h3), "A4": free})
	if active, err := s.ActiveHold(ctx, show.ID, "o1"); err != nil || active.ID != h3.ID {
		t.Errorf("ActiveHold = %s, %v; want %s", active.ID, err, h3.ID)
	}
}

// testLapsedHoldLostToOthersStaysGone: a previous hold that lapsed and lost
// every seat to other sessions has nothing left to replace. A store may
// leave it active or mark it replaced; either way it cannot be paid, and
// the session's new hold is its active one.
func testLapsedHoldLostToOthersStaysGone(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	other := hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A1", "A2")
	h2 := hold(t, s, show.ID, "o1", at(ttl+2*time.Minute), "A3")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldActive && got != booking.HoldReplaced {
		t.Errorf("lapsed hold without seats: state %q, want %q or %q", got, booking.HoldActive, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(other), "A2": lockedBy(other), "A3": lockedBy(h2), "A4": free})
	if active, err := s.ActiveHold(ctx, show.ID, "o1"); err != nil || active.ID != h2.ID {
		t.Errorf("ActiveHold = %s, %v; want the new hold %s", active.ID, err, h2.ID)
	}
	_, _, err := s.StartPayment(ctx, h1.ID, "o1", newPaymentStart(), at(ttl+3*time.Minute))
	wantCode(t, "StartPayment of the lapsed hold", err, booking.EGONE)
}

func testCompletedHoldIsNotReplaced(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 3, later)
	h1, b := book(t, s, show.ID, "o1", at(0), "A1")
	h2 := hold(t, s, show.ID, "o1", at(time.Minute), "A2")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldCompleted {
		t.Errorf("paid hold's state %q, want %q", got, booking.HoldCompleted)
	}
	if got := getBooking(t, s, b.ID).State; got != booking.BookingConfirmed {
		t.Errorf("booking state %q, want %q", got, booking.BookingConfirmed)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": lockedBy(h2), "A3": free})
}

// wantPaying fails the test unless err is a *PayingError for hold h.
func wantPaying(t *testing.T, what string, err error, h booking.Hold) {
	t.Helper()
	var pe *booking.PayingError
	if !errors.As(err, &pe) || booking.ErrorCode(err) != booking.ECONFLICT {
		t.Fatalf("%s: %v, want a *booking.PayingError (%s)", what, err, booking.ECONFLICT)
	}
	if pe.HoldID != h.ID || !slices.Equal(pe.Seats, h.SeatIDs) {
		t.Errorf("%s: PayingError for hold %s of %v, want %s of %v", what, pe.HoldID, pe.Seats, h.ID, h.SeatIDs)
	}
}

// testPayingHoldIsNotReplaced: while the session's previous hold for a
// show has a pending payment, a new hold of the show, of the same seats
// or others, changes nothing and says which seats are being paid for
// (SPEC §2): replacing it would take the seats from under the payment,
// which would then end refund_due. Back (ReleaseHold) stays possible, and
// after it a hold succeeds.
func testPayingHoldIsNotReplaced(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	p, _ := pay(t, s, h1, at(0))
	before := getSeats(t, s, show.ID)
	for _, seats := range [][]string{{"A1", "A2"}, {"A2", "A3"}, {"A4"}} {
		m := at(time.Minute)
		wantPaying(t, fmt.Sprintf("HoldSeats(%v) while paying", seats), s.HoldSeats(ctx, newHold(show.ID, "o1", m, seats...), m), h1)
	}
	unchanged(t, s, show.ID, before)
	if diff := cmp.Diff(h1, getHold(t, s, h1.ID)); diff != "" {
		t.Errorf("the hold being paid for (-want +got):\n%s", diff)
	}
	// Another session, and another show, are not concerned.
	hold(t, s, show.ID, "o2", at(time.Minute), "A4")
	other, _ := newShow(t, s, 1, 2, later)
	hold(t, s, other.ID, "o1", at(time.Minute), "A1")

	// The payment is still the hold's: it books the seats.
	if st := settle(t, s, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), at(2*time.Minute)); st.Effect != booking.EffectBooked {
		t.Errorf("the payment of the hold: effect %q (%s), want %q", st.Effect, st.Reason, booking.EffectBooked)
	}

	// Back, then a hold: a second session pays, goes Back, holds again.
	h2 := hold(t, s, show.ID, "o3", at(3*time.Minute), "A3")
	pay(t, s, h2, at(3*time.Minute))
	if _, err := s.ReleaseHold(ctx, h2.ID, "o3"); err != nil {
		t.Fatalf("ReleaseHold of the hold being paid for: %v", err)
	}
	hold(t, s, show.ID, "o3", at(4*time.Minute), "A3")
}

// testPayingHoldWithoutSeatsIsNotReplaced: the previous hold is the most
// recent still active, whatever its seats are now: one whose lock lapsed
// and that lost every seat to others still has its payment pending, and a
// new hold is refused all the same.
func testPayingHoldWithoutSeatsIsNotReplaced(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	pay(t, s, h1, at(0))
	hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A1", "A2")
	m := at(ttl + 2*time.Minute)
	wantPaying(t, "HoldSeats while a lapsed hold without seats is being paid for", s.HoldSeats(ctx, newHold(show.ID, "o1", m, "A3"), m), h1)
	checkSeats(t, s, show.ID, map[string]seatView{"A3": free, "A4": free})
	if got := getHold(t, s, h1.ID).State; got != booking.HoldActive {
		t.Errorf("the hold being paid for: state %q, want %q", got, booking.HoldActive)
	}
}

// testClosedCheckoutIsNotPaying: a pending payment whose checkout
// boxoffice closed at the provider can take no money; it does not stop a
// new hold, which replaces the hold as usual.
func testClosedCheckoutIsNotPaying(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h1, at(0))
	if err := s.SetCheckoutRef(ctx, p.ID, 0, "cs_test_"+p.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseCheckout(ctx, p.ID, base.Add(ttl+time.Minute)); err != nil {
		t.Fatal(err)
	}
	h2 := hold(t, s, show.ID, "o1", at(ttl+2*time.Minute), "A1", "A2")
	if got := getHold(t, s, h1.ID).State; got != booking.HoldReplaced {
		t.Errorf("the hold whose checkout was closed: state %q, want %q", got, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h2), "A2": lockedBy(h2)})
}

func testReleaseFreesSeats(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	got, err := s.ReleaseHold(ctx, h.ID, "o1")
	if err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	want := h
	want.State = booking.HoldReleased
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReleaseHold result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, getHold(t, s, h.ID)); diff != "" {
		t.Errorf("Hold after release (-want +got):\n%s", diff)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": free, "A3": free})
	if diff := cmp.Diff([]string{"A1", "A2", "A3"}, availableIDs(t, s, show.ID, at(time.Second))); diff != "" {
		t.Errorf("AvailableSeatIDs after release (-want +got):\n%s", diff)
	}
	_, err = s.ActiveHold(ctx, show.ID, "o1")
	wantErr(t, "ActiveHold after release", err, booking.ErrHoldNotFound)
	// Someone else can hold them at once.
	hold(t, s, show.ID, "o2", at(time.Second), "A1", "A2")
}

func testReleaseIdempotent(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	if _, err := s.ReleaseHold(ctx, h.ID, "o1"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	h2 := hold(t, s, show.ID, "o2", at(time.Second), "A2")
	before := getSeats(t, s, show.ID)
	for range 2 {
		got, err := s.ReleaseHold(ctx, h.ID, "o1")
		if err != nil {
			t.Fatalf("ReleaseHold again: %v", err)
		}
		if got.State != booking.HoldReleased {
			t.Errorf("ReleaseHold again: state %q, want %q", got.State, booking.HoldReleased)
		}
	}
	unchanged(t, s, show.ID, before)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h2), "A3": free})
}

func testReleaseNotOwner(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	before := getSeats(t, s, show.ID)
	for _, owner := range []string{"o2", ""} {
		got, err := s.ReleaseHold(ctx, h.ID, owner)
		wantErr(t, "ReleaseHold by "+owner, err, booking.ErrNotOwner)
		wantCode(t, "ReleaseHold by "+owner, err, booking.ENOTFOUND)
		if got.ID != "" {
			t.Errorf("ReleaseHold by %q returned the hold %+v", owner, got)
		}
	}
	unchanged(t, s, show.ID, before)
	if got := getHold(t, s, h.ID).State; got != booking.HoldActive {
		t.Errorf("hold state %q, want %q", got, booking.HoldActive)
	}
}

func testReleaseLapsedHoldSparesOthersSeats(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	h2 := hold(t, s, show.ID, "o2", at(ttl), "A2", "A3")
	if _, err := s.ReleaseHold(ctx, h1.ID, "o1"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h2), "A3": lockedBy(h2)})
	if got := getHold(t, s, h2.ID).State; got != booking.HoldActive {
		t.Errorf("other hold's state %q, want %q", got, booking.HoldActive)
	}
}

func testReleaseReplacedHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	h2 := hold(t, s, show.ID, "o1", at(time.Minute), "A2", "A3")
	got, err := s.ReleaseHold(ctx, h1.ID, "o1")
	if err != nil {
		t.Fatalf("ReleaseHold of the replaced hold: %v", err)
	}
	if got.State != booking.HoldReplaced {
		t.Errorf("ReleaseHold of the replaced hold: state %q, want %q (still)", got.State, booking.HoldReplaced)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(h2), "A3": lockedBy(h2)})
	if got := getHold(t, s, h2.ID).State; got != booking.HoldActive {
		t.Errorf("new hold's state %q, want %q", got, booking.HoldActive)
	}
}

// testReleaseCompletedHold: Back after paying frees nothing. The store may
// answer with an EGONE error or with the hold; either way nothing changes.
func testReleaseCompletedHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h, b := book(t, s, show.ID, "o1", at(0), "A1", "A2")
	before := getSeats(t, s, show.ID)
	if _, err := s.ReleaseHold(ctx, h.ID, "o1"); err != nil && booking.ErrorCode(err) != booking.EGONE {
		t.Errorf("ReleaseHold of a paid hold: %v, want nil or an EGONE error", err)
	}
	unchanged(t, s, show.ID, before)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": bookedBy(b), "A3": free})
	if got := getHold(t, s, h.ID).State; got != booking.HoldCompleted {
		t.Errorf("hold state %q, want %q", got, booking.HoldCompleted)
	}
	if got := getBooking(t, s, b.ID).State; got != booking.BookingConfirmed {
		t.Errorf("booking state %q, want %q", got, booking.BookingConfirmed)
	}
}
