package mongo

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestAllowWindow walks one key through a window, its end and the next one,
// on the limiter's clock.
func TestAllowWindow(t *testing.T) {
	l := mustOpen(t).RateLimiter()
	t0 := time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)
	now := t0
	l.now = func() time.Time { return now }
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
		now = t0.Add(st.at)
		ok, retry, err := l.Allow(ctx, "hold:visitor:v1", limit, window)
		if err != nil {
			t.Fatalf("%s: Allow: %v", st.name, err)
		}
		if ok != st.ok || retry != st.retry {
			t.Errorf("%s: Allow at +%v = %v, %v; want %v, %v", st.name, st.at, ok, retry, st.ok, st.retry)
		}
	}
	now = t0.Add(20 * time.Second)
	if ok, _, err := l.Allow(ctx, "hold:visitor:v2", limit, window); err != nil || !ok {
		t.Errorf("another key = %v, %v; want allowed", ok, err)
	}
}

// TestAllowAcrossStores is two processes' worth of stores on one database,
// each with many goroutines counting one new key at once, so that upserts
// race: exactly limit events are allowed in total.
func TestAllowAcrossStores(t *testing.T) {
	dsn, a := sharedStore(t)
	t.Cleanup(func() { a.Close() })
	ctx := context.Background()
	b, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	limiters := []*RateLimiter{a.RateLimiter(), b.RateLimiter()}
	const (
		key        = "hold:addr:127.0.0.1"
		limit      = 25
		window     = time.Minute
		goroutines = 16
		calls      = 5
	)
	now := time.Now()
	var (
		mu              sync.Mutex
		allowed, denied int
		errs            []error
	)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, l := range limiters {
		for range goroutines {
			wg.Go(func() {
				<-start
				for range calls {
					ok, retry, err := l.allowAt(ctx, now, key, limit, window)
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
	if total := 2 * goroutines * calls; allowed != limit || denied != total-limit {
		t.Errorf("allowed %d, refused %d of %d; want exactly %d allowed", allowed, denied, total, limit)
	}
	end := now.Truncate(time.Millisecond).Add(window)
	if ok, _, err := limiters[1].allowAt(ctx, end, key, 1, window); err != nil || !ok {
		t.Errorf("at the end of the window = %v, %v; want allowed", ok, err)
	}
}

// TestRateLimitTTLIndex: Migrate gives rate_limits the TTL index that
// deletes ended windows.
func TestRateLimitTTLIndex(t *testing.T) {
	s := mustOpen(t)
	ctx := context.Background()
	cur, err := s.col(colRateLimits).Indexes().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var specs []bson.M
	if err := cur.All(ctx, &specs); err != nil {
		t.Fatal(err)
	}
	for _, spec := range specs {
		if spec["name"] == "expires_at_ttl" {
			if fmt.Sprint(spec["expireAfterSeconds"]) != "0" {
				t.Errorf("expires_at_ttl has expireAfterSeconds %v, want 0", spec["expireAfterSeconds"])
			}
			return
		}
	}
	t.Errorf("no expires_at_ttl index on %s: %v", colRateLimits, specs)
}
