package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"boxoffice/internal/booking"
)

// groupMax is the most steps one transaction of Atomically runs.
const groupMax = 32

// group is the group commit of Atomically: the steps this process asks for
// while another batch of them is running wait here, and the next batch
// runs them all in one BEGIN IMMEDIATE … COMMIT, each step inside a
// savepoint of its own. One COMMIT then writes the pages several steps
// changed, and the steps share one BEGIN (docs/PERFORMANCE.md, "Group
// commit"). SQLite runs one writer at a time anyway, so the steps of a
// batch run as they would one after another: each sees the ones before it.
type group struct {
	mu      sync.Mutex
	leading bool       // a batch is being run (or is about to be)
	queue   []*pending // the steps waiting for the next batch, oldest first

	// hook, when set (by tests only), is called with the size of each
	// batch once its transaction has begun.
	hook func(n int)
}

// pending is one call of Atomically.
type pending struct {
	ctx   context.Context
	clock func() time.Time
	step  func(booking.Tx) error
	done  chan outcome // one outcome, sent by the batch's leader
}

// outcome is what a waiting call of Atomically is told.
type outcome struct {
	err      error // the step's result, its savepoint released or rolled back, and the batch committed
	lead     bool  // run the next batch, this call's step first
	alone    bool  // the batch failed as a whole: run the step in a transaction of its own
	panicked any   // the step panicked (with this): panic in the caller's goroutine
}

// Atomically runs step in a BEGIN IMMEDIATE transaction: the database's
// write lock is held from its start, so no other process writes between
// the step's reads and its writes. The steps that other goroutines of this
// process ask for meanwhile share the transaction (group), each in a
// savepoint: a step that fails leaves nothing, and its neighbours commit.
// The clock is read as the step starts, under the lock, so that a step that
// waited for another write decides at the time it runs.
//
// The step's statements do not watch ctx: modernc starts a goroutine per
// statement to interrupt it when the context has a Done channel, which
// cost a hold about a twentieth of its CPU (BenchmarkHoldRoute,
// docs/PERFORMANCE.md). A step is a few short statements under the write
// lock, and ctx is checked as the step ends, before its savepoint is
// released: a request that ended meanwhile commits nothing.
func (s *Store) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	p := &pending{ctx: ctx, clock: clock, step: step, done: make(chan outcome, 1)}
	g := &s.group
	g.mu.Lock()
	if !g.leading {
		g.leading = true
		g.mu.Unlock()
		return s.lead(p)
	}
	g.queue = append(g.queue, p)
	g.mu.Unlock()
	var o outcome
	select {
	case o = <-p.done:
	case <-ctx.Done():
		if g.withdraw(p) {
			return wrapErr("step", ctx.Err())
		}
		o = <-p.done // taken into a batch: its leader answers soon
	}
	switch {
	case o.panicked != nil:
		panic(o.panicked)
	case o.alone:
		return s.alone(p)
	case o.lead:
		return s.lead(p)
	}
	return o.err
}

// alone runs p's step in a transaction of its own, as Atomically did before
// steps were grouped: after a batch that failed as a whole.
func (s *Store) alone(p *pending) error {
	return s.inTx(p.ctx, "step", func(sqlTx *sql.Tx) error {
		return p.step(&tx{s: s, ctx: context.WithoutCancel(p.ctx), tx: sqlTx, now: p.clock()})
	})
}

// withdraw takes p out of the queue, and reports whether it was there
// (rather than taken into a batch, or told to lead one).
func (g *group) withdraw(p *pending) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, q := range g.queue {
		if q == p {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			return true
		}
	}
	return false
}

// take returns first and up to groupMax-1 of the queued steps, oldest first.
func (g *group) take(first *pending) []*pending {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := min(len(g.queue), groupMax-1)
	batch := make([]*pending, 0, n+1)
	batch = append(batch, first)
	batch = append(batch, g.queue[:n]...)
	rest := copy(g.queue, g.queue[n:])
	clear(g.queue[rest:])
	g.queue = g.queue[:rest]
	return batch
}

// handOff ends a leader's turn: the oldest queued step leads the next
// batch, or, with none queued, the next call of Atomically does.
func (g *group) handOff() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.leading = false
		return
	}
	next := g.queue[0]
	copy(g.queue, g.queue[1:])
	g.queue[len(g.queue)-1] = nil
	g.queue = g.queue[:len(g.queue)-1]
	next.done <- outcome{lead: true}
}

// errBatch marks a failure of a batch as a whole: nothing of it committed.
var errBatch = errors.New("the batch failed")

// lead runs a batch, p's step first, answers the other steps' callers, hands
// the next batch to the oldest step queued meanwhile and returns p's result.
// Taking the write lock and BEGIN are retried as inTx retries them; the
// batch is taken from the queue only once its transaction has begun.
func (s *Store) lead(p *pending) error {
	var (
		batch    []*pending
		results  []error
		failed   error // the batch's, as a whole
		panicked = -1  // the index of the step that panicked, if one did
		value    any
	)
	err := s.retryBusy(p.ctx, func() error {
		unlock, err := s.writer.lock(p.ctx)
		if err != nil {
			return err
		}
		defer unlock()
		sqlTx, err := s.write.BeginTx(context.WithoutCancel(p.ctx), nil)
		if err != nil {
			return cancelledFirst(p.ctx, err)
		}
		batch = s.group.take(p)
		if h := s.group.hook; h != nil {
			h(len(batch))
		}
		results, panicked, value, failed = s.runBatch(sqlTx, batch)
		if failed == nil {
			s.lastWrite.Store(time.Now().UnixNano())
		}
		return nil
	})
	if err != nil { // the lock or BEGIN: no batch was taken
		s.group.handOff()
		return wrapErr("step", err)
	}
	for i, q := range batch[1:] {
		switch {
		case i+1 == panicked:
			q.done <- outcome{panicked: value}
		case failed != nil:
			q.done <- outcome{alone: true}
		default:
			q.done <- outcome{err: results[i+1]}
		}
	}
	s.group.handOff()
	switch {
	case panicked == 0:
		panic(value)
	case failed != nil:
		return s.alone(p)
	}
	return results[0]
}

// runBatch runs the steps of batch in sqlTx, each in a savepoint, and
// commits. A step whose context ended before it ran is not run; one that
// fails, or whose context ended while it ran, is rolled back to its
// savepoint and answered its error. When something fails that no
// savepoint contains (a savepoint's own statements, a step's SQLITE_BUSY,
// a panic, COMMIT), the transaction is rolled back and failed says so:
// no step committed.
func (s *Store) runBatch(sqlTx *sql.Tx, batch []*pending) (results []error, panicked int, value any, failed error) {
	results = make([]error, len(batch))
	bg := context.Background()
	exec := func(st *sql.Stmt) error {
		_, err := sqlTx.StmtContext(bg, st).ExecContext(bg)
		return err
	}
	abort := func(err error) ([]error, int, any, error) {
		_ = sqlTx.Rollback()
		return nil, -1, nil, fmt.Errorf("%w: %w", errBatch, err)
	}
	// A batch of one step, the most common, needs no savepoint: the
	// transaction is the step's own, as it was before steps were grouped.
	framed := len(batch) > 1
	for i, q := range batch {
		if err := q.ctx.Err(); err != nil {
			results[i] = wrapErr("step", err)
			continue
		}
		if framed {
			if err := exec(s.stmts.savepoint); err != nil {
				return abort(err)
			}
		}
		t := &tx{s: s, ctx: context.WithoutCancel(q.ctx), tx: sqlTx, now: q.clock()}
		v, didPanic, err := runStep(q.step, t)
		if didPanic {
			_ = sqlTx.Rollback()
			return nil, i, v, errBatch
		}
		if isBusy(err) {
			return abort(err)
		}
		if err == nil {
			err = q.ctx.Err()
		}
		switch {
		case err != nil && !framed:
			_ = sqlTx.Rollback()
			results[i] = wrapErr("step", cancelledFirst(q.ctx, err))
			return results, -1, nil, nil
		case err != nil:
			if rerr := exec(s.stmts.rollbackTo); rerr != nil {
				return abort(rerr)
			}
			results[i] = wrapErr("step", cancelledFirst(q.ctx, err))
		}
		if framed {
			if err := exec(s.stmts.release); err != nil {
				return abort(err)
			}
		}
	}
	if err := sqlTx.Commit(); err != nil {
		return nil, -1, nil, fmt.Errorf("%w: %w", errBatch, err)
	}
	return results, -1, nil, nil
}

// runStep calls step, and recovers its panic to be raised again in the
// goroutine of the step's caller.
func runStep(step func(booking.Tx) error, t *tx) (value any, panicked bool, err error) {
	panicked = true
	defer func() {
		if panicked {
			value = recover()
		}
	}()
	err = step(t)
	panicked = false
	return nil, false, err
}
