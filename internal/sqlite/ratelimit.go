package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// RateLimiter counts events per key in fixed windows in the rate_limits
// table, so that HOLD_RATE holds across every process on the database file
// (SPEC §8). It is a web.Limiter. Make one per Store with NewRateLimiter and
// keep it: it holds a prepared statement, which spares each call the
// statement's preparation (BenchmarkAllow, docs/PERFORMANCE.md).
type RateLimiter struct {
	s     *Store
	allow *sql.Stmt
	calls atomic.Uint64
	// now is the clock; tests move it.
	now func() time.Time
}

// NewRateLimiter prepares the rate limiter of s. Store.Close also ends it.
func NewRateLimiter(ctx context.Context, s *Store) (*RateLimiter, error) {
	stmt, err := s.write.PrepareContext(ctx, allowSQL)
	if err != nil {
		return nil, fmt.Errorf("sqlite: rate limiter: prepare: %w", err)
	}
	return &RateLimiter{s: s, allow: stmt, now: time.Now}, nil
}

// allowSQL counts one event in one statement, which SQLite runs atomically
// under the database's write lock: a new key or an ended window starts a
// window at ?2 with count 1, otherwise count goes up by one. Every SET
// expression sees the row as it was before the statement.
// Arguments: key, now, the window's end if it starts now.
const allowSQL = `INSERT INTO rate_limits (key, window_start, window_end, count) VALUES (?1, ?2, ?3, 1)
	ON CONFLICT (key) DO UPDATE SET
		window_start = CASE WHEN window_end <= ?2 THEN ?2 ELSE window_start END,
		window_end   = CASE WHEN window_end <= ?2 THEN ?3 ELSE window_end END,
		count        = CASE WHEN window_end <= ?2 THEN 1 ELSE count + 1 END
	RETURNING count, window_end`

// sweepSQL deletes at most sweepBatch ended windows, found by the index on
// window_end. Arguments: now, sweepBatch.
const sweepSQL = `DELETE FROM rate_limits WHERE key IN (
	SELECT key FROM rate_limits WHERE window_end <= ?1 ORDER BY window_end LIMIT ?2)`

// Every sweepEvery-th call of Allow also deletes up to sweepBatch ended
// windows. Each call adds at most one row, so old rows go faster than new
// ones come, in steps of bounded work.
const (
	sweepEvery = 64
	sweepBatch = 256
)

// Allow records one event for key and reports whether it is within limit
// events per window. Windows are fixed: one starts with the first event
// after the previous one ended. When the event is refused, retryAfter is
// the time left in the window.
func (l *RateLimiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error) {
	return l.allowAt(ctx, l.now(), key, limit, window)
}

// allowAt is Allow at the instant now.
func (l *RateLimiter) allowAt(ctx context.Context, now time.Time, key string, limit int, window time.Duration) (bool, time.Duration, error) {
	if window <= 0 {
		return false, 0, fmt.Errorf("sqlite: rate limit: window %v is not positive", window)
	}
	n := now.UnixNano()
	var count int
	var end int64
	err := l.s.writeStmt(ctx, "rate limit", func() error {
		return l.allow.QueryRowContext(ctx, key, n, n+int64(window)).Scan(&count, &end)
	})
	if err != nil {
		return false, 0, err
	}
	if l.calls.Add(1)%sweepEvery == 0 {
		// Best effort: what a failed sweep leaves, the next one deletes.
		_ = l.s.sweepRateLimits(ctx, now)
	}
	if count > limit {
		return false, time.Duration(end - n), nil
	}
	return true, 0, nil
}

// AllowEach records one event for each of keys in turn, against the limit
// of the same index, and stops at the first key over its limit: the keys
// after it are not counted, exactly as calling Allow for each in turn would
// do. It runs in one BEGIN IMMEDIATE transaction, so the keys of a request
// cost one commit instead of one each. It is what web uses for the hold
// limits.
func (l *RateLimiter) AllowEach(ctx context.Context, keys []string, limits []int, window time.Duration) (bool, time.Duration, error) {
	return l.allowEachAt(ctx, l.now(), keys, limits, window)
}

func (l *RateLimiter) allowEachAt(ctx context.Context, now time.Time, keys []string, limits []int, window time.Duration) (bool, time.Duration, error) {
	if window <= 0 {
		return false, 0, fmt.Errorf("sqlite: rate limit: window %v is not positive", window)
	}
	if len(keys) != len(limits) {
		return false, 0, fmt.Errorf("sqlite: rate limit: %d keys but %d limits", len(keys), len(limits))
	}
	n := now.UnixNano()
	var ok bool
	var retry time.Duration
	err := l.s.inTx(ctx, "rate limit", func(tx *sql.Tx) error {
		ok, retry = true, 0 // inTx may run this again
		allow := tx.StmtContext(ctx, l.allow)
		for i, key := range keys {
			var count int
			var end int64
			if err := allow.QueryRowContext(ctx, key, n, n+int64(window)).Scan(&count, &end); err != nil {
				return err
			}
			if count > limits[i] {
				ok, retry = false, time.Duration(end-n)
				return nil // commit what was counted, as Allow does
			}
		}
		return nil
	})
	if err != nil {
		return false, 0, err
	}
	if l.calls.Add(1)%sweepEvery == 0 {
		_ = l.s.sweepRateLimits(ctx, now)
	}
	return ok, retry, nil
}

// sweepRateLimits deletes up to sweepBatch windows that ended by now.
func (s *Store) sweepRateLimits(ctx context.Context, now time.Time) error {
	return s.writeStmt(ctx, "sweep rate limits", func() error {
		_, err := s.write.ExecContext(ctx, sweepSQL, now.UnixNano(), sweepBatch)
		return err
	})
}

// Count is how many events key has in its current window, and the time
// left in that window, read without counting one: the sign-in checks an
// account's failures before it checks a password, and counts only the
// failures.
func (l *RateLimiter) Count(ctx context.Context, key string) (int, time.Duration, error) {
	return l.countAt(ctx, l.now(), key)
}

func (l *RateLimiter) countAt(ctx context.Context, now time.Time, key string) (int, time.Duration, error) {
	var count int
	var end int64
	err := l.s.read.QueryRowContext(ctx, `SELECT count, window_end FROM rate_limits WHERE key = ?`, key).Scan(&count, &end)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, 0, nil
	case err != nil:
		return 0, 0, fmt.Errorf("sqlite: rate limit count: %w", err)
	case end <= now.UnixNano():
		return 0, 0, nil
	}
	return count, time.Duration(end - now.UnixNano()), nil
}
