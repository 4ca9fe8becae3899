package sqlite

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestQueuePositionNumbersOnDemand: the service's QueuePosition reads an
// entry's position, and while it has none runs numbering steps until it
// has or booking.QueueNumberSteps steps ran; the visitor last of 5,500
// gets none on the first ask (5 batches of 1,000 numbered) and its place
// on the second. Nothing is numbered before the settling margin.
func TestQueuePositionNumbersOnDemand(t *testing.T) {
	ctx := context.Background()
	const n = 5_500
	s, o, ids := seedQueue(t, n)
	clock := booking.NewManualClock(queueT0.Add(booking.SettlingMargin - time.Nanosecond))
	svc := booking.NewService(s, clock, booking.Policy{})
	numbered := func() int {
		t.Helper()
		var k int
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM queue_entries WHERE onsale_id = ? AND position IS NOT NULL`, o.ID).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	last := booking.QueueEntry{OnSaleID: o.ID, JoinID: ids[n-1]}
	ask := func(e booking.QueueEntry) (int, bool) {
		t.Helper()
		p, ok, err := svc.QueuePosition(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		return p, ok
	}

	if p, ok := ask(last); ok || numbered() != 0 {
		t.Fatalf("before the settling margin: position %d, %v, %d numbered; want none", p, ok, numbered())
	}
	clock.Set(queueT0.Add(booking.SettlingMargin))
	if p, ok := ask(last); ok {
		t.Errorf("the last of %d has position %d after %d steps of %d", n, p, booking.QueueNumberSteps, booking.QueueNumberBatch)
	}
	if k, want := numbered(), booking.QueueNumberSteps*booking.QueueNumberBatch; k != want {
		t.Errorf("%d numbered after the first ask, want %d", k, want)
	}
	if p, ok := ask(last); !ok || p != n-1 {
		t.Errorf("the last to join is at %d, %v on the second ask; want %d", p, ok, n-1)
	}
	if k := numbered(); k != n {
		t.Errorf("%d numbered, want %d", k, n)
	}
	// One numbered already: read, no step.
	if p, ok := ask(booking.QueueEntry{OnSaleID: o.ID, JoinID: ids[n/2]}); !ok || p != n/2 {
		t.Errorf("the entry joined at %d after T0 is at %d, %v; want %d", n/2-n/3, p, ok, n/2)
	}

	// The first in a fresh queue needs one step.
	s2, o2, ids2 := seedQueue(t, 3_000)
	svc2 := booking.NewService(s2, clock, booking.Policy{})
	first := booking.QueueEntry{OnSaleID: o2.ID, JoinID: ids2[3_000/3]} // the first after T0
	// Those before T0 come first, in rank order: 1,000 of them.
	if p, ok, err := svc2.QueuePosition(ctx, first); err != nil || !ok || p != 1_000 {
		t.Errorf("the first to join after T0 is at %d, %v, %v; want 1000", p, ok, err)
	}
	var k int
	if err := s2.read.QueryRowContext(ctx, `SELECT numbered FROM onsales WHERE id = ?`, o2.ID).Scan(&k); err != nil || k != 2*booking.QueueNumberBatch {
		t.Errorf("numbered %d (%v) to reach the 1,001st, want %d", k, err, 2*booking.QueueNumberBatch)
	}
}

// TestQueuePositionCrowdRunsOneStep: twenty visitors of one process asking
// at once for places in the first batch run one numbering step between
// them, not one each: the others wait for it and read their places.
func TestQueuePositionCrowdRunsOneStep(t *testing.T) {
	ctx := context.Background()
	const n, early = 30_000, 500
	s, o, ids := seedQueueEarly(t, n, early)
	svc := booking.NewService(s, booking.NewManualClock(queueT0.Add(booking.SettlingMargin)), booking.Policy{})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := early + i*20 // after T0: at position j, in the first batch
			p, ok, err := svc.QueuePosition(ctx, booking.QueueEntry{OnSaleID: o.ID, JoinID: ids[j]})
			if err != nil || !ok || p != j {
				errs <- fmt.Errorf("entry %d: position %d, %v, %v", j, p, ok, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var k int
	if err := s.read.QueryRowContext(ctx, `SELECT numbered FROM onsales WHERE id = ?`, o.ID).Scan(&k); err != nil {
		t.Fatal(err)
	}
	if k != booking.QueueNumberBatch {
		t.Errorf("numbered %d, want %d: the crowd ran steps of its own", k, booking.QueueNumberBatch)
	}
}
