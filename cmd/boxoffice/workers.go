package main

import (
	"context"
	"sync"
	"time"
)

// workers are the process's background loops: the mail outbox sender, the
// sandbox's callback deliverer, the pruning of history, closing the
// checkouts of ended holds and keeping the demo's schedule ahead. At SIGTERM (stop) they start no new run and the
// run in progress finishes, within the drain, before the store closes: a
// mail being sent is recorded as sent, rather than the database closing
// under it and the mail going again later. Only when the drain's time is
// up is a run cancelled (its context ends), and then it is still waited
// for, briefly.
type workers struct {
	stopping chan struct{} // closed by stop: no new runs
	ctx      context.Context
	cancel   context.CancelFunc // ends runs in progress
	wg       sync.WaitGroup
	once     sync.Once
}

func newWorkers(parent context.Context) *workers {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	return &workers{stopping: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// stopped reports whether stop was called: a run of several steps (mail
// batches, prune batches) ends after the step it is in.
func (w *workers) stopped() bool {
	select {
	case <-w.stopping:
		return true
	default:
		return false
	}
}

// every runs fn in a goroutine of its own every d, and at once when the
// kick it returns is called (which never blocks), until stop.
func (w *workers) every(d time.Duration, fn func(context.Context)) (kick func()) {
	return w.loop(d, d, fn)
}

// loop runs fn first after first, then every d after each run ends, and at
// once when kicked, until stop.
func (w *workers) loop(first, d time.Duration, fn func(context.Context)) (kick func()) {
	kicks := make(chan struct{}, 1)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTimer(first)
		defer t.Stop()
		for {
			select {
			case <-w.stopping:
				return
			case <-t.C:
			case <-kicks:
				if !t.Stop() {
					<-t.C
				}
			}
			if w.stopped() { // both were ready, and select chose the other
				return
			}
			fn(w.ctx)
			t.Reset(d)
		}
	}()
	return func() {
		select {
		case kicks <- struct{}{}:
		default:
		}
	}
}

// workerCancelWait is how long stop waits for runs once it cancelled them.
const workerCancelWait = time.Second

// stop starts no new run and waits for the runs in progress until ctx is
// done; then it cancels them and waits workerCancelWait more. It reports
// whether every run ended. It may be called more than once.
func (w *workers) stop(ctx context.Context) bool {
	w.once.Do(func() { close(w.stopping) })
	done := make(chan struct{})
	go func() {
		w.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		w.cancel()
		return true
	case <-ctx.Done():
	}
	w.cancel()
	select {
	case <-done:
		return true
	case <-time.After(workerCancelWait):
		return false
	}
}
