package sqlite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boxoffice/internal/web/limitertest"
)

// newLimiter returns a rate limiter on s.
func newLimiter(tb testing.TB, s *Store) *RateLimiter {
	tb.Helper()
	l, err := NewRateLimiter(context.Background(), s)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// TestAllowWindow walks one key through a window, its end and the next one,
// through Allow on the limiter's clock.
func TestAllowWindow(t *testing.T) {
	s, _ := mustOpen(t)
	l := newLimiter(t, s)
	limitertest.Window(t, func(ctx context.Context, now time.Time, key string, limit int, window time.Duration) (bool, time.Duration, error) {
		l.now = func() time.Time { return now }
		return l.Allow(ctx, key, limit, window)
	}, t0)
}

// TestAllowAcrossStores is two processes' worth of stores on one file, each
// with many goroutines counting one key at once: exactly limit events are
// allowed in the window in total, and the others are told to retry when it
// ends.
func TestAllowAcrossStores(t *testing.T) {
	a, path := mustOpen(t)
	b := reopen(t, path)
	limiters := []*RateLimiter{newLimiter(t, a), newLimiter(t, b)}
	ctx := context.Background()
	const (
		key    = "hold:addr:127.0.0.1"
		limit  = 25
		window = time.Minute
	)
	now := t0.Add(time.Hour)
	limitertest.Race(t, []limitertest.AllowAt{limiters[0].allowAt, limiters[1].allowAt}, now, key, limit, window, 16, 10)

	// The window ends at once for both.
	end := now.Add(window)
	for i, l := range limiters {
		at := end.Add(-time.Millisecond)
		if ok, retry, err := l.allowAt(ctx, at, key, limit, window); err != nil || ok || retry != time.Millisecond {
			t.Errorf("store %d just before the end = %v, %v, %v; want refused, retry 1ms", i, ok, retry, err)
		}
	}
	if ok, _, err := limiters[1].allowAt(ctx, end, key, 1, window); err != nil || !ok {
		t.Fatalf("at the end = %v, %v; want allowed", ok, err)
	}
	if ok, retry, err := limiters[0].allowAt(ctx, end.Add(time.Second), key, 1, window); err != nil || ok || retry != window-time.Second {
		t.Errorf("the other store in the new window = %v, %v, %v; want refused, retry %v", ok, retry, err, window-time.Second)
	}
}

// TestSweepRateLimits: ended windows go in bounded batches, live ones stay,
// whatever the window length that wrote them.
func TestSweepRateLimits(t *testing.T) {
	s, _ := mustOpen(t)
	l := newLimiter(t, s)
	ctx := context.Background()
	const expired = sweepBatch + 44
	for i := range expired {
		if _, _, err := l.allowAt(ctx, t0, fmt.Sprintf("old%d", i), 1, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []time.Duration{time.Hour, 3 * time.Minute} {
		if _, _, err := l.allowAt(ctx, t0, w.String(), 1, w); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		t.Helper()
		var n int
		if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM rate_limits`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Allow has swept already, at t0, when none of these windows had ended.
	if n := count(); n != expired+2 {
		t.Fatalf("%d rows before the sweep, want %d", n, expired+2)
	}
	now := t0.Add(2 * time.Minute)
	for _, want := range []int{expired + 2 - sweepBatch, 2, 2} {
		if err := s.sweepRateLimits(ctx, now); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != want {
			t.Errorf("%d rows after a sweep, want %d", n, want)
		}
	}
	// The longer windows still count.
	for _, w := range []time.Duration{time.Hour, 3 * time.Minute} {
		if ok, _, err := l.allowAt(ctx, now, w.String(), 1, w); err != nil || ok {
			t.Errorf("second event of the %v window = %v, %v; want refused", w, ok, err)
		}
	}
	// Allow sweeps by itself, every sweepEvery calls.
	now = t0.Add(time.Hour)
	for i := range 2 * sweepEvery {
		if _, _, err := l.allowAt(ctx, now, fmt.Sprintf("new%d", i), 1, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(); n != 2*sweepEvery {
		t.Errorf("%d rows after %d calls of Allow, want only theirs", n, 2*sweepEvery)
	}
}

func TestAllowRejectsEmptyWindow(t *testing.T) {
	s, _ := mustOpen(t)
	if _, _, err := newLimiter(t, s).Allow(context.Background(), "k", 1, 0); err == nil {
		t.Error("Allow with a zero window succeeded")
	}
}

// BenchmarkAllow is what HOLD_RATE adds to a hold on SQLite: the web server
// calls Allow twice per hold (per session, per address), each one
// autocommit UPSERT on the write connection.
//
//	go test -run '^$' -bench Allow -benchtime 20000x -count 1 ./internal/sqlite/
//
// "existing" counts on keys that already have a window (a visitor's later
// holds, the address key); "new" starts a window per call (a visitor's
// first hold), which also writes an entry of the window_end index.
func BenchmarkAllow(b *testing.B) {
	ctx := context.Background()
	b.Run("existing", func(b *testing.B) {
		s, _ := mustOpen(b)
		l := newLimiter(b, s)
		keys := make([]string, 1000)
		for i := range keys {
			keys[i] = fmt.Sprintf("hold:visitor:%032d", i)
		}
		for i := 0; b.Loop(); i++ {
			if _, _, err := l.Allow(ctx, keys[i%len(keys)], 1<<30, time.Hour); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		s, _ := mustOpen(b)
		l := newLimiter(b, s)
		for i := 0; b.Loop(); i++ {
			if _, _, err := l.Allow(ctx, fmt.Sprintf("hold:visitor:%032d", i), 20, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAllowEach counts a session key and an address key in one transaction,
// stopping at the first refused key as calling Allow in turn would: a
// session over its limit does not use up its address's budget.
func TestAllowEach(t *testing.T) {
	s, path := mustOpen(t)
	l := newLimiter(t, s)
	now := t0
	l.now = func() time.Time { return now }
	ctx := context.Background()
	const window = time.Minute
	steps := []struct {
		name    string
		visitor string
		ok      bool
	}{
		{"v1 first", "v1", true},
		{"v1 second", "v1", true},
		{"v1 over its limit, the address not counted", "v1", false},
		{"v2 first, the address's third", "v2", true},
		{"v3 first, the address's fourth: refused", "v3", false},
	}
	for i, st := range steps {
		now = t0.Add(time.Duration(i) * time.Second)
		ok, retry, err := l.AllowEach(ctx, []string{"hold:visitor:" + st.visitor, "hold:addr:a"}, []int{2, 3}, window)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		wantRetry := time.Duration(0)
		if !st.ok {
			wantRetry = window - time.Duration(i)*time.Second
		}
		if ok != st.ok || retry != wantRetry {
			t.Errorf("%s: AllowEach = %v, %v; want %v, %v", st.name, ok, retry, st.ok, wantRetry)
		}
	}
	// Every key was counted in the same rows Allow uses.
	counts := map[string]int{}
	rows, err := s.read.Query(`SELECT key, count FROM rate_limits`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			t.Fatal(err)
		}
		counts[k] = n
	}
	want := map[string]int{"hold:visitor:v1": 3, "hold:visitor:v2": 1, "hold:visitor:v3": 1, "hold:addr:a": 4}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
	// Another process counts against the same windows.
	other := newLimiter(t, reopen(t, path))
	other.now = l.now
	if ok, _, err := other.AllowEach(ctx, []string{"hold:visitor:v4", "hold:addr:a"}, []int{2, 3}, window); err != nil || ok {
		t.Errorf("another process: AllowEach = %v, %v; want refused (the address is over its limit)", ok, err)
	}
	if _, _, err := l.AllowEach(ctx, []string{"a"}, []int{1, 2}, window); err == nil {
		t.Error("AllowEach with more limits than keys: no error")
	}
}
