package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// The sandbox's callback outbox (SPEC §6): its steps over each store's
// OutboxTx, and its reads.

var outboxTests = []test{
	{"CallbackRecordedClaimedDelivered", testCallbackOutbox},
	{"EndedCallbacksArePruned", testPruneCallbacks},
}

// testCallbackOutbox: a chosen outcome is recorded with its callback, due
// at once, and a second choice leaves the first; a claimed callback is
// nobody else's until its lease lapses; an attempt's outcome is recorded
// (retried, refused, delivered), and a failure reported under a lapsed
// claim that another process has taken since is not.
func testCallbackOutbox(t *testing.T, s store) {
	ctx := context.Background()
	now := later
	if due, err := s.CallbacksDue(ctx, now); err != nil || due {
		t.Fatalf("CallbacksDue of an empty outbox = %v, %v", due, err)
	}
	_, err := s.OutboundCallback(ctx, "p-none")
	wantErr(t, "OutboundCallback of a payment without one", err, booking.ErrCallbackNotFound)

	queue := func(paymentID, eventID string, typ booking.EventType, at time.Time) booking.OutboundCallback {
		t.Helper()
		c, err := booking.QueueCallbackStep(ctx, s.Store, fixed(at), booking.OutboundCallback{
			PaymentID: paymentID, EventID: eventID, Type: typ, Body: []byte(`{"id":"` + eventID + `"}`),
		})
		if err != nil {
			t.Fatalf("QueueCallbackStep(%s): %v", paymentID, err)
		}
		return c
	}
	a := queue("p-a", "evt_a", booking.EventPaymentSucceeded, now)
	want := booking.OutboundCallback{PaymentID: "p-a", EventID: "evt_a", Type: booking.EventPaymentSucceeded,
		Body: []byte(`{"id":"evt_a"}`), CreatedAt: now, NextAt: now}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("the recorded callback (-want +got):\n%s", diff)
	}
	if second := queue("p-a", "evt_a2", booking.EventPaymentFailed, now.Add(time.Second)); second.EventID != "evt_a" {
		t.Errorf("a second choice returned %+v, want the first", second)
	}
	if got, err := s.OutboundCallback(ctx, "p-a"); err != nil || !cmp.Equal(got, want) {
		t.Errorf("OutboundCallback after a second choice: %v (-want +got):\n%s", err, cmp.Diff(want, got))
	}
	queue("p-b", "evt_b", booking.EventPaymentFailed, now.Add(time.Minute))
	if due, err := s.CallbacksDue(ctx, now); err != nil || !due {
		t.Fatalf("CallbacksDue = %v, %v; want one due", due, err)
	}

	const lease = 15 * time.Second
	claim := func(at time.Time) []string {
		t.Helper()
		list, err := booking.ClaimCallbacksStep(ctx, s.Store, fixed(at), lease, 10)
		if err != nil {
			t.Fatalf("ClaimCallbacksStep at %v: %v", at, err)
		}
		var ids []string
		for _, c := range list {
			ids = append(ids, fmt.Sprintf("%s#%d", c.PaymentID, c.Attempts))
			if !c.ClaimedUntil.Equal(at.Add(lease)) {
				t.Errorf("%s claimed until %v, want %v", c.PaymentID, c.ClaimedUntil, at.Add(lease))
			}
		}
		return ids
	}
	if got := claim(now); !cmp.Equal(got, []string{"p-a#1"}) {
		t.Errorf("first claim %v, want [p-a#1] (p-b is not due yet)", got)
	}
	if got := claim(now.Add(time.Second)); got != nil {
		t.Errorf("a claim during the lease got %v", got)
	}
	if due, _ := s.CallbacksDue(ctx, now.Add(time.Second)); due {
		t.Error("CallbacksDue counts a claimed callback")
	}
	// The first claim's process died; another claims both after the lease.
	lapse := now.Add(time.Minute)
	if got := claim(lapse); !cmp.Equal(got, []string{"p-a#2", "p-b#1"}) {
		t.Errorf("claim after the lease %v, want [p-a#2 p-b#1]", got)
	}
	attempted := func(paymentID string, claimedUntil time.Time, a booking.CallbackAttempt, at time.Time) booking.OutboundCallback {
		t.Helper()
		c, err := booking.CallbackAttemptedStep(ctx, s.Store, fixed(at), paymentID, claimedUntil, a, time.Hour)
		if err != nil {
			t.Fatalf("CallbackAttemptedStep(%s): %v", paymentID, err)
		}
		if got, err := s.OutboundCallback(ctx, paymentID); err != nil || !cmp.Equal(got, c) {
			t.Errorf("stored %s differs from the step's answer: %v (-answer +stored):\n%s", paymentID, err, cmp.Diff(c, got))
		}
		return c
	}
	// The dead process's failure, reported late, is not recorded.
	if c := attempted("p-a", now.Add(lease), booking.CallbackAttempt{Err: "answered 503", Wait: time.Second}, lapse); c.LastError != "" || !c.ClaimedUntil.Equal(lapse.Add(lease)) {
		t.Errorf("a failure under a lapsed claim was recorded: %+v", c)
	}
	c := attempted("p-a", lapse.Add(lease), booking.CallbackAttempt{Err: "answered 503", Wait: 2 * time.Second}, lapse)
	if !c.NextAt.Equal(lapse.Add(2*time.Second)) || c.LastError != "answered 503" || !c.ClaimedUntil.IsZero() || !c.GaveUpAt.IsZero() {
		t.Errorf("after a failure: %+v", c)
	}
	if got := claim(lapse.Add(2*time.Second - time.Nanosecond)); got != nil {
		t.Errorf("a claim before the retry is due got %v", got)
	}
	if c := attempted("p-b", lapse.Add(lease), booking.CallbackAttempt{Err: "answered 404", Refused: true}, lapse); !c.GaveUpAt.Equal(lapse) || c.LastError != "refused: answered 404" {
		t.Errorf("after a refusal: %+v", c)
	}
	if got := claim(lapse.Add(2 * time.Second)); !cmp.Equal(got, []string{"p-a#3"}) {
		t.Errorf("claim after the retry wait %v, want [p-a#3] (p-b was given up)", got)
	}
	done := lapse.Add(3 * time.Second)
	if c := attempted("p-a", lapse.Add(2*time.Second+lease), booking.CallbackAttempt{}, done); !c.DeliveredAt.Equal(done) || c.LastError != "" || !c.ClaimedUntil.IsZero() {
		t.Errorf("after delivery: %+v", c)
	}
	// Delivered stays delivered, whatever is reported after.
	if c := attempted("p-a", time.Time{}, booking.CallbackAttempt{}, done.Add(time.Hour)); !c.DeliveredAt.Equal(done) {
		t.Errorf("a second delivery moved DeliveredAt to %v", c.DeliveredAt)
	}
	if got := claim(done.Add(24 * time.Hour)); got != nil {
		t.Errorf("a delivered or given-up callback was claimed: %v", got)
	}
	_, err = booking.CallbackAttemptedStep(ctx, s.Store, fixed(done), "p-none", done, booking.CallbackAttempt{}, time.Hour)
	wantErr(t, "CallbackAttemptedStep of a payment without a callback", err, booking.ErrCallbackNotFound)
}

// testRaceCallbacks: two choices for one payment at once leave one
// callback, the one both answers name; deliverers claiming at once share
// the due callbacks, each going to exactly one.
func testRaceCallbacks(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	const choosers = 6
	answers := make([]booking.OutboundCallback, choosers)
	errs := make([]error, choosers)
	concurrently(choosers, func(i int) {
		answers[i], errs[i] = booking.QueueCallbackStep(ctx, s.Store, fixed(later), booking.OutboundCallback{
			PaymentID: "p-one", EventID: fmt.Sprintf("evt_%d", i), Type: booking.EventPaymentSucceeded, Body: []byte("{}"),
		})
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	stored, err := s.OutboundCallback(ctx, "p-one")
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range answers {
		if a.EventID != stored.EventID {
			t.Errorf("chooser %d was answered %s, but %s is stored", i, a.EventID, stored.EventID)
		}
	}

	const callbacks, deliverers = 30, 6
	for i := range callbacks {
		if _, err := booking.QueueCallbackStep(ctx, s.Store, fixed(later), booking.OutboundCallback{
			PaymentID: fmt.Sprintf("p%02d", i), EventID: fmt.Sprintf("evt_p%02d", i), Type: booking.EventPaymentFailed, Body: []byte("{}"),
		}); err != nil {
			t.Fatal(err)
		}
	}
	claimed := make([][]booking.OutboundCallback, deliverers)
	errs = make([]error, deliverers)
	concurrently(deliverers, func(i int) {
		for {
			list, err := booking.ClaimCallbacksStep(ctx, s.Store, fixed(later), time.Minute, 3)
			if err != nil || len(list) == 0 {
				errs[i] = err
				return
			}
			claimed[i] = append(claimed[i], list...)
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, list := range claimed {
		for _, c := range list {
			seen[c.PaymentID]++
		}
	}
	if len(seen) != callbacks+1 {
		t.Errorf("%d callbacks claimed, want %d", len(seen), callbacks+1)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times at once", id, n)
		}
	}
}

// testPruneCallbacks: Prune deletes the sandbox's callbacks delivered or
// given up before its cutoff, and keeps those still to deliver and those
// ended since.
func testPruneCallbacks(t *testing.T, s store) {
	ctx := context.Background()
	queue := func(paymentID string, at time.Time) {
		t.Helper()
		if _, err := booking.QueueCallbackStep(ctx, s.Store, fixed(at), booking.OutboundCallback{
			PaymentID: paymentID, EventID: "evt_" + paymentID, Type: booking.EventPaymentSucceeded, Body: []byte(`{}`),
		}); err != nil {
			t.Fatal(err)
		}
	}
	end := func(paymentID string, at time.Time, a booking.CallbackAttempt) {
		t.Helper()
		queue(paymentID, at)
		claimed, err := booking.ClaimCallbacksStep(ctx, s.Store, fixed(at), 15*time.Second, 10)
		if err != nil || len(claimed) != 1 {
			t.Fatalf("claim %s: %v, %v", paymentID, claimed, err)
		}
		if _, err := booking.CallbackAttemptedStep(ctx, s.Store, fixed(at.Add(time.Second)), paymentID, claimed[0].ClaimedUntil, a, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	end("p-old-delivered", base, booking.CallbackAttempt{})
	end("p-old-refused", base.Add(time.Hour), booking.CallbackAttempt{Err: "answered 400", Refused: true})
	end("p-recent", base.Add(48*time.Hour), booking.CallbackAttempt{})
	queue("p-pending", base.Add(2*time.Hour))
	if got := pruneAll(t, pruneStore(t, s), base.Add(24*time.Hour), 100); got[0] != 2 {
		t.Errorf("Prune deleted %v, want the 2 old ended callbacks", got)
	}
	for id, want := range map[string]bool{"p-old-delivered": false, "p-old-refused": false, "p-pending": true, "p-recent": true} {
		_, err := s.OutboundCallback(ctx, id)
		if got := err == nil; got != want {
			t.Errorf("callback %s kept %v after Prune (%v), want %v", id, got, err, want)
		}
	}
}
