package booking_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// gatedStore is a stubStore that asks for one hold step of a show at a
// time (as MongoDB does), whose transactions wait for release, and that
// counts how many are inside at once.
type gatedStore struct {
	*stubStore
	release      chan struct{}
	inside, most atomic.Int32
	mu           sync.Mutex // the stub records calls unguarded
}

func (g *gatedStore) GateHoldsPerShow() bool { return true }

func (g *gatedStore) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	n := g.inside.Add(1)
	defer g.inside.Add(-1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	<-g.release
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stubStore.Atomically(ctx, clock, step)
}

// TestHoldsOfOneShowTakeTurns: with a store that asks for it, a process
// lets one hold step of a show into the store at a time, and holds of
// other shows pass meanwhile.
func TestHoldsOfOneShowTakeTurns(t *testing.T) {
	st := &gatedStore{stubStore: &stubStore{}, release: make(chan struct{})}
	svc := booking.NewService(st, booking.NewManualClock(t0), booking.Policy{HoldTTL: 15 * time.Minute, MaxSeats: 4})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, show := range []string{"s1", "s1", "s1", "s2"} {
		wg.Go(func() {
			_, errs[i] = svc.HoldSeatsFrom(context.Background(), show, "o"+show+string(rune('a'+i)), "", []string{"A1"})
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for st.inside.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	// Nothing more comes in while the two are inside.
	time.Sleep(50 * time.Millisecond)
	if n := st.inside.Load(); n != 2 {
		t.Errorf("%d steps in the store at once, want 2: one of s1, one of s2", n)
	}
	close(st.release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("hold %d: %v", i, err)
		}
	}
	if m := st.most.Load(); m != 2 {
		t.Errorf("at most %d steps were in the store at once, want 2", m)
	}
}
