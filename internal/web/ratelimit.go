package web

import (
	"context"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// Limiter counts events per key in fixed windows. Allow records one event
// and reports whether it is within limit per window; when not, it says how
// long until the window ends.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
	// Count is how many events key has in its current window and how
	// long that window still runs, without counting one.
	Count(ctx context.Context, key string) (n int, retryAfter time.Duration, err error)
}

// allowHold applies HoldRate to a hold: per session (by its browser key,
// which the visitor has before its session is stored and keeps after), and
// ten times that per client address, so that a shared NAT can live with
// it.
func (s *Server) allowHold(c echo.Context) error {
	rate := s.opts.HoldRate
	if rate <= 0 {
		return nil
	}
	ctx := c.Request().Context()
	keys, limits := []string{"hold:browser:" + s.browserKey(c)}, []int{rate}
	if addr := s.holdAddress(c); addr != "" { // a hold with an on-sale's pass counts per session only
		keys, limits = append(keys, "hold:addr:"+addr), append(limits, rate*10)
	}
	ok, retry, err := allowEach(ctx, s.limiter, keys, limits, time.Minute)
	if err != nil {
		if ctx.Err() != nil {
			return err // out of time (deadline) or the client left: the hold would fail too
		}
		// Failing open: a broken limiter must not stop sales.
		s.log.WarnContext(ctx, "rate limiter failed", "err", err)
		return nil
	}
	if !ok {
		return &rateLimitError{retryAfter: retry}
	}
	return nil
}

// eachLimiter is a Limiter that counts several keys in one round trip to
// its store (the SQLite limiter: one transaction, one commit), with the
// same result as calling Allow for each in turn.
type eachLimiter interface {
	AllowEach(ctx context.Context, keys []string, limits []int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}

// allowEach records one event for each key in turn against the limit of
// the same index and stops at the first one refused, so that a session over
// its limit does not use up its address's budget.
func allowEach(ctx context.Context, l Limiter, keys []string, limits []int, window time.Duration) (bool, time.Duration, error) {
	if el, ok := l.(eachLimiter); ok {
		return el.AllowEach(ctx, keys, limits, window)
	}
	for i, key := range keys {
		ok, retry, err := l.Allow(ctx, key, limits[i], window)
		if err != nil || !ok {
			return ok, retry, err
		}
	}
	return true, 0, nil
}

// memoryLimiter is a Limiter for one process.
type memoryLimiter struct {
	mu      sync.Mutex
	now     func() time.Time
	windows map[string]*window
	sweep   time.Time
}

type window struct {
	start  time.Time
	length time.Duration
	count  int
}

func newMemoryLimiter(now func() time.Time) *memoryLimiter {
	return &memoryLimiter{now: now, windows: map[string]*window{}}
}

func (l *memoryLimiter) Count(_ context.Context, key string) (int, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.windows[key]
	if w == nil {
		return 0, 0, nil
	}
	left := w.start.Add(w.length).Sub(l.now())
	if left <= 0 {
		return 0, 0, nil
	}
	return w.count, left, nil
}

func (l *memoryLimiter) Allow(_ context.Context, key string, limit int, d time.Duration) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.sweep) > d {
		for k, w := range l.windows {
			if now.Sub(w.start) >= d {
				delete(l.windows, k)
			}
		}
		l.sweep = now
	}
	w := l.windows[key]
	if w == nil || now.Sub(w.start) >= d {
		w = &window{start: now, length: d}
		l.windows[key] = w
	}
	w.count++
	if w.count > limit {
		return false, w.start.Add(d).Sub(now), nil
	}
	return true, 0, nil
}
