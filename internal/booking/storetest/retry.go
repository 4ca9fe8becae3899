package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// retryTests run each step through flaky, which fails the transaction of
// its first run after the step did all its work, as a commit that fails
// with a transient error does, and then runs it again at the same
// Tx.Now, as MongoDB's WithTransaction does. The step must leave exactly
// what one clean run leaves: it reads no clock, mints no id and keeps no
// state outside the transaction.
var retryTests = []test{
	{"Hold", testRetryHold},
	{"HoldReplacingPrevious", testRetryHoldReplacing},
	{"HoldRefused", testRetryHoldRefused},
	{"Release", testRetryRelease},
	{"Extend", testRetryExtend},
}

// errInjected is the transient failure flaky injects.
var errInjected = errors.New("storetest: injected failure of the commit")

// flaky is a store whose steps fail their first transaction after the
// step ran, and are then run again at the instant of the first run.
type flaky struct {
	booking.Store
	runs int // runs of steps, the failed ones included
}

func (f *flaky) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	now := clock()
	fixed := func() time.Time { return now }
	var first time.Time
	err := f.Store.Atomically(ctx, fixed, func(tx booking.Tx) error {
		f.runs++
		first = tx.Now()
		if err := step(tx); err != nil {
			return err
		}
		return errInjected
	})
	if !errors.Is(err, errInjected) {
		return err // the step itself refused: nothing to run again
	}
	return f.Store.Atomically(ctx, fixed, func(tx booking.Tx) error {
		f.runs++
		if !tx.Now().Equal(first) {
			return errors.New("storetest: the step ran again at another instant")
		}
		return step(tx)
	})
}

// twins creates two shows of the same layout: the step runs flaky on one
// and cleanly on the other, and both must end the same.
func twins(t *testing.T, s store) (flakyShow, cleanShow booking.Show, f store) {
	t.Helper()
	a, _ := newShow(t, s, 2, 6, later)
	b, _ := newShow(t, s, 2, 6, later)
	return a, b, store{&flaky{Store: s.Store}}
}

// sameSeats fails unless the two shows' seats are alike, seat by seat,
// with the hold ids of a mapped to those of b.
func sameSeats(t *testing.T, s store, a, b booking.Show, holds map[string]string) {
	t.Helper()
	seats := func(show booking.Show, rename map[string]string) []seatView {
		var out []seatView
		for _, st := range getSeats(t, s, show.ID) {
			v := view(st)
			if id, ok := rename[v.HoldID]; ok {
				v.HoldID = id
			}
			out = append(out, v)
		}
		return out
	}
	if diff := cmp.Diff(seats(b, nil), seats(a, holds)); diff != "" {
		t.Errorf("seats after the flaky run (-clean +flaky):\n%s", diff)
	}
}

// sameHold fails unless two holds are alike but for their ids and shows.
func sameHold(t *testing.T, s store, flakyID, cleanID string) {
	t.Helper()
	a, b := getHold(t, s, flakyID), getHold(t, s, cleanID)
	a.ID, a.ShowID, b.ID, b.ShowID = "", "", "", ""
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("hold after the flaky run (-clean +flaky):\n%s", diff)
	}
}

func wantRuns(t *testing.T, f store, want int) {
	t.Helper()
	if got := f.Store.(*flaky).runs; got != want {
		t.Errorf("the steps ran %d times, want %d (each once failed, once again)", got, want)
	}
}

func testRetryHold(t *testing.T, s store) {
	a, b, f := twins(t, s)
	m := at(time.Minute)
	ha, hb := newHold(a.ID, "o1", m, "A2", "A3"), newHold(b.ID, "o1", m, "A2", "A3")
	if err := f.HoldSeats(context.Background(), ha, m); err != nil {
		t.Fatalf("flaky HoldSeats: %v", err)
	}
	wantRuns(t, f, 2)
	if err := s.HoldSeats(context.Background(), hb, m); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	sameSeats(t, s, a, b, map[string]string{ha.ID: hb.ID})
	sameHold(t, s, ha.ID, hb.ID)
}

func testRetryHoldReplacing(t *testing.T, s store) {
	a, b, f := twins(t, s)
	pa, pb := hold(t, s, a.ID, "o1", at(0), "A1", "A2"), hold(t, s, b.ID, "o1", at(0), "A1", "A2")
	m := at(2 * time.Minute)
	ha, hb := newHold(a.ID, "o1", m, "A2", "A3"), newHold(b.ID, "o1", m, "A2", "A3")
	if err := f.HoldSeats(context.Background(), ha, m); err != nil {
		t.Fatalf("flaky HoldSeats: %v", err)
	}
	if err := s.HoldSeats(context.Background(), hb, m); err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	sameSeats(t, s, a, b, map[string]string{ha.ID: hb.ID, pa.ID: pb.ID})
	sameHold(t, s, ha.ID, hb.ID)
	sameHold(t, s, pa.ID, pb.ID)
	if got := getHold(t, s, pa.ID).State; got != booking.HoldReplaced {
		t.Errorf("the previous hold after the flaky run: %s, want replaced", got)
	}
}

// testRetryHoldRefused: a step that refuses refuses on its first run, and
// changes nothing.
func testRetryHoldRefused(t *testing.T, s store) {
	a, _, f := twins(t, s)
	taken := hold(t, s, a.ID, "o2", at(0), "B1")
	m := at(time.Minute)
	err := f.HoldSeats(context.Background(), newHold(a.ID, "o1", m, "B1", "B2"), m)
	var ue *booking.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("flaky HoldSeats of a taken seat = %v, want an UnavailableError", err)
	}
	wantRuns(t, f, 1)
	checkSeats(t, s, a.ID, map[string]seatView{"B1": lockedBy(taken), "B2": free})
}

func testRetryRelease(t *testing.T, s store) {
	a, b, f := twins(t, s)
	ha, hb := hold(t, s, a.ID, "o1", at(0), "A1", "A2"), hold(t, s, b.ID, "o1", at(0), "A1", "A2")
	if _, err := f.ReleaseHold(context.Background(), ha.ID, "o1"); err != nil {
		t.Fatalf("flaky ReleaseHold: %v", err)
	}
	if _, err := s.ReleaseHold(context.Background(), hb.ID, "o1"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	sameSeats(t, s, a, b, map[string]string{ha.ID: hb.ID})
	sameHold(t, s, ha.ID, hb.ID)
}

func testRetryExtend(t *testing.T, s store) {
	a, b, f := twins(t, s)
	ha, hb := hold(t, s, a.ID, "o1", at(0), "B1"), hold(t, s, b.ID, "o1", at(0), "B1")
	m := at(14 * time.Minute)
	got, err := f.ExtendHold(context.Background(), ha.ID, "o1", m)
	if err != nil {
		t.Fatalf("flaky ExtendHold: %v", err)
	}
	if got.Extensions != 1 || !got.CreatedAt.Equal(m.Now) {
		t.Errorf("flaky ExtendHold returned extensions %d at %v, want 1 at %v", got.Extensions, got.CreatedAt, m.Now)
	}
	if _, err := s.ExtendHold(context.Background(), hb.ID, "o1", m); err != nil {
		t.Fatalf("ExtendHold: %v", err)
	}
	sameSeats(t, s, a, b, map[string]string{ha.ID: hb.ID})
	sameHold(t, s, ha.ID, hb.ID)
}
