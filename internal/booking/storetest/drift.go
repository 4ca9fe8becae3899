package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// driftTests pin down the definitions the two stores once spelled each
// their own way: the session's previous hold (SPEC §2) and the seats held
// live from an address (SPEC §12), whose query must agree with the seat
// rule in Go at every instant.
var driftTests = []test{
	{"PreviousHoldWithoutSeats", testPreviousHoldWithoutSeats},
	{"LiveSeatsFromAgreesWithGoRule", testLiveSeatsFromAgreesWithGoRule},
	{"ExtendAfterALaterTake", testExtendAfterALaterTake},
	{"NoCheckoutForAReplacedHold", testNoCheckoutForAReplacedHold},
	{"LapsedMailClaimFailsNothing", testLapsedMailClaimFailsNothing},
}

// testLapsedMailClaimFailsNothing: a sender whose claim lapsed, and whose
// mail another process claimed since, reports its failure: the other's
// live claim stays, so that no third process claims the mail while it
// is being sent.
func testLapsedMailClaimFailsNothing(t *testing.T, s store) {
	ctx := context.Background()
	const lease = 2 * time.Minute
	m := booking.Mail{ID: "m-1", Kind: booking.MailLink, BookingID: "b1", To: moviegoerEmail, CreatedAt: later, NextAt: later}
	if err := s.QueueMail(ctx, m); err != nil {
		t.Fatal(err)
	}
	first, err := s.ClaimMail(ctx, later, lease, 10)
	if err != nil || len(first) != 1 {
		t.Fatalf("first claim: %v, %v", first, err)
	}
	second, err := s.ClaimMail(ctx, later.Add(lease+time.Second), lease, 10)
	if err != nil || len(second) != 1 {
		t.Fatalf("second claim, once the first lapsed: %v, %v", second, err)
	}
	failed := first[0].Failed(later.Add(lease+2*time.Second), "smtp: timeout")
	if err := booking.MailFailedStep(ctx, s.Store, fixed(later.Add(lease+2*time.Second)), failed, first[0].ClaimedUntil); err != nil {
		t.Fatal(err)
	}
	if third, err := s.ClaimMail(ctx, later.Add(lease+40*time.Second), lease, 10); err != nil || len(third) != 0 {
		t.Errorf("a third claim while the second is live: %v, %v; want none", third, err)
	}
	if got, err := s.Mail(ctx, m.ID); err != nil || !got.ClaimedUntil.Equal(second[0].ClaimedUntil) {
		t.Errorf("the mail after the lapsed claim's failure: %+v, %v; want the second claim kept", got, err)
	}
}

// testExtendAfterALaterTake: steps of two processes decide at instants
// their own clocks give (and a MongoDB step run again, at its first
// instant). A seat taken by a step that saw the hold's lock lapse, then
// More time at an earlier instant that still finds the hold live: the
// hold has expired (410), never an internal error.
func testExtendAfterALaterTake(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 6, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	taker := hold(t, s, show.ID, "o2", at(ttl+time.Second), "A2")
	_, err := s.ExtendHold(context.Background(), h.ID, "o1", at(ttl-time.Minute))
	if !errors.Is(err, booking.ErrHoldExpired) {
		t.Fatalf("More time after a seat was taken at a later instant = %v, want ErrHoldExpired", err)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h), "A2": lockedBy(taker)})
}

// testNoCheckoutForAReplacedHold: a payment whose checkout was closed does
// not stop its session's next hold (PreviousHold.Paying), which replaces
// the hold; a new checkout of that payment is then refused, as the hold
// no longer stands.
func testNoCheckoutForAReplacedHold(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(time.Minute))
	if err := s.CloseCheckout(ctx, p.ID, at(2*time.Minute).Now); err != nil {
		t.Fatal(err)
	}
	hold(t, s, show.ID, "o1", at(3*time.Minute), "A4")
	m := at(4 * time.Minute)
	_, moved, err := s.BeginCheckout(ctx, p.ID, p.CheckoutAttempt, m.Now.Add(31*time.Minute), m.Now)
	if !errors.Is(err, booking.ErrHoldReplaced) || moved {
		t.Errorf("a new checkout of a replaced hold's payment = moved %v, %v; want ErrHoldReplaced", moved, err)
	}
	if got := getPayment(t, s, p.ID); got.CheckoutAttempt != p.CheckoutAttempt {
		t.Errorf("the payment's attempt moved to %d", got.CheckoutAttempt)
	}
}

// testPreviousHoldWithoutSeats: a lapsed hold that lost every seat to
// another session is still the session's previous hold (its most recent
// active hold of the show, whatever its seats are now): the session's next
// hold replaces it.
func testPreviousHoldWithoutSeats(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 6, later)
	first := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A1", "A2")
	next := hold(t, s, show.ID, "o1", at(ttl+2*time.Minute), "A4")
	if got := getHold(t, s, first.ID).State; got != booking.HoldReplaced {
		t.Errorf("the lapsed hold without seats after the session's next hold: %s, want replaced", got)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A4": lockedBy(next), "A5": free})
}

// testLiveSeatsFromAgreesWithGoRule: Tx.LiveSeatsFrom counts exactly the
// seats the seat rule in Go finds locked live by active holds made from the
// address, with their oldest lock, at instants on both sides of every
// lock's lapse.
func testLiveSeatsFromAgreesWithGoRule(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 6, later)
	from := func(owner, address string, m booking.Moment, seats ...string) booking.Hold {
		t.Helper()
		h, err := holdFrom(s, show.ID, owner, address, m, seats...)
		if err != nil {
			t.Fatalf("hold %v from %s: %v", seats, address, err)
		}
		return h
	}
	holds := []booking.Hold{
		from("o1", "10.0.0.1", at(0), "A1", "A2"),
		from("o2", "10.0.0.1", at(5*time.Minute), "B1"),
		from("o3", "10.0.0.2", at(6*time.Minute), "A5"),
		from("o4", "10.0.0.1", at(7*time.Minute), "B5", "B6"),
	}
	// o4 goes Back: released holds hold nothing.
	if _, err := s.ReleaseHold(ctx, holds[3].ID, "o4"); err != nil {
		t.Fatal(err)
	}
	// o1's lapsed A2 is taken by o5 from the same address.
	holds = append(holds, from("o5", "10.0.0.1", at(ttl+time.Minute), "A2"))

	var instants []booking.Moment
	for _, h := range holds {
		lapse := h.CreatedAt.Add(ttl).Sub(base)
		instants = append(instants, at(lapse-time.Nanosecond), at(lapse), at(lapse+time.Nanosecond))
	}
	for _, m := range instants {
		for _, address := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"} {
			want, wantOldest := 0, time.Time{}
			for _, seat := range getSeats(t, s, show.ID) {
				if seat.Status != booking.SeatLocked || seat.AvailableAt(m) {
					continue
				}
				h := getHold(t, s, seat.HoldID)
				if h.Address != address || h.State != booking.HoldActive {
					continue
				}
				want++
				if wantOldest.IsZero() || seat.LockedAt.Before(wantOldest) {
					wantOldest = seat.LockedAt
				}
			}
			var got int
			var oldest time.Time
			err := s.Atomically(ctx, m.Clock(), func(tx booking.Tx) error {
				var err error
				got, oldest, err = tx.LiveSeatsFrom(show.ID, address, m.LapsedBefore())
				return err
			})
			if err != nil {
				t.Fatalf("LiveSeatsFrom: %v", err)
			}
			if got != want || !oldest.Equal(wantOldest) {
				t.Errorf("at %v from %s: LiveSeatsFrom = %d, oldest %v; the Go rule finds %d, oldest %v",
					m.Now.Sub(base), address, got, oldest, want, wantOldest)
			}
		}
	}
}
