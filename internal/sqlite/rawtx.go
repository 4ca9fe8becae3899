package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"time"
)

// rawHold runs the hold's common case below database/sql, on the write
// pool's one driver connection (sql.Conn.Raw gives exclusive use of it):
// BEGIN IMMEDIATE, the lock UPDATE, the hold's INSERT and COMMIT are
// statements prepared once per connection, where database/sql's Tx makes the
// driver prepare and finalize BEGIN and COMMIT on every transaction and costs
// a Tx, a per-transaction Stmt and a Rows per statement. Measured in
// docs/PERFORMANCE.md.
//
// The SQL, the locks and the guarantees are those of the database/sql path:
// the same BEGIN IMMEDIATE, so other processes are kept out by SQLite's lock;
// every error rolls the transaction back before the connection is given back
// (and a connection whose ROLLBACK failed is discarded, never reused inside
// a stale transaction); SQLITE_BUSY is retried by the caller's loop.
type rawStmts struct {
	conn          any // the driver connection these were prepared on
	begin, commit driver.Stmt
	rollback      driver.Stmt
	lock          [maxPreparedSeats + 1]driver.Stmt
	insertHold    driver.Stmt
	releaseHold   driver.Stmt
	replaceHold   driver.Stmt
	all           []driver.Stmt
}

// rawCache keeps the prepared statements of the write connection. database/sql
// may replace that connection (after a driver.ErrBadConn); statements of a
// connection that is gone are dropped, not finalized, as finalizing them
// after the connection's close would touch freed memory.
type rawCache struct {
	mu sync.Mutex
	st *rawStmts
}

// get returns the statements of dc, preparing them if dc is new.
func (c *rawCache) get(ctx context.Context, dc any) (*rawStmts, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != nil && c.st.conn == dc {
		return c.st, nil
	}
	c.st = nil
	p, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("driver connection %T cannot prepare with a context", dc)
	}
	st := &rawStmts{conn: dc}
	var errs []error
	prep := func(q string) driver.Stmt {
		if len(errs) > 0 {
			return nil
		}
		s, err := p.PrepareContext(ctx, q)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		st.all = append(st.all, s)
		return s
	}
	st.begin = prep("BEGIN IMMEDIATE")
	st.commit = prep("COMMIT")
	st.rollback = prep("ROLLBACK")
	for n := 1; n <= maxPreparedSeats; n++ {
		st.lock[n] = prep(lockSQL(n))
	}
	st.insertHold = prep(insertHoldSQL)
	st.releaseHold = prep(releaseSQL)
	st.replaceHold = prep(replaceHoldSQL)
	if len(errs) > 0 {
		st.close()
		return nil, fmt.Errorf("preparing the hold's statements: %w", errs[0])
	}
	c.st = st
	return st, nil
}

// close finalizes the statements; the connection must still be open.
func (c *rawCache) close(dc any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != nil && c.st.conn == dc {
		c.st.close()
	}
	c.st = nil
}

func (st *rawStmts) close() {
	for _, s := range st.all {
		s.Close()
	}
	st.all = nil
}

func rawExec(ctx context.Context, s driver.Stmt, args []driver.NamedValue) (int64, error) {
	res, err := s.(driver.StmtExecContext).ExecContext(ctx, args)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// rawQueryRow runs s and reads its first row into dest, which must hold
// len(dest) values; io.EOF when there is none.
func rawQueryRow(ctx context.Context, s driver.Stmt, args []driver.NamedValue, dest []driver.Value) error {
	rows, err := s.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return err
	}
	err = rows.Next(dest)
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// errRawFallback says the raw path left the decision to the database/sql
// path: the transaction was rolled back and changed nothing.
var errRawFallback = errors.New("hold needs the full path")

// inRawTx is inTx on the raw statements: fn runs between BEGIN IMMEDIATE and
// COMMIT, and the whole transaction runs again on SQLITE_BUSY, a bounded
// number of times. An error of fn (errRawFallback included) rolls back.
func (s *Store) inRawTx(ctx context.Context, fn func(*rawStmts) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = s.tryRawTx(ctx, fn)
		if err == nil || !isBusy(err) || attempt >= s.opt.txAttempts {
			return err
		}
		if err := busyBackoff(ctx, attempt); err != nil {
			return err
		}
	}
}

func (s *Store) tryRawTx(ctx context.Context, fn func(*rawStmts) error) error {
	c, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	err = c.Raw(func(dc any) error {
		st, err := s.raw.get(ctx, dc)
		if err != nil {
			return err
		}
		if _, err := rawExec(ctx, st.begin, nil); err != nil {
			return err // no transaction was opened
		}
		err = fn(st)
		if err == nil {
			if _, err = rawExec(ctx, st.commit, nil); err == nil {
				return nil
			}
		}
		if _, rerr := rawExec(context.Background(), st.rollback, nil); rerr != nil {
			// The transaction may still be open, or SQLite ended it itself;
			// either way this connection is not given back to the pool.
			s.raw.close(dc)
			return errors.Join(err, rerr, driver.ErrBadConn)
		}
		return err
	})
	if err == nil {
		s.lastWrite.Store(time.Now().UnixNano())
	}
	return err
}

// text reads a TEXT column as the driver returns it.
func text(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// closeRaw finalizes the raw statements while their connection is open.
func (s *Store) closeRaw() {
	s.raw.mu.Lock()
	empty := s.raw.st == nil
	s.raw.mu.Unlock()
	if empty {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := s.write.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.Raw(func(dc any) error { s.raw.close(dc); return nil })
}
