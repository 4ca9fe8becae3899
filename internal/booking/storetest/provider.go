package storetest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// providerTests are the steps a real payment provider needs: the checkout's
// id, closing the checkouts of ended holds, looking stuck payments up once
// per minute across processes, the charge a refund names, and refund
// events.
var providerTests = []test{
	{"CheckoutRef", testCheckoutRef},
	{"ChargeRefOnSuccess", testChargeRefOnSuccess},
	{"EndedCheckoutsAgreeWithGoRule", testEndedCheckouts},
	{"CloseCheckout", testCloseCheckout},
	{"ClaimLookupOncePerMinute", testClaimLookup},
	{"ClaimLookupRace", testClaimLookupRace},
	{"SettleRefundFailed", testSettleRefundFailed},
	{"MarkRefundedRace", testMarkRefundedRace},
	{"RefundFailedBeforeItWasRecorded", testRefundFailedBeforeItWasRecorded},
	{"EndedCheckoutsPagePastLapsedHolds", testEndedCheckoutsPagePastLapsedHolds},
}

// testRefundFailedBeforeItWasRecorded: a refund made at the provider but
// not recorded (the process stopped) fails; the booking, still due, learns
// the failed refund's id, so that neither a retry with the old key nor a
// stale click can record the failed refund as made.
func testRefundFailedBeforeItWasRecorded(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	due := refundDue(t, s, show.ID, "A1", "A2", 0)
	st, err := s.SettleRefund(ctx, booking.RefundEvent{ID: "evt_" + booking.NewID(), RefundID: "re_1", BookingID: due.ID, Reason: "lost_or_stolen_card"}, at(time.Hour))
	if err != nil || st.Effect != booking.EffectRefundDue {
		t.Fatalf("SettleRefund of an unrecorded refund = %+v, %v; want refund_due", st, err)
	}
	b := getBooking(t, s, due.ID)
	if b.State != booking.BookingRefundDue || b.RefundID != "re_1" || !strings.Contains(b.Reason, "lost_or_stolen_card") || !strings.HasPrefix(b.Reason, due.Reason) {
		t.Errorf("after the failure: %s, refund %q, reason %q", b.State, b.RefundID, b.Reason)
	}
	if key := booking.RefundKey(b); key == booking.RefundKey(due) {
		t.Errorf("RefundKey after a failure is still %q", key)
	}
	_, err = s.MarkRefunded(ctx, due.ID, "re_1", "ops@example.com", at(2*time.Hour).Now)
	wantErr(t, "MarkRefunded with the failed refund", err, booking.ErrRefundFailed)
	if _, err := s.MarkRefunded(ctx, due.ID, "re_2", "ops@example.com", at(2*time.Hour).Now); err != nil {
		t.Fatalf("MarkRefunded with a new refund: %v", err)
	}
	// The old refund's failure told again, after a new one was made, is
	// ignored.
	st, err = s.SettleRefund(ctx, booking.RefundEvent{ID: "evt_" + booking.NewID(), RefundID: "re_1", BookingID: due.ID, Reason: "again"}, at(3*time.Hour))
	if err != nil || st.Effect != booking.EffectIgnored {
		t.Errorf("an old refund's failure after a new refund = %+v, %v; want ignored", st, err)
	}
	if b := getBooking(t, s, due.ID); b.State != booking.BookingRefunded || b.RefundID != "re_2" {
		t.Errorf("after an old refund's failure: %s %q, want refunded by re_2", b.State, b.RefundID)
	}
}

// testEndedCheckoutsPagePastLapsedHolds: many older checkouts whose holds
// lapsed with their seats still free (not ended: a late payment is still
// rescued) do not hide a newer ended one.
func testEndedCheckoutsPagePastLapsedHolds(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 8, later)
	for i := range 7 {
		payWithCheckout(t, s, show.ID, "lapsed-"+strconv.Itoa(i), at(time.Duration(i)*time.Second), "A"+strconv.Itoa(i+1))
	}
	released, p := payWithCheckout(t, s, show.ID, "released", at(time.Minute), "B1")
	if _, err := s.ReleaseHold(ctx, released.ID, "released"); err != nil {
		t.Fatal(err)
	}
	list, err := s.EndedCheckouts(ctx, at(ttl+2*time.Minute), 3)
	if err != nil || len(list) != 1 || list[0].ID != p.ID {
		t.Errorf("EndedCheckouts(limit 3) behind 7 lapsed holds = %v, %v; want the released one", list, err)
	}
}

// testMarkRefundedRace: admins pressing Refund at once each record a
// refund; exactly one is recorded, the others are told it already was.
func testMarkRefundedRace(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	due := refundDue(t, s, show.ID, "A1", "A2", 0)
	const admins = 12
	var wg sync.WaitGroup
	start := make(chan struct{})
	results := make(chan error, admins)
	for i := range admins {
		wg.Go(func() {
			<-start
			_, err := s.MarkRefunded(context.Background(), due.ID, "re_"+strconv.Itoa(i), "ops@example.com", at(time.Hour).Now)
			results <- err
		})
	}
	close(start)
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, booking.ErrAlreadyRefunded):
			t.Errorf("MarkRefunded: %v, want nil or ErrAlreadyRefunded", err)
		}
	}
	if b := getBooking(t, s, due.ID); won != 1 || b.State != booking.BookingRefunded || b.RefundID == "" {
		t.Errorf("%d of %d concurrent refunds recorded (booking %s, refund %q), want exactly 1", won, admins, b.State, b.RefundID)
	}
}

// payWithCheckout holds seats for owner at m, pays at m and records a
// checkout ref.
func payWithCheckout(t *testing.T, s store, showID, owner string, m booking.Moment, seats ...string) (booking.Hold, booking.Payment) {
	t.Helper()
	h := hold(t, s, showID, owner, m, seats...)
	p, _ := pay(t, s, h, m)
	if err := s.SetCheckoutRef(context.Background(), p.ID, 0, "cs_"+p.ID); err != nil {
		t.Fatalf("SetCheckoutRef: %v", err)
	}
	return h, getPayment(t, s, p.ID)
}

func testCheckoutRef(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, b := pay(t, s, h, at(time.Minute))
	if err := s.SetCheckoutRef(ctx, p.ID, 0, "cs_test_1"); err != nil {
		t.Fatalf("SetCheckoutRef: %v", err)
	}
	want := p
	want.CheckoutRef = "cs_test_1"
	if diff := cmp.Diff(want, getPayment(t, s, p.ID)); diff != "" {
		t.Errorf("payment after SetCheckoutRef (-want +got):\n%s", diff)
	}
	same(t, "booking", b, getBooking(t, s, b.ID))
	err := s.SetCheckoutRef(ctx, booking.NewID(), 0, "cs_test_2")
	wantErr(t, "SetCheckoutRef of an unknown payment", err, booking.ErrPaymentNotFound)
	// Pay again returns the payment with its ref.
	again, _, err := s.StartPayment(ctx, h.ID, "o1", newPaymentStart(), at(2*time.Minute))
	if err != nil || again.CheckoutRef != "cs_test_1" {
		t.Errorf("StartPayment again = ref %q, %v; want cs_test_1", again.CheckoutRef, err)
	}
}

func testChargeRefOnSuccess(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, _ := pay(t, s, h, at(0))
	ev := event(p, booking.EventPaymentSucceeded)
	ev.ChargeRef = "pi_1"
	st := settle(t, s, ev, "CHRG-0001", at(time.Minute))
	if st.Payment.ChargeRef != "pi_1" || getPayment(t, s, p.ID).ChargeRef != "pi_1" {
		t.Errorf("charge ref after success: settlement %q, stored %q; want pi_1", st.Payment.ChargeRef, getPayment(t, s, p.ID).ChargeRef)
	}
	// A late contradicting event changes nothing, its charge ref neither.
	late := event(p, booking.EventPaymentFailed)
	late.ChargeRef = "pi_2"
	settle(t, s, late, "CHRG-0002", at(2*time.Minute))
	if got := getPayment(t, s, p.ID).ChargeRef; got != "pi_1" {
		t.Errorf("charge ref after a contradicting event = %q, want pi_1", got)
	}
	// A late success that finds its seats gone records its charge too: the
	// refund needs it.
	due := refundDue(t, s, show.ID, "A2", "A3", 0)
	if p := getPayment(t, s, due.PaymentID); p.State != booking.PaymentSucceeded {
		t.Fatalf("refund due payment state %q", p.State)
	}
	h4 := hold(t, s, show.ID, "late-A4", at(0), "A4")
	p4, _ := pay(t, s, h4, at(0))
	hold(t, s, show.ID, "quick-A4", at(ttl), "A4")
	ev4 := event(p4, booking.EventPaymentSucceeded)
	ev4.ChargeRef = "pi_4"
	if st := settle(t, s, ev4, "CHRG-0004", at(ttl+time.Minute)); st.Effect != booking.EffectRefundDue || st.Payment.ChargeRef != "pi_4" {
		t.Errorf("late success: effect %q, charge %q; want refund_due and pi_4", st.Effect, st.Payment.ChargeRef)
	}
}

// testEndedCheckouts builds a checkout in every situation and compares the
// store's list with booking.CheckoutEnded on the stored records, at moments
// on either side of the holds' expiry.
func testEndedCheckouts(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 8, later)

	_, live := payWithCheckout(t, s, show.ID, "live", at(0), "A1")
	released, pReleased := payWithCheckout(t, s, show.ID, "released", at(0), "A2")
	if _, err := s.ReleaseHold(ctx, released.ID, "released"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	// A session cannot replace a hold it is paying for (SPEC §2): a second
	// one goes Back instead.
	released2, pReleased2 := payWithCheckout(t, s, show.ID, "released-too", at(0), "A3")
	if _, err := s.ReleaseHold(ctx, released2.ID, "released-too"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	_, pLapsedKept := payWithCheckout(t, s, show.ID, "lapsed-kept", at(0), "A5", "A6")
	_, pRetaken := payWithCheckout(t, s, show.ID, "lapsed-retaken", at(0), "B1", "B2")
	hold(t, s, show.ID, "taker", at(ttl+time.Second), "B2")
	noRef := hold(t, s, show.ID, "no-ref", at(0), "B3")
	pay(t, s, noRef, at(0))
	closed, pClosed := payWithCheckout(t, s, show.ID, "closed", at(0), "B4")
	if _, err := s.ReleaseHold(ctx, closed.ID, "closed"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	if err := s.CloseCheckout(ctx, pClosed.ID, at(time.Minute).Now); err != nil {
		t.Fatalf("CloseCheckout: %v", err)
	}
	_, pPaid := payWithCheckout(t, s, show.ID, "paid", at(0), "B5")
	settle(t, s, event(pPaid, booking.EventPaymentSucceeded), "PAID-0001", at(time.Minute))

	all := []booking.Payment{live, pReleased, pReleased2, pLapsedKept, pRetaken, pClosed, pPaid}
	names := map[string]string{live.ID: "live", pReleased.ID: "released", pReleased2.ID: "released too",
		pLapsedKept.ID: "lapsed, seats kept", pRetaken.ID: "lapsed and retaken", pClosed.ID: "closed", pPaid.ID: "paid"}
	wantAt := map[time.Duration][]string{
		2 * time.Minute:       {"released", "released too"},
		ttl + 2*time.Second:   {"released", "released too", "lapsed and retaken"},
		100*ttl + time.Second: {"released", "released too", "lapsed and retaken"},
	}
	for d, want := range wantAt {
		m := at(d)
		list, err := s.EndedCheckouts(ctx, m, 100)
		if err != nil {
			t.Fatalf("EndedCheckouts at %v: %v", d, err)
		}
		var got, byRule []string
		for _, p := range list {
			got = append(got, names[p.ID])
		}
		for _, p := range all {
			stored := getPayment(t, s, p.ID)
			h := getHold(t, s, stored.HoldID)
			seats := getSeats(t, s, h.ShowID)
			if booking.CheckoutEnded(stored, h, seats, m) {
				byRule = append(byRule, names[p.ID])
			}
		}
		slices.Sort(got)
		slices.Sort(byRule)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("EndedCheckouts at +%v (-want +got):\n%s", d, diff)
		}
		if diff := cmp.Diff(byRule, got); diff != "" {
			t.Errorf("EndedCheckouts at +%v against booking.CheckoutEnded (-rule +store):\n%s", d, diff)
		}
	}
	if list, err := s.EndedCheckouts(ctx, at(2*time.Minute), 1); err != nil || len(list) != 1 ||
		(list[0].ID != pReleased.ID && list[0].ID != pReleased2.ID) {
		t.Errorf("EndedCheckouts with limit 1 = %v, %v; want one of the two ended", list, err)
	}
	if list, err := s.EndedCheckouts(ctx, at(time.Second), 100); err != nil || list == nil {
		t.Errorf("EndedCheckouts with none ended = %#v, %v; want an empty list", list, err)
	}
}

func testCloseCheckout(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	_, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1")
	when := at(time.Minute).Now
	if err := s.CloseCheckout(ctx, p.ID, when); err != nil {
		t.Fatalf("CloseCheckout: %v", err)
	}
	want := p
	want.CheckoutClosedAt = when
	if diff := cmp.Diff(want, getPayment(t, s, p.ID)); diff != "" {
		t.Errorf("after CloseCheckout (-want +got):\n%s", diff)
	}
	if err := s.CloseCheckout(ctx, p.ID, at(2*time.Minute).Now); err != nil {
		t.Errorf("CloseCheckout again: %v", err)
	}
	same(t, "payment after a second CloseCheckout", want, getPayment(t, s, p.ID))
	wantErr(t, "CloseCheckout of an unknown payment", s.CloseCheckout(ctx, booking.NewID(), when), booking.ErrPaymentNotFound)
}

func testClaimLookup(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	_, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1")
	claim := func(d time.Duration) bool {
		t.Helper()
		ok, err := s.ClaimLookup(ctx, p.ID, at(d).Now)
		if err != nil {
			t.Fatalf("ClaimLookup at +%v: %v", d, err)
		}
		return ok
	}
	steps := []struct {
		at   time.Duration
		want bool
	}{
		{booking.StuckAfter - time.Nanosecond, false},
		{booking.StuckAfter, true},
		{booking.StuckAfter + booking.LookupEvery - time.Nanosecond, false},
		{booking.StuckAfter + booking.LookupEvery, true},
		{booking.StuckAfter + booking.LookupEvery + time.Second, false},
	}
	for _, st := range steps {
		if got := claim(st.at); got != st.want {
			t.Errorf("ClaimLookup at +%v = %v, want %v", st.at, got, st.want)
		}
	}
	if got := getPayment(t, s, p.ID).LookedUpAt; !got.Equal(at(booking.StuckAfter + booking.LookupEvery).Now) {
		t.Errorf("LookedUpAt = %v, want the last claim's time", got)
	}
	settle(t, s, event(p, booking.EventPaymentFailed), "", at(time.Hour))
	if claim(2 * time.Hour) {
		t.Error("ClaimLookup of a settled payment succeeded")
	}
	_, err := s.ClaimLookup(ctx, booking.NewID(), at(time.Hour).Now)
	wantErr(t, "ClaimLookup of an unknown payment", err, booking.ErrPaymentNotFound)
}

// testClaimLookupRace: of many callers claiming one stuck payment at once,
// as processes showing its booking page do, exactly one wins.
func testClaimLookupRace(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 3, later)
	_, p := payWithCheckout(t, s, show.ID, "o1", at(0), "A1")
	const callers = 16
	var wg sync.WaitGroup
	won := make(chan bool, callers)
	start := make(chan struct{})
	for range callers {
		wg.Go(func() {
			<-start
			ok, err := s.ClaimLookup(context.Background(), p.ID, at(booking.StuckAfter+time.Second).Now)
			if err != nil {
				t.Errorf("ClaimLookup: %v", err)
			}
			won <- ok
		})
	}
	close(start)
	wg.Wait()
	close(won)
	n := 0
	for ok := range won {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d of %d concurrent claims won, want exactly 1", n, callers)
	}
}

func testSettleRefundFailed(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	due := refundDue(t, s, show.ID, "A1", "A2", 0)
	refunded, err := s.MarkRefunded(ctx, due.ID, "re_1", "ops@example.com", at(time.Hour).Now)
	if err != nil {
		t.Fatalf("MarkRefunded: %v", err)
	}

	other := booking.RefundEvent{ID: "evt_" + booking.NewID(), RefundID: "re_other", BookingID: due.ID, Reason: "lost_or_stolen_card"}
	st, err := s.SettleRefund(ctx, other, at(2*time.Hour))
	if err != nil || st.Effect != booking.EffectIgnored {
		t.Errorf("SettleRefund naming another refund = %+v, %v; want ignored", st, err)
	}
	same(t, "booking after an event about another refund", refunded, getBooking(t, s, due.ID))

	ev := booking.RefundEvent{ID: "evt_" + booking.NewID(), RefundID: "re_1", BookingID: due.ID, Reason: "expired_or_canceled_card"}
	m := at(3 * time.Hour)
	st, err = s.SettleRefund(ctx, ev, m)
	if err != nil {
		t.Fatalf("SettleRefund: %v", err)
	}
	_, want := booking.DecideRefundFailed(refunded, ev, m.Now)
	if want.State != booking.BookingRefundDue || want.RefundID != "re_1" {
		t.Fatalf("DecideRefundFailed gave %+v", want)
	}
	if st.Effect != booking.EffectRefundDue || st.Duplicate {
		t.Errorf("SettleRefund = effect %q duplicate %v, want refund_due", st.Effect, st.Duplicate)
	}
	if diff := cmp.Diff(want, st.Booking); diff != "" {
		t.Errorf("RefundSettlement.Booking (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, getBooking(t, s, due.ID)); diff != "" {
		t.Errorf("stored booking (-want +got):\n%s", diff)
	}

	dup, err := s.SettleRefund(ctx, ev, at(4*time.Hour))
	if err != nil || !dup.Duplicate || dup.Effect != booking.EffectRefundDue {
		t.Errorf("SettleRefund again = %+v, %v; want a duplicate of refund_due", dup, err)
	}
	same(t, "booking after a duplicate refund event", want, getBooking(t, s, due.ID))

	_, err = s.SettleRefund(ctx, booking.RefundEvent{ID: "evt_" + booking.NewID(), RefundID: "re_1", BookingID: booking.NewID()}, m)
	wantErr(t, "SettleRefund of an unknown booking", err, booking.ErrBookingNotFound)

	// The second refund goes through: the booking is refunded again, and
	// its mail, queued at the first, is not queued twice.
	again, err := s.MarkRefunded(ctx, due.ID, "re_2", "ops@example.com", at(5*time.Hour).Now)
	if err != nil || again.State != booking.BookingRefunded || again.RefundID != "re_2" {
		t.Fatalf("MarkRefunded after a failed refund = %+v, %v; want refunded by re_2", again, err)
	}
	if m := getMail(t, s, due.ID+".refunded"); !m.CreatedAt.Equal(at(time.Hour).Now) {
		t.Errorf("the refund's mail was queued again at %v, want once at %v", m.CreatedAt, at(time.Hour).Now)
	}
}
