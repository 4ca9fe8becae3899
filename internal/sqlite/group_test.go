package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// scratch makes a table the group tests write to, and returns a step that
// inserts key into it and then returns what after returns.
func scratch(t *testing.T, s *Store) func(key string, after func() error) func(booking.Tx) error {
	t.Helper()
	if _, err := s.write.Exec(`CREATE TABLE scratch (k TEXT PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return func(key string, after func() error) func(booking.Tx) error {
		return func(btx booking.Tx) error {
			if _, err := btx.(*tx).tx.Exec(`INSERT INTO scratch (k) VALUES (?)`, key); err != nil {
				return err
			}
			return after()
		}
	}
}

// scratchKeys is what the scratch table holds, sorted.
func scratchKeys(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.read.Query(`SELECT k FROM scratch ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	keys := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return keys
}

// queued is how many calls of Atomically wait for a batch.
func queued(s *Store) int {
	s.group.mu.Lock()
	defer s.group.mu.Unlock()
	return len(s.group.queue)
}

// TestAtomicallyGroupsSteps: the steps asked for while a transaction runs
// commit together in the next one, fewer transactions than steps. In that
// batch, a step that fails and one whose request ended while it ran leave
// nothing, and their neighbours commit; a call whose request ends while it
// waits for the batch goes without running its step.
func TestAtomicallyGroupsSteps(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	insert := scratch(t, s)
	var mu sync.Mutex
	var batches []int
	s.group.hook = func(n int) {
		mu.Lock()
		defer mu.Unlock()
		batches = append(batches, n)
	}
	ok := func() error { return nil }

	// The first step holds its transaction until the others wait.
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.Atomically(ctx, time.Now, insert("first", func() error { <-release; return nil }))
	}()
	testkit.Eventually(t, 10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(batches) == 1
	}, "the first step's transaction did not begin")

	const good = 6
	errRefused := errors.New("refused")
	endedCtx, endEnded := context.WithCancel(ctx)
	defer endEnded()
	waitingCtx, endWaiting := context.WithCancel(ctx)
	defer endWaiting()
	type call struct {
		name string
		ctx  context.Context
		step func(booking.Tx) error
		want error
	}
	calls := []call{{"refused", ctx, insert("refused", func() error { return errRefused }), errRefused}}
	for i := range good {
		calls = append(calls, call{fmt.Sprintf("good%d", i), ctx, insert(fmt.Sprintf("good%d", i), ok), nil})
	}
	calls = append(calls,
		call{"ended", endedCtx, insert("ended", func() error { endEnded(); return nil }), context.Canceled},
		call{"duplicate", ctx, insert("first", ok), errConstraintStandIn})
	got := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { got[i] = s.Atomically(c.ctx, time.Now, c.step) })
	}
	// One more that gives up while it waits.
	waiting := make(chan error, 1)
	go func() { waiting <- s.Atomically(waitingCtx, time.Now, insert("waiting", ok)) }()
	testkit.Eventually(t, 10*time.Second, func() bool { return queued(s) == len(calls)+1 }, "%d of %d calls queued", queued(s), len(calls)+1)
	endWaiting()
	select {
	case err := <-waiting:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the call that gave up while it waited: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call that gave up while it waited is still waiting")
	}
	if n := queued(s); n != len(calls) {
		t.Errorf("%d calls queued after one gave up, want %d", n, len(calls))
	}

	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first: %v", err)
	}
	wg.Wait()
	for i, c := range calls {
		switch {
		case c.want == errConstraintStandIn:
			if !isConstraint(got[i]) {
				t.Errorf("%s: %v, want a constraint's error", c.name, got[i])
			}
		case !errors.Is(got[i], c.want) || (c.want == nil) != (got[i] == nil):
			t.Errorf("%s: %v, want %v", c.name, got[i], c.want)
		}
	}
	mu.Lock()
	if want := []int{1, len(calls)}; !slices.Equal(batches, want) {
		t.Errorf("batches of %v steps, want %v: %d steps in fewer transactions", batches, want, len(calls)+1)
	}
	mu.Unlock()
	want := []string{"first"}
	for i := range good {
		want = append(want, fmt.Sprintf("good%d", i))
	}
	if keys := scratchKeys(t, s); !slices.Equal(keys, want) {
		t.Errorf("committed %v, want %v", keys, want)
	}
}

// errConstraintStandIn stands for "a constraint's error" in the table of
// TestAtomicallyGroupsSteps.
var errConstraintStandIn = errors.New("a constraint's error")

// TestAtomicallyBatchPanic: a step that panics in a batch panics in its
// caller's goroutine, and the other steps of the batch commit all the same
// (each again in a transaction of its own).
func TestAtomicallyBatchPanic(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	insert := scratch(t, s)
	ok := func() error { return nil }
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.Atomically(ctx, time.Now, insert("first", func() error { <-release; return nil }))
	}()
	testkit.Eventually(t, 10*time.Second, func() bool {
		s.group.mu.Lock()
		defer s.group.mu.Unlock()
		return s.group.leading
	}, "the first step did not start")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Atomically(ctx, time.Now, insert(fmt.Sprintf("good%d", i), ok)) })
	}
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_ = s.Atomically(ctx, time.Now, insert("panics", func() error { panic("the step's own") }))
	}()
	testkit.Eventually(t, 10*time.Second, func() bool { return queued(s) == 3 }, "%d of 3 calls queued", queued(s))
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first: %v", err)
	}
	if v := <-panicked; v != "the step's own" {
		t.Errorf("the panicking step's caller recovered %v", v)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("good%d: %v", i, err)
		}
	}
	if keys, want := scratchKeys(t, s), []string{"first", "good0", "good1"}; !slices.Equal(keys, want) {
		t.Errorf("committed %v, want %v", keys, want)
	}
	// The store goes on.
	if err := s.Atomically(ctx, time.Now, insert("after", ok)); err != nil {
		t.Errorf("a step after the panic: %v", err)
	}
}
