package mongo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boxoffice/internal/web/limitertest"
)

// TestAllowWindow walks one key through a window, its end and the next one,
// through Allow on the limiter's clock. It starts now, by the real clock:
// the TTL index on expires_at deletes a window that ended by the server's
// clock, so windows of a fixed date in the past could vanish mid-test.
func TestAllowWindow(t *testing.T) {
	l := mustOpen(t).RateLimiter()
	limitertest.Window(t, func(ctx context.Context, now time.Time, key string, limit int, window time.Duration) (bool, time.Duration, error) {
		l.now = func() time.Time { return now }
		return l.Allow(ctx, key, limit, window)
	}, time.Now().UTC().Truncate(time.Second))
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
		key    = "hold:addr:127.0.0.1"
		limit  = 25
		window = time.Minute
	)
	now := time.Now()
	limitertest.Race(t, []limitertest.AllowAt{limiters[0].allowAt, limiters[1].allowAt}, now, key, limit, window, 16, 5)
	end := now.Truncate(time.Millisecond).Add(window)
	if ok, _, err := limiters[1].allowAt(ctx, end, key, 1, window); err != nil || !ok {
		t.Errorf("at the end of the window = %v, %v; want allowed", ok, err)
	}
}

// TestRateLimitTTLIndex: Migrate gives rate_limits the TTL index that
// deletes ended windows.
func TestRateLimitTTLIndex(t *testing.T) {
	s := mustOpen(t)
	specs := indexSpecs(t, s, colRateLimits)
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
