package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var extendTests = []test{
	{"MoreTimeTwice", testExtendTwice},
	{"EndedOrClosed", testExtendRefused},
}

// testExtendTwice: more time moves every lock of the hold to now, so the
// seat rule keeps them HOLD_TTL longer; twice, then 409.
func testExtendTwice(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	_, err := s.ExtendHold(ctx, h.ID, "o2", at(time.Minute))
	wantErr(t, "more time for another session's hold", err, booking.ErrNotOwner)

	for i, d := range []time.Duration{10 * time.Minute, 20 * time.Minute} {
		got, err := s.ExtendHold(ctx, h.ID, "o1", at(d))
		if err != nil {
			t.Fatalf("extension %d: %v", i+1, err)
		}
		if got.Extensions != i+1 || !got.CreatedAt.Equal(at(d).Now) {
			t.Errorf("extension %d: %d extensions, created %v; want %d at %v", i+1, got.Extensions, got.CreatedAt, i+1, at(d).Now)
		}
		stored := getHold(t, s, h.ID)
		if stored.Extensions != i+1 || !stored.CreatedAt.Equal(at(d).Now) {
			t.Errorf("stored after extension %d: %+v", i+1, stored)
		}
		for _, st := range getSeats(t, s, show.ID) {
			if (st.ID == "A1" || st.ID == "A2") && !st.LockedAt.Equal(at(d).Now) {
				t.Errorf("%s locked at %v after extension %d, want %v", st.ID, st.LockedAt, i+1, at(d).Now)
			}
		}
	}
	// 20m + ttl: the seats are still held where the first lock had lapsed.
	if got := availableIDs(t, s, show.ID, at(20*time.Minute+ttl-time.Nanosecond)); len(got) != 4 {
		t.Errorf("just before the extended expiry %d seats are available, want 4", len(got))
	}
	_, err = s.ExtendHold(ctx, h.ID, "o1", at(25*time.Minute))
	wantErr(t, "a third extension", err, booking.ErrExtendLimit)
	if got := getHold(t, s, h.ID); got.Extensions != 2 || !got.CreatedAt.Equal(at(20*time.Minute).Now) {
		t.Errorf("a refused extension changed the hold: %+v", got)
	}
	// The extended hold can be paid for until its new expiry.
	pay(t, s, h, at(20*time.Minute+ttl-time.Second))
}

// testExtendRefused: an expired, released or replaced hold, or one whose
// sales closed, gets no more time.
func testExtendRefused(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	_, err := s.ExtendHold(ctx, h.ID, "o1", at(ttl))
	wantErr(t, "more time after the expiry", err, booking.ErrHoldExpired)
	h2 := hold(t, s, show.ID, "o2", at(0), "A3")
	if _, err := s.ReleaseHold(ctx, h2.ID, "o2"); err != nil {
		t.Fatal(err)
	}
	_, err = s.ExtendHold(ctx, h2.ID, "o2", at(time.Minute))
	wantErr(t, "more time for a released hold", err, booking.ErrHoldReleased)
	_, err = s.ExtendHold(ctx, booking.NewID(), "o2", at(time.Minute))
	wantErr(t, "more time for an unknown hold", err, booking.ErrHoldNotFound)

	soon, _ := newShow(t, s, 1, 4, base.Add(10*time.Minute))
	h3 := hold(t, s, soon.ID, "o3", at(0), "A1")
	_, err = s.ExtendHold(ctx, h3.ID, "o3", at(10*time.Minute))
	wantErr(t, "more time once sales closed", err, booking.ErrSalesClosed)
}

// testRaceExtend: a session presses More time in several tabs at once;
// exactly MaxExtensions of the requests get it.
func testRaceExtend(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	const tabs = 6
	errs := make([]error, tabs)
	concurrently(tabs, func(i int) {
		_, errs[i] = s.ExtendHold(ctx, h.ID, "o1", at(time.Minute))
	})
	got := 0
	for i, err := range errs {
		switch {
		case err == nil:
			got++
		case errors.Is(err, booking.ErrExtendLimit):
		default:
			t.Fatalf("tab %d: %v", i, err)
		}
	}
	if got != booking.MaxExtensions || getHold(t, s, h.ID).Extensions != booking.MaxExtensions {
		t.Errorf("%d extensions granted (stored %d), want %d", got, getHold(t, s, h.ID).Extensions, booking.MaxExtensions)
	}
}
