package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// checkoutTests are SPEC §9's checkout attempts and the checkout events a
// live hold outlasts, and a success of another amount.
var checkoutTests = []test{
	{"BeginCheckoutComparesAndSets", testBeginCheckout},
	{"BeginCheckoutRace", testBeginCheckoutRace},
	{"CheckoutExpiredWhileHoldLive", testCheckoutExpiredWhileHoldLive},
	{"ChargedOtherAmountIsRefundDue", testChargedOtherAmount},
}

// testBeginCheckout: the attempt moves from the one read, once; the
// previous checkout is recorded closed; a checkout of a superseded attempt
// is refused; a settled payment does not move.
func testBeginCheckout(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	_, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1")
	m := at(10 * time.Minute)
	expires := m.Now.Add(booking.CheckoutLifetime)
	got, moved, err := s.BeginCheckout(ctx, p.ID, 0, expires, m.Now)
	if err != nil || !moved {
		t.Fatalf("BeginCheckout from 0 = moved %v, %v; want moved", moved, err)
	}
	stored := getPayment(t, s, p.ID)
	if stored.CheckoutAttempt != 1 || !stored.CheckoutExpiresAt.Equal(expires) || !stored.CheckoutClosedAt.Equal(m.Now) ||
		stored.CheckoutRef != p.CheckoutRef || stored.CheckoutOpen() {
		t.Errorf("after BeginCheckout: attempt %d, expires %v, closed %v, ref %q; want 1, %v, the previous checkout closed at %v",
			stored.CheckoutAttempt, stored.CheckoutExpiresAt, stored.CheckoutClosedAt, stored.CheckoutRef, expires, m.Now)
	}
	same(t, "payment returned", stored, got)
	if again, moved, err := s.BeginCheckout(ctx, p.ID, 0, expires.Add(time.Minute), m.Now.Add(time.Minute)); err != nil || moved || again.CheckoutAttempt != 1 {
		t.Errorf("BeginCheckout from 0 again = attempt %d, moved %v, %v; want attempt 1 unmoved", again.CheckoutAttempt, moved, err)
	}
	wantErr(t, "SetCheckoutRef of attempt 0 after attempt 1 began", s.SetCheckoutRef(ctx, p.ID, 0, "cs_late"), booking.ErrCheckoutSuperseded)
	if err := s.SetCheckoutRef(ctx, p.ID, 1, "cs_second"); err != nil {
		t.Fatalf("SetCheckoutRef of attempt 1: %v", err)
	}
	if stored := getPayment(t, s, p.ID); stored.CheckoutRef != "cs_second" || !stored.CheckoutOpen() || !stored.CheckoutExpiresAt.Equal(expires) {
		t.Errorf("after SetCheckoutRef: ref %q, open %v, expires %v", stored.CheckoutRef, stored.CheckoutOpen(), stored.CheckoutExpiresAt)
	}
	if _, _, err := s.BeginCheckout(ctx, booking.NewID(), 0, expires, m.Now); err == nil || booking.ErrorCode(err) != booking.ENOTFOUND {
		t.Errorf("BeginCheckout of an unknown payment: %v, want not found", err)
	}
	settle(t, s, event(p, booking.EventPaymentSucceeded), "BEGN-0001", at(11*time.Minute))
	if done, moved, err := s.BeginCheckout(ctx, p.ID, 1, expires, m.Now); err != nil || moved || done.State != booking.PaymentSucceeded {
		t.Errorf("BeginCheckout of a settled payment = %s, moved %v, %v; want it unmoved", done.State, moved, err)
	}
}

// testBeginCheckoutRace: of Pays at once that read one attempt, in any
// processes, one moves it.
func testBeginCheckoutRace(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	_, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1")
	const pays = 6
	m := at(time.Minute)
	var wg sync.WaitGroup
	start := make(chan struct{})
	type result struct {
		p     booking.Payment
		moved bool
		err   error
	}
	results := make(chan result, pays)
	for range pays {
		wg.Go(func() {
			<-start
			got, moved, err := s.BeginCheckout(context.Background(), p.ID, 0, m.Now.Add(booking.CheckoutLifetime), m.Now)
			results <- result{got, moved, err}
		})
	}
	close(start)
	wg.Wait()
	close(results)
	moved := 0
	for r := range results {
		if r.err != nil {
			t.Errorf("BeginCheckout: %v", r.err)
			continue
		}
		if r.moved {
			moved++
		}
		if r.p.CheckoutAttempt != 1 {
			t.Errorf("BeginCheckout returned attempt %d, want 1", r.p.CheckoutAttempt)
		}
	}
	if got := getPayment(t, s, p.ID).CheckoutAttempt; moved != 1 || got != 1 {
		t.Errorf("%d of %d Pays at once moved the attempt, now %d; want exactly one, to 1", moved, pays, got)
	}
}

// testCheckoutExpiredWhileHoldLive: a checkout that expires while its hold
// is live (More time) ends that checkout only; one of an earlier attempt
// changes nothing; once the hold has ended, its last checkout's expiry
// fails the payment.
func testCheckoutExpiredWhileHoldLive(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1", "A2")
	expired := func(ref string) booking.PaymentEvent {
		ev := event(p, booking.EventCheckoutExpired)
		ev.CheckoutRef = ref
		return ev
	}
	st := settle(t, s, expired(p.CheckoutRef), "", at(ttl-time.Minute))
	if st.Effect != booking.EffectCheckoutEnded {
		t.Fatalf("expired checkout of a live hold: effect %q, want %q", st.Effect, booking.EffectCheckoutEnded)
	}
	stored := getPayment(t, s, p.ID)
	if stored.State != booking.PaymentPending || stored.CheckoutOpen() || !stored.CheckoutClosedAt.Equal(at(ttl-time.Minute).Now) {
		t.Errorf("payment after its checkout expired: %s, open %v, closed at %v; want pending, closed", stored.State, stored.CheckoutOpen(), stored.CheckoutClosedAt)
	}
	if b := getBooking(t, s, p.BookingID); b.State != booking.BookingPending {
		t.Errorf("booking %s, want pending", b.State)
	}
	if got := getHold(t, s, h.ID); got.State != booking.HoldActive {
		t.Errorf("hold %s, want active", got.State)
	}
	for _, seat := range getSeats(t, s, show.ID) {
		if (seat.ID == "A1" || seat.ID == "A2") && !seat.LockedBy(h.ID) {
			t.Errorf("seat %s is %s, want still locked by the hold", seat.ID, seat.Status)
		}
	}
	if n, err := s.EndedCheckouts(ctx, at(ttl-time.Minute), 10); err != nil || len(n) != 0 {
		t.Errorf("EndedCheckouts = %v, %v; the expired checkout is closed already", n, err)
	}

	// The same expiry told again (a lookup asks each minute) once the hold
	// has ended fails the payment.
	h2, p2 := payWithCheckout(t, s, show.ID, "o2", at(0), "A4")
	again := event(p2, booking.EventCheckoutExpired)
	again.CheckoutRef = p2.CheckoutRef
	if st := settle(t, s, again, "", at(time.Minute)); st.Effect != booking.EffectCheckoutEnded {
		t.Errorf("expired checkout of live hold %s: effect %q", h2.ID, st.Effect)
	}
	if st := settle(t, s, again, "", at(ttl+time.Minute)); st.Effect != booking.EffectReleased || st.Duplicate {
		t.Errorf("the same expiry after the hold lapsed: %q, duplicate %v; want released", st.Effect, st.Duplicate)
	}
	if b := getBooking(t, s, p2.BookingID); b.State != booking.BookingFailed {
		t.Errorf("booking %s after its hold lapsed and its checkout expired, want failed", b.State)
	}

	// Pay opens another; the first one's expiry, told again, changes nothing.
	m := at(ttl - time.Minute)
	if _, _, err := s.BeginCheckout(ctx, p.ID, 0, m.Now.Add(booking.CheckoutLifetime), m.Now); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCheckoutRef(ctx, p.ID, 1, "cs_second_"+p.ID); err != nil {
		t.Fatal(err)
	}
	if st := settle(t, s, expired(p.CheckoutRef), "", at(ttl+time.Minute)); st.Effect != booking.EffectIgnored {
		t.Errorf("an earlier checkout's expiry: effect %q, want ignored", st.Effect)
	}
	if got := getPayment(t, s, p.ID); got.State != booking.PaymentPending || !got.CheckoutOpen() {
		t.Errorf("after an earlier checkout's expiry: %s, open %v; want pending with its checkout open", got.State, got.CheckoutOpen())
	}

	// The hold lapsed; its last checkout expires: the payment failed.
	st = settle(t, s, expired("cs_second_"+p.ID), "", at(ttl+2*time.Minute))
	if st.Effect != booking.EffectReleased || st.Reason != booking.ReasonCheckoutExpired {
		t.Errorf("last checkout expired after the hold: %q %q, want released, checkout expired", st.Effect, st.Reason)
	}
	if b := getBooking(t, s, p.BookingID); b.State != booking.BookingFailed || b.Reason != booking.ReasonCheckoutExpired {
		t.Errorf("booking %s %q, want failed: checkout expired", b.State, b.Reason)
	}
	if got := getPayment(t, s, p.ID); got.State != booking.PaymentFailed {
		t.Errorf("payment %s, want failed", got.State)
	}
}

// testChargedOtherAmount: a success that took another amount than the
// payment's took money all the same: the booking is due a refund, with why.
// Without Charged it is refused, as the sandbox's callback is.
func testChargedOtherAmount(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(0))
	ev := event(p, booking.EventPaymentSucceeded)
	ev.Amount, ev.ChargeRef = p.Amount-100, "pi_short"
	_, err := s.SettlePayment(ctx, ev, "AMNT-0001", at(time.Minute))
	wantErr(t, "a success of another amount, not charged", err, booking.ErrPaymentMismatch)

	ev.ID, ev.Charged = "evt_"+booking.NewID(), true
	st := settle(t, s, ev, "AMNT-0002", at(time.Minute))
	if want := booking.AmountMismatchReason(ev.Amount, p.Currency, p.Amount, p.Currency); st.Effect != booking.EffectRefundDue || st.Reason != want {
		t.Fatalf("a charged success of another amount: %q %q, want refund_due naming both amounts: %q", st.Effect, st.Reason, want)
	}
	if b := getBooking(t, s, p.BookingID); b.State != booking.BookingRefundDue || b.Reason != st.Reason {
		t.Errorf("booking %s %q, want refund_due with the reason", b.State, b.Reason)
	}
	if got := getPayment(t, s, p.ID); got.State != booking.PaymentSucceeded || got.ChargeRef != "pi_short" {
		t.Errorf("payment %s, charge %q; want succeeded with the charge a refund names", got.State, got.ChargeRef)
	}
	for _, seat := range getSeats(t, s, show.ID) {
		if seat.ID == "A1" && seat.Status != booking.SeatAvailable {
			t.Errorf("A1 is %s, want available: nothing was booked", seat.Status)
		}
	}
	// Another currency, the same.
	h2 := hold(t, s, show.ID, "o2", at(0), "A3")
	p2, _ := pay(t, s, h2, at(0))
	ev2 := event(p2, booking.EventPaymentSucceeded)
	ev2.Currency, ev2.Charged = "USD", true
	if st := settle(t, s, ev2, "AMNT-0003", at(time.Minute)); st.Effect != booking.EffectRefundDue {
		t.Errorf("a charged success in another currency: %q, want refund_due", st.Effect)
	}
}
