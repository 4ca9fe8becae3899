package storetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// testCancelShowInBatches: a show with more seats, and more confirmed
// bookings, than one follow-up step takes is cancelled completely: every
// locked seat freed, every hold released, every confirmed booking
// refund_due with its mail queued. Then a crash right after the mark
// (MarkShowCancelledStep alone): the show is cancelled at once (no hold),
// and cancelling again finishes the job.
func testCancelShowInBatches(t *testing.T, s store) {
	ctx := context.Background()
	const batch = 2
	show, _ := newShow(t, s, 3, 4, later)
	var confirmed []booking.Booking
	for i, seat := range []string{"A1", "B2", "C4"} {
		_, b := book(t, s, show.ID, "booked"+seat, at(time.Duration(i)*time.Second), seat)
		confirmed = append(confirmed, b)
	}
	var holds []booking.Hold
	for _, seats := range [][]string{{"A2", "A3"}, {"B3"}, {"C1", "C2"}} {
		holds = append(holds, hold(t, s, show.ID, "live"+seats[0], at(time.Hour), seats...))
	}

	m := at(time.Hour + time.Minute)
	got, due, err := booking.CancelShowSteps(ctx, s.Store, m.Clock(), show.ID, batch)
	if err != nil {
		t.Fatalf("CancelShowSteps: %v", err)
	}
	if !got.CancelledAt.Equal(m.Now) {
		t.Errorf("cancelled at %v, want %v", got.CancelledAt, m.Now)
	}
	checkCancelled(t, s, show.ID, m, confirmed, due, holds)

	// A crash after the mark: nothing else done yet.
	other, _ := newShow(t, s, 3, 4, later)
	_, ob := book(t, s, other.ID, "booked", at(0), "C3")
	oh := hold(t, s, other.ID, "live", at(time.Hour), "A4", "B1")
	if _, err := booking.MarkShowCancelledStep(ctx, s.Store, m.Clock(), other.ID); err != nil {
		t.Fatalf("MarkShowCancelledStep: %v", err)
	}
	if got := getShow(t, s, other.ID); !got.CancelledAt.Equal(m.Now) {
		t.Errorf("after the mark alone, the show's CancelledAt is %v, want %v", got.CancelledAt, m.Now)
	}
	err = s.HoldSeats(ctx, newHold(other.ID, "late", at(time.Hour+2*time.Minute), "A1"), at(time.Hour+2*time.Minute))
	wantErr(t, "HoldSeats after the mark alone", err, booking.ErrShowCancelled)
	again, due, err := booking.CancelShowSteps(ctx, s.Store, at(2*time.Hour).Clock(), other.ID, batch)
	if err != nil {
		t.Fatalf("CancelShowSteps again: %v", err)
	}
	if !again.CancelledAt.Equal(m.Now) {
		t.Errorf("cancelling again moved CancelledAt to %v, want %v", again.CancelledAt, m.Now)
	}
	checkCancelled(t, s, other.ID, at(2*time.Hour), []booking.Booking{ob}, due, []booking.Hold{oh})

	// The step size the Service uses: the last seat in id order is freed.
	big, seats := newShow(t, s, 2, booking.CancelBatch/2+1, later)
	ids := seatIDs(seats)
	slices.Sort(ids)
	last := hold(t, s, big.ID, "last", at(time.Hour), ids[len(ids)-1])
	if _, _, err := s.CancelShow(ctx, big.ID, m); err != nil {
		t.Fatalf("CancelShow of a show of %d seats: %v", len(seats), err)
	}
	checkCancelled(t, s, big.ID, m, nil, nil, []booking.Hold{last})
}

// checkCancelled checks that the cancellation of show at m left no seat
// locked and no hold of holds active, and made exactly bookings refund_due
// (returned as due), each with its cancellation mail queued.
func checkCancelled(t *testing.T, s store, showID string, m booking.Moment, bookings, due []booking.Booking, holds []booking.Hold) {
	t.Helper()
	ctx := context.Background()
	for _, seat := range getSeats(t, s, showID) {
		if seat.Status == booking.SeatLocked {
			t.Errorf("seat %s still locked by %s after the cancellation", seat.ID, seat.HoldID)
		}
	}
	for _, h := range holds {
		if got := getHold(t, s, h.ID).State; got != booking.HoldReleased {
			t.Errorf("hold of %v: %q, want released", h.SeatIDs, got)
		}
	}
	if len(due) != len(bookings) {
		t.Errorf("%d bookings returned due a refund, want %d", len(due), len(bookings))
	}
	for _, b := range bookings {
		want, _ := b.CancelledShow(m.Now)
		same(t, "stored booking of "+b.SeatIDs[0], want, getBooking(t, s, b.ID))
		mail, ok := booking.MailFor(b, want, m.Now)
		if !ok {
			t.Fatalf("no mail for a booking due a refund")
		}
		if _, err := s.Mail(ctx, mail.ID); err != nil {
			t.Errorf("mail %s of the cancellation: %v", mail.ID, err)
		}
	}
}

// testTwoStoresCreateOneShow: two stores on one database (two processes
// seeding the demo, whose ids are derived) creating one show at once: one
// creates it, the other gets ErrShowExists, and the show has each seat
// once.
func testTwoStoresCreateOneShow(t *testing.T, h Harness) {
	dsn, shared := h.Shared(t)
	first := store{shared}
	closeWithTest(t, first)
	opened, err := h.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	second := store{opened}
	closeWithTest(t, second)

	for round := range 3 {
		show, seats := newShowPlan(20, 50, later)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, st := range []store{first, second} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = st.CreateShow(context.Background(), show, seats)
			}()
		}
		close(start)
		wg.Wait()
		created := 0
		for i, err := range errs {
			switch {
			case err == nil:
				created++
			case !errors.Is(err, booking.ErrShowExists):
				t.Errorf("round %d, store %d: CreateShow: %v, want success or ErrShowExists", round, i, err)
			}
		}
		if created != 1 {
			t.Errorf("round %d: %d stores created the show, want 1", round, created)
		}
		if got := getSeats(t, first, show.ID); len(got) != len(seats) {
			t.Errorf("round %d: the show has %d seats, want %d", round, len(got), len(seats))
		}
	}
}
