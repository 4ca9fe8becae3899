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

var mailTests = []test{
	{"QueuedWithTheChange", testMailQueuedWithTheChange},
	{"EmailCorrectedByASecondPay", testMailEmailCorrected},
	{"ClaimSendRetry", testMailClaimSendRetry},
}

func getMail(t *testing.T, s store, id string) booking.Mail {
	t.Helper()
	m, err := s.Mail(context.Background(), id)
	if err != nil {
		t.Fatalf("Mail(%s): %v", id, err)
	}
	return m
}

// testMailQueuedWithTheChange: the step that confirms a booking, cancels
// its show or marks it refunded queues the mail that tells of it, once;
// a booking without an address queues none.
func testMailQueuedWithTheChange(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	_, b := book(t, s, show.ID, "o1", at(0), "A1", "A2")
	if b.Email != moviegoerEmail || b.Key == "" {
		t.Fatalf("booking email %q, key %q; want the address and a key given at Pay", b.Email, b.Key)
	}
	m := getMail(t, s, b.ID+".confirmed")
	want := booking.Mail{ID: b.ID + ".confirmed", Kind: booking.MailConfirmed, BookingID: b.ID, To: moviegoerEmail, CreatedAt: b.UpdatedAt, NextAt: b.UpdatedAt}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("the confirmation's mail (-want +got):\n%s", diff)
	}

	// Without an address (bookings from before addresses): no mail.
	h := hold(t, s, show.ID, "o2", at(time.Second), "A3")
	start := newPaymentStart()
	start.Email = ""
	p, _, err := s.StartPayment(ctx, h.ID, h.Owner, start, at(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	settle(t, s, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), at(time.Second))
	_, err = s.Mail(ctx, p.BookingID+".confirmed")
	wantErr(t, "the mail of a booking without an address", err, booking.ErrMailNotFound)

	// Cancelled, then refunded.
	if _, _, err := s.CancelShow(ctx, show.ID, at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if m := getMail(t, s, b.ID+".cancelled"); m.Kind != booking.MailCancelled || m.To != moviegoerEmail {
		t.Errorf("cancellation mail %+v", m)
	}
	if _, err := s.MarkRefunded(ctx, b.ID, "re_1", "ops@example.com", at(2*time.Hour).Now); err != nil {
		t.Fatal(err)
	}
	if m := getMail(t, s, b.ID+".refunded"); m.Kind != booking.MailRefunded {
		t.Errorf("refund mail %+v", m)
	}
	// A late payment whose seats are gone: refund_due.
	show2, _ := newShow(t, s, 1, 2, later)
	due := refundDue(t, s, show2.ID, "A1", "A2", time.Minute)
	if m := getMail(t, s, due.ID+".refund_due"); m.Kind != booking.MailRefundDue {
		t.Errorf("refund-due mail %+v", m)
	}
	// Queued twice (a repeated step): still one, unchanged.
	if err := s.QueueMail(ctx, booking.Mail{ID: b.ID + ".confirmed", Kind: booking.MailConfirmed, BookingID: b.ID, To: "other@example.com", CreatedAt: later, NextAt: later}); err != nil {
		t.Fatalf("QueueMail of an id that is there: %v", err)
	}
	if diff := cmp.Diff(want, getMail(t, s, b.ID+".confirmed")); diff != "" {
		t.Errorf("a second QueueMail changed the mail (-want +got):\n%s", diff)
	}
}

// testMailEmailCorrected: Pay again on the same hold returns the same
// payment with the address it was given now.
func testMailEmailCorrected(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	first := newPaymentStart()
	first.Email = "typo@exmaple.com"
	p1, b1, err := s.StartPayment(ctx, h.ID, h.Owner, first, at(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	p2, b2, err := s.StartPayment(ctx, h.ID, h.Owner, newPaymentStart(), at(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if p2.ID != p1.ID || b2.ID != b1.ID || b2.Key != b1.Key {
		t.Fatalf("a second Pay made payment %s / booking %s (key changed: %v); want the first", p2.ID, b2.ID, b2.Key != b1.Key)
	}
	if b2.Email != moviegoerEmail || getBooking(t, s, b1.ID).Email != moviegoerEmail {
		t.Errorf("the address after a second Pay: %q (stored %q), want %q", b2.Email, getBooking(t, s, b1.ID).Email, moviegoerEmail)
	}
	settle(t, s, event(p1, booking.EventPaymentSucceeded), booking.NewTicketCode(), at(3*time.Second))
	if m := getMail(t, s, b1.ID+".confirmed"); m.To != moviegoerEmail {
		t.Errorf("the ticket goes to %q, want the corrected %q", m.To, moviegoerEmail)
	}
}

// testMailClaimSendRetry: a claimed mail is nobody else's until its lease
// lapses (then it is claimed again: sent at least once); a sent one is
// done; a failed one is due again after its wait.
func testMailClaimSendRetry(t *testing.T, s store) {
	ctx := context.Background()
	now := later
	if due, err := s.MailDue(ctx, now); err != nil || due {
		t.Fatalf("MailDue of an empty outbox = %v, %v", due, err)
	}
	a := booking.Mail{ID: "m-a", Kind: booking.MailLink, BookingID: "b1", To: moviegoerEmail, CreatedAt: now, NextAt: now}
	b := a
	b.ID, b.NextAt = "m-b", now.Add(time.Minute)
	for _, m := range []booking.Mail{a, b} {
		if err := s.QueueMail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if due, err := s.MailDue(ctx, now); err != nil || !due {
		t.Fatalf("MailDue = %v, %v; want a mail due", due, err)
	}
	claim := func(at time.Time) []string {
		t.Helper()
		list, err := s.ClaimMail(ctx, at, booking.DefaultMailLease, 10)
		if err != nil {
			t.Fatalf("ClaimMail at %v: %v", at, err)
		}
		var ids []string
		for _, m := range list {
			ids = append(ids, fmt.Sprintf("%s#%d", m.ID, m.Attempts))
			if !m.ClaimedUntil.Equal(at.Add(booking.DefaultMailLease)) {
				t.Errorf("%s claimed until %v, want %v", m.ID, m.ClaimedUntil, at.Add(booking.DefaultMailLease))
			}
		}
		return ids
	}
	if got := claim(now); !cmp.Equal(got, []string{"m-a#1"}) {
		t.Errorf("first claim %v, want [m-a#1] (m-b is not due yet)", got)
	}
	if got := claim(now.Add(time.Second)); got != nil {
		t.Errorf("a claim during the lease got %v, want nothing", got)
	}
	if due, _ := s.MailDue(ctx, now.Add(time.Second)); due {
		t.Error("MailDue counts a claimed mail")
	}
	// The process died: the lease lapses and the mail is claimed again.
	lapse := now.Add(booking.DefaultMailLease)
	if got := claim(lapse); !cmp.Equal(got, []string{"m-a#2", "m-b#1"}) {
		t.Errorf("claim after the lease %v, want [m-a#2 m-b#1]", got)
	}
	if err := s.MailSent(ctx, "m-a", lapse); err != nil {
		t.Fatal(err)
	}
	failed := getMail(t, s, "m-b")
	failed = failed.Failed(lapse, "421 try again later")
	if err := s.MailFailed(ctx, failed); err != nil {
		t.Fatal(err)
	}
	if got := getMail(t, s, "m-b"); !got.NextAt.Equal(lapse.Add(booking.MailRetryFirst)) || got.LastError != "421 try again later" || !got.ClaimedUntil.IsZero() {
		t.Errorf("after a failure: next %v, error %q, claimed until %v", got.NextAt, got.LastError, got.ClaimedUntil)
	}
	if got := claim(lapse.Add(booking.MailRetryFirst - time.Millisecond)); got != nil {
		t.Errorf("a claim before the retry is due got %v", got)
	}
	if got := claim(lapse.Add(10 * booking.DefaultMailLease)); !cmp.Equal(got, []string{"m-b#2"}) {
		t.Errorf("claim after the retry wait %v, want [m-b#2] (m-a was sent)", got)
	}
	if got := getMail(t, s, "m-a"); !got.SentAt.Equal(lapse) {
		t.Errorf("m-a sent at %v, want %v", got.SentAt, lapse)
	}
	_, err := s.Mail(ctx, "nope")
	wantErr(t, "Mail of an unknown id", err, booking.ErrMailNotFound)
}

// testRaceClaimMail: senders claiming at once share the due mails, each
// mail going to exactly one of them.
func testRaceClaimMail(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	const mails, senders = 40, 8
	for i := range mails {
		if err := s.QueueMail(ctx, booking.Mail{ID: fmt.Sprintf("m%02d", i), Kind: booking.MailLink, BookingID: "b", To: moviegoerEmail, CreatedAt: later, NextAt: later}); err != nil {
			t.Fatal(err)
		}
	}
	claimed := make([][]booking.Mail, senders)
	errs := make([]error, senders)
	concurrently(senders, func(i int) {
		for {
			list, err := s.ClaimMail(ctx, later, booking.DefaultMailLease, 3)
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
		for _, m := range list {
			seen[m.ID]++
		}
	}
	if len(seen) != mails {
		t.Errorf("%d mails claimed, want %d", len(seen), mails)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times at once", id, n)
		}
	}
}
