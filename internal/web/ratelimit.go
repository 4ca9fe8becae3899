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
}

// allowHold applies HoldRate to a hold by visitor: per session, and ten
// times that per client address, so that a shared NAT can live with it.
func (s *Server) allowHold(c echo.Context, visitor string) error {
	rate := s.opts.HoldRate
	if rate <= 0 {
		return nil
	}
	ctx := c.Request().Context()
	for _, k := range []struct {
		key   string
		limit int
	}{
		{"hold:visitor:" + visitor, rate},
		{"hold:addr:" + c.RealIP(), rate * 10},
	} {
		ok, retry, err := s.limiter.Allow(ctx, k.key, k.limit, time.Minute)
		if err != nil {
			// Failing open: a broken limiter must not stop sales.
			s.log.WarnContext(ctx, "rate limiter failed", "err", err)
			return nil
		}
		if !ok {
			return &rateLimitError{retryAfter: retry}
		}
	}
	return nil
}

// memoryLimiter is a Limiter for one process.
type memoryLimiter struct {
	mu      sync.Mutex
	now     func() time.Time
	windows map[string]*window
	sweep   time.Time
}

type window struct {
	start time.Time
	count int
}

func newMemoryLimiter(now func() time.Time) *memoryLimiter {
	return &memoryLimiter{now: now, windows: map[string]*window{}}
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
		w = &window{start: now}
		l.windows[key] = w
	}
	w.count++
	if w.count > limit {
		return false, w.start.Add(d).Sub(now), nil
	}
	return true, 0, nil
}
