// Package limitertest checks a rate limiter behind web.Limiter (the SQLite
// and MongoDB ones) against the rules the web server counts on: a fixed
// window per key, and exactly limit events allowed in it however many
// processes count at once. Each store's tests call it with their limiter.
package limitertest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// AllowAt is a limiter's Allow at the instant now.
type AllowAt func(ctx context.Context, now time.Time, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)

// Window walks one key through a window, its end and the next one, from t0.
func Window(t *testing.T, allow AllowAt, t0 time.Time) {
	t.Helper()
	ctx := context.Background()
	const limit, window = 2, time.Minute
	steps := []struct {
		name  string
		at    time.Duration
		ok    bool
		retry time.Duration
	}{
		{"first starts the window", 0, true, 0},
		{"second", 10 * time.Second, true, 0},
		{"third is over the limit", 20 * time.Second, false, 40 * time.Second},
		{"refused again, just before the end", window - time.Millisecond, false, time.Millisecond},
		{"the end starts a new window", window, true, 0},
		{"second of the new window", window + 30*time.Second, true, 0},
		{"third of the new window", window + 45*time.Second, false, 15 * time.Second},
		{"long after, a fresh window", 10 * window, true, 0},
	}
	for _, st := range steps {
		ok, retry, err := allow(ctx, t0.Add(st.at), "hold:visitor:v1", limit, window)
		if err != nil {
			t.Fatalf("%s: Allow: %v", st.name, err)
		}
		if ok != st.ok || retry != st.retry {
			t.Errorf("%s: Allow at +%v = %v, %v; want %v, %v", st.name, st.at, ok, retry, st.ok, st.retry)
		}
	}
	// Another key counts alone.
	if ok, _, err := allow(ctx, t0.Add(20*time.Second), "hold:visitor:v2", limit, window); err != nil || !ok {
		t.Errorf("another key = %v, %v; want allowed", ok, err)
	}
}

// Race has goroutines per limiter (each limiter a process's, all on one
// database) count key at now calls times each, all at once: exactly limit
// events must be allowed in total, and every other one told to retry when
// the window ends.
func Race(t *testing.T, limiters []AllowAt, now time.Time, key string, limit int, window time.Duration, goroutines, calls int) {
	t.Helper()
	ctx := context.Background()
	var (
		mu              sync.Mutex
		allowed, denied int
		errs            []error
	)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, allow := range limiters {
		for range goroutines {
			wg.Go(func() {
				<-start
				for range calls {
					ok, retry, err := allow(ctx, now, key, limit, window)
					mu.Lock()
					switch {
					case err != nil:
						errs = append(errs, err)
					case ok:
						allowed++
					case retry != window:
						errs = append(errs, fmt.Errorf("refused with retryAfter %v, want %v", retry, window))
					default:
						denied++
					}
					mu.Unlock()
				}
			})
		}
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if total := len(limiters) * goroutines * calls; allowed != limit || denied != total-limit {
		t.Errorf("allowed %d, refused %d of %d; want exactly %d allowed", allowed, denied, total, limit)
	}
}
