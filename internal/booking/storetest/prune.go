package storetest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var pruneTests = []test{
	{"OldGoesTheRestStays", testPruneOldGoesTheRestStays},
	{"HoldsDrainInBatches", testPruneHoldsDrainInBatches},
}

// pruneStore is s as a booking.PruneStore; every adapter is one.
func pruneStore(t *testing.T, s store) booking.PruneStore {
	t.Helper()
	ps, ok := s.Store.(booking.PruneStore)
	if !ok {
		t.Fatalf("%T does not implement booking.PruneStore", s)
	}
	return ps
}

// pruneAll calls Prune with limit until it deletes fewer, and returns what
// each call deleted.
func pruneAll(t *testing.T, ps booking.PruneStore, before time.Time, limit int) []int {
	t.Helper()
	var got []int
	for range 1000 {
		n, err := ps.Prune(context.Background(), before, limit)
		if err != nil {
			t.Fatalf("Prune(%v, %d): %v", before, limit, err)
		}
		got = append(got, n)
		if n < limit {
			return got
		}
	}
	t.Fatalf("Prune(%v, %d) deleted %d each time 1000 times", before, limit, limit)
	return nil
}

// batches is what pruneAll returns when total rows go limit at a time.
func batches(total, limit int) []int {
	var want []int
	for ; total >= limit; total -= limit {
		want = append(want, limit)
	}
	return append(want, total)
}

func holdGone(t *testing.T, s store, what string, h booking.Hold, gone bool) {
	t.Helper()
	_, err := s.Hold(context.Background(), h.ID)
	switch {
	case gone && !errors.Is(err, booking.ErrHoldNotFound):
		t.Errorf("%s: Hold after Prune: %v, want it pruned (ErrHoldNotFound)", what, err)
	case !gone && err != nil:
		t.Errorf("%s: Hold after Prune: %v, want it kept", what, err)
	}
}

// testPruneOldGoesTheRestStays is SPEC §12's retention: history from
// before the cutoff goes (ended holds nothing refers to, callback records,
// event ids, sent or given-up mail); what came after stays, and so does
// whatever a payment, a booking or a locked seat refers to, however old.
func testPruneOldGoesTheRestStays(t *testing.T, s store) {
	ctx := context.Background()
	ps := pruneStore(t, s)
	show, _ := newShow(t, s, 2, 6, later)
	cutoff := base.Add(10 * 24 * time.Hour)
	old := func(d time.Duration) booking.Moment { return at(d) }
	recent := func(d time.Duration) booking.Moment { // at's rules, a day after the cutoff
		return at(0).Rules.At(cutoff.Add(24*time.Hour + d))
	}

	// Old holds that ended, that nothing refers to: they go.
	released := hold(t, s, show.ID, "o1", old(0), "A1")
	if _, err := s.ReleaseHold(ctx, released.ID, "o1"); err != nil {
		t.Fatal(err)
	}
	replaced := hold(t, s, show.ID, "o2", old(time.Minute), "A2")
	replacing := hold(t, s, show.ID, "o2", old(2*time.Minute), "A3")
	lapsed := hold(t, s, show.ID, "o3", old(3*time.Minute), "A4")
	taker := hold(t, s, show.ID, "o4", old(3*time.Minute+ttl+time.Second), "A4") // lapsed loses A4 to it

	// Old holds something refers to: they stay.
	failedHold := hold(t, s, show.ID, "o5", old(5*time.Minute), "A5")
	failedPay, _ := pay(t, s, failedHold, old(5*time.Minute))
	settle(t, s, event(failedPay, booking.EventPaymentFailed), "", old(6*time.Minute))
	bookedHold := hold(t, s, show.ID, "o6", old(7*time.Minute), "B1")
	bookedPay, _ := pay(t, s, bookedHold, old(7*time.Minute))
	bookedEvent := event(bookedPay, booking.EventPaymentSucceeded)
	if st := settle(t, s, bookedEvent, booking.NewTicketCode(), old(8*time.Minute)); st.Effect != booking.EffectBooked {
		t.Fatalf("settling a fresh hold: %s (%s)", st.Effect, st.Reason)
	}
	booked := getBooking(t, s, bookedPay.BookingID)
	pendingHold := hold(t, s, show.ID, "o7", old(8*time.Minute), "B2")
	pending, _ := pay(t, s, pendingHold, old(8*time.Minute))
	// The old events: failedPay's and bookedPay's.

	// Recent history: it stays.
	recentHold := hold(t, s, show.ID, "o8", recent(0), "B3")
	if _, err := s.ReleaseHold(ctx, recentHold.ID, "o8"); err != nil {
		t.Fatal(err)
	}
	_, recentBooking := book(t, s, show.ID, "o9", recent(time.Minute), "B4")
	recentEvent := event(getPayment(t, s, recentBooking.PaymentID), booking.EventPaymentSucceeded)
	recentEvent.ID = "evt_recent_" + booking.NewID()
	if st := settle(t, s, recentEvent, booking.NewTicketCode(), recent(2*time.Minute)); st.Duplicate {
		t.Fatal("a new event id settled as a duplicate")
	}

	// Callback records: 3 old, 2 recent; one old one names a payment.
	for i, m := range []booking.Moment{old(time.Hour), old(2 * time.Hour), old(3 * time.Hour), recent(time.Hour), recent(2 * time.Hour)} {
		r := booking.CallbackRecord{ID: booking.NewID(), ReceivedAt: m.Now, Signature: booking.SignatureValid,
			EventID: "evt_" + booking.NewID(), EventType: string(booking.EventPaymentSucceeded), Status: 200, Outcome: "booked"}
		if i == 0 {
			r.PaymentID = booked.PaymentID
		}
		if err := s.RecordCallback(ctx, r); err != nil {
			t.Fatal(err)
		}
	}

	// Mail: sent long ago and given up long ago go; one still to send
	// and one sent recently stay.
	mail := func(id string, created time.Time) booking.Mail {
		m := booking.Mail{ID: id, Kind: booking.MailLink, BookingID: booked.ID, To: moviegoerEmail, CreatedAt: created, NextAt: created}
		if err := s.QueueMail(ctx, m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	mail("sent-old", old(time.Hour).Now)
	if err := s.MailSent(ctx, "sent-old", old(2*time.Hour).Now); err != nil {
		t.Fatal(err)
	}
	gaveUp := mail("gave-up-old", old(time.Hour).Now)
	gaveUp.GaveUpAt, gaveUp.LastError = old(24*time.Hour).Now, "mailbox unavailable"
	if err := s.MailFailed(ctx, gaveUp); err != nil {
		t.Fatal(err)
	}
	mail("unsent-old", old(time.Hour).Now)
	mail("sent-recent", old(time.Hour).Now)
	if err := s.MailSent(ctx, "sent-recent", recent(0).Now); err != nil {
		t.Fatal(err)
	}

	// 3 holds, 3 callback records, 2 events, 2 mails: 10 rows, 4 at a
	// time.
	if got, want := pruneAll(t, ps, cutoff, 4), batches(10, 4); !slices.Equal(got, want) {
		t.Errorf("Prune deleted %v in successive calls, want %v", got, want)
	}
	if n, err := ps.Prune(ctx, cutoff, 4); err != nil || n != 0 {
		t.Errorf("Prune once drained: %d, %v; want 0", n, err)
	}

	for _, c := range []struct {
		what string
		h    booking.Hold
		gone bool
	}{
		{"an old released hold", released, true},
		{"an old replaced hold", replaced, true},
		{"an old active hold whose seats someone took", lapsed, true},
		{"a lapsed hold that still locks its seat", replacing, false},
		{"the hold that took the lapsed one's seat", taker, false},
		{"the hold of a failed payment", failedHold, false},
		{"the hold of a booking", bookedHold, false},
		{"the hold of a pending payment", pendingHold, false},
		{"a recent released hold", recentHold, false},
	} {
		holdGone(t, s, c.what, c.h, c.gone)
	}
	getPayment(t, s, failedPay.ID)
	getPayment(t, s, pending.ID)
	if b := getBooking(t, s, booked.ID); b.State != booking.BookingConfirmed {
		t.Errorf("the old booking is %s after Prune, want confirmed", b.State)
	}
	if seats := getSeats(t, s, show.ID); seats[6].Status != booking.SeatBooked || seats[6].BookingID != booked.ID {
		t.Errorf("seat B1 after Prune: %+v, want booked by %s", seats[6], booked.ID)
	}

	all, err := s.Callbacks(ctx, booking.CallbackQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ReceivedAt.Before(cutoff) || all[1].ReceivedAt.Before(cutoff) {
		t.Errorf("callback records after Prune: %+v, want the 2 recent ones", all)
	}

	for id, gone := range map[string]bool{"sent-old": true, "gave-up-old": true, "unsent-old": false, "sent-recent": false} {
		_, err := s.Mail(ctx, id)
		switch {
		case gone && !errors.Is(err, booking.ErrMailNotFound):
			t.Errorf("mail %s after Prune: %v, want it pruned", id, err)
		case !gone && err != nil:
			t.Errorf("mail %s after Prune: %v, want it kept", id, err)
		}
	}

	// A recent event id is still known; an old one is forgotten.
	if st := settle(t, s, recentEvent, booking.NewTicketCode(), recent(time.Hour)); !st.Duplicate {
		t.Errorf("a recent event id after Prune: settled again (%s), want a duplicate", st.Effect)
	}
	if st := settle(t, s, bookedEvent, booking.NewTicketCode(), recent(time.Hour)); st.Duplicate {
		t.Error("an event id from before the cutoff is still recorded after Prune")
	}
}

// testPruneHoldsDrainInBatches: old released holds, among as many booked
// ones that stay for good, go limit at a time, each call going on where
// the last one stopped; their events go with them.
func testPruneHoldsDrainInBatches(t *testing.T, s store) {
	ps := pruneStore(t, s)
	show, _ := newShow(t, s, 2, 12, later)
	var released, kept []booking.Hold
	for i := range 12 {
		seat := "A" + strconv.Itoa(i+1)
		h := hold(t, s, show.ID, "r"+seat, at(time.Duration(2*i)*time.Minute), seat)
		if _, err := s.ReleaseHold(context.Background(), h.ID, h.Owner); err != nil {
			t.Fatal(err)
		}
		released = append(released, h)
		b, _ := book(t, s, show.ID, "b"+seat, at(time.Duration(2*i+1)*time.Minute), "B"+strconv.Itoa(i+1))
		kept = append(kept, b)
	}
	cutoff := base.Add(24 * time.Hour)
	// 12 released holds and the 12 events of the bookings.
	if got, want := pruneAll(t, ps, cutoff, 5), batches(24, 5); !slices.Equal(got, want) {
		t.Errorf("Prune deleted %v in successive calls, want %v", got, want)
	}
	for _, h := range released {
		holdGone(t, s, "a released hold", h, true)
	}
	for _, h := range kept {
		holdGone(t, s, "a booked hold", h, false)
	}
}
