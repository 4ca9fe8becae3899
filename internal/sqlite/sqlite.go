// Package sqlite is the SQLite adapter of boxoffice: it implements
// booking.Store and an scs session store on one database file, using the
// pure-Go driver modernc.org/sqlite.
//
// Each process keeps one write connection, on which every change runs as a
// BEGIN IMMEDIATE transaction, and a small pool of read-only connections.
// Several processes may share the file: SQLite's own lock (WAL mode) orders
// their writes, no Go mutex guards any seat.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"boxoffice/internal/booking"
)

var _ booking.Store = (*Store)(nil)

// options are the knobs tests turn; Open uses defaultOptions.
type options struct {
	busyTimeout     time.Duration // how long a connection waits for SQLite's lock
	readConns       int           // size of the read-only pool
	txAttempts      int           // runs of a transaction that keeps hitting SQLITE_BUSY
	checkpointEvery time.Duration // period of the background WAL checkpoint; 0 disables
	sessionGCEvery  time.Duration // period of the expired-session cleanup; 0 disables
}

// defaultOptions were measured on a 2-core machine: one writer and four
// readers keep p99 well under a millisecond, where a pool of eight writers
// gave multi-second worst cases and a WAL that never got checkpointed.
var defaultOptions = options{
	busyTimeout:     10 * time.Second,
	readConns:       4,
	txAttempts:      4,
	checkpointEvery: time.Second,
	sessionGCEvery:  5 * time.Minute,
}

// walSizeLimit is journal_size_limit: after a checkpoint resets the WAL,
// SQLite truncates the file to at most this size, so a burst of writes does
// not leave a huge file behind.
const walSizeLimit = 64 << 20

// Store is the SQLite implementation of booking.Store.
type Store struct {
	path     string
	opt      options
	write    *sql.DB // exactly one connection: SQLite admits one writer anyway
	read     *sql.DB // query_only connections for everything that only reads
	stmts    *statements
	sessions *SessionStore
	layouts  *layoutCache // seat layouts by show: immutable after CreateShow

	lastWrite atomic.Int64 // unix nanoseconds of the last local commit
	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Open opens (creating it if needed, with its parent directory) the database
// at path, sets the pragmas, applies the embedded migrations and starts the
// background WAL checkpoint and session cleanup, which Close stops.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, defaultOptions)
}

func open(ctx context.Context, path string, o options) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") || strings.ContainsRune(path, '?') {
		// Two pools on one database need a real file; a URI would bypass our pragmas.
		return nil, fmt.Errorf("sqlite: open: %q is not a plain file path", path)
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("sqlite: open: %w", err)
		}
	}
	s := &Store{path: path, opt: o, stop: make(chan struct{}), layouts: newLayoutCache(layoutCacheShows)}
	var err error
	if s.write, err = sql.Open("sqlite", dsn(path, o, true)); err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	s.write.SetMaxOpenConns(1)
	s.write.SetMaxIdleConns(1)
	s.write.SetConnMaxLifetime(0)
	s.write.SetConnMaxIdleTime(0)
	if s.read, err = sql.Open("sqlite", dsn(path, o, false)); err != nil {
		s.write.Close()
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	s.read.SetMaxOpenConns(o.readConns)
	s.read.SetMaxIdleConns(o.readConns)
	s.read.SetConnMaxIdleTime(0)

	if err := s.Migrate(ctx); err != nil {
		s.closeDBs()
		return nil, err
	}
	if s.stmts, err = prepareStatements(ctx, s.write, s.read); err != nil {
		s.closeDBs()
		return nil, fmt.Errorf("sqlite: open: prepare: %w", err)
	}
	s.sessions = &SessionStore{s: s}
	s.background(o.checkpointEvery, s.checkpoint)
	s.background(o.sessionGCEvery, s.sessions.deleteExpired)
	return s, nil
}

// writeCacheKiB is the page cache of the write connection, smaller than a
// reader's. When an insert splits a b-tree page, SQLite may renumber the
// new pages into ascending order through a temporary page number beyond the
// end of a file under 1 GiB, and the next commit then drops cached pages
// past the end by walking the whole page cache. With the readers' 32 MB
// that walk cost a hold ~50 µs at 1M seats; with 8 MB a 4-seat hold (and
// the bare UPDATE beside it) is ~20 % cheaper there, and at 1k seats,
// where the file fits either way, nothing changes (docs/PERFORMANCE.md).
const writeCacheKiB = 8000

// dsn builds the driver's connection string. The writer gets _txlock=immediate
// so that database/sql's BeginTx sends BEGIN IMMEDIATE: the write lock is
// taken up front, and a transaction never has to upgrade a stale read
// snapshot (which fails with SQLITE_BUSY_SNAPSHOT without waiting).
//
// Defensive mode (_defensive) stays off: migration 0006 edits table
// definitions in sqlite_schema, which it forbids.
func dsn(path string, o options, write bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "foreign_keys(1)")
	// NORMAL is durable in WAL mode except for the last commits on power loss,
	// and saves an fsync per commit.
	q.Add("_pragma", "synchronous(NORMAL)")
	if write {
		q.Add("_pragma", "cache_size(-"+strconv.Itoa(writeCacheKiB)+")")
		q.Set("_journal_mode", "WAL")
		q.Add("_pragma", "journal_size_limit("+strconv.Itoa(walSizeLimit)+")")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "cache_size(-32000)") // 32 MB: the hot seat pages of a big catalog stay cached
		q.Set("_query_only", "1")
	}
	return path + "?" + q.Encode()
}

// Close stops the background work, closes the prepared statements and both
// pools. It is safe to call more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.wg.Wait()
		s.stmts.close()
		s.closeErr = s.closeDBs()
	})
	return s.closeErr
}

func (s *Store) closeDBs() error {
	return errors.Join(s.read.Close(), s.write.Close())
}

// Ping reports whether the database answers, on the read pool as readiness
// probes should not queue behind writes.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Sessions is the scs session store on this database.
func (s *Store) Sessions() *SessionStore { return s.sessions }

// background runs fn every period until Close.
func (s *Store) background(period time.Duration, fn func(context.Context)) {
	if period <= 0 {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(context.Background(), period)
				fn(ctx)
				cancel()
			}
		}
	}()
}

// restartFrames is the WAL length (in pages) beyond which the background
// checkpoint forces a RESTART. SQLite's automatic checkpoint (every 1000
// pages, PASSIVE, run by the committing connection) copies pages back but can
// only rewind the WAL when no reader is using it; with writes and seat-map
// reads arriving back to back that moment never comes and the WAL grows
// without bound (measured: 73 MB after 3000 holds with two busy readers;
// with this, 17 MB at most).
const restartFrames = 2000

// checkpoint keeps the WAL small. When this process has written nothing
// since the last tick it runs a TRUNCATE checkpoint, which empties the file.
// Under load it runs a PASSIVE one, which never blocks anybody, and only if
// the WAL has grown past restartFrames a RESTART, which briefly holds back
// writers until the readers of old snapshots are done, so that the next
// commit starts the WAL from its beginning again.
func (s *Store) checkpoint(ctx context.Context) {
	idle := time.Since(time.Unix(0, s.lastWrite.Load())) > s.opt.checkpointEvery
	mode := "PASSIVE"
	if idle {
		mode = "TRUNCATE"
	}
	// Errors are not fatal here: the next tick, or SQLite's own
	// autocheckpoint, tries again.
	frames, _ := s.walCheckpoint(ctx, mode)
	if !idle && frames > restartFrames {
		_, _ = s.walCheckpoint(ctx, "RESTART")
	}
}

// walCheckpoint runs PRAGMA wal_checkpoint(mode) and returns the number of
// frames in the WAL.
func (s *Store) walCheckpoint(ctx context.Context, mode string) (int, error) {
	var busy, frames, done int
	err := s.write.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &frames, &done)
	return frames, err
}

// isBusy reports SQLITE_BUSY in any of its extended forms: the sign that a
// transaction may succeed when run again.
func isBusy(err error) bool {
	var e *sqlite.Error
	// Extended codes are on: SQLITE_BUSY_SNAPSHOT, _RECOVERY and _TIMEOUT
	// share the primary code SQLITE_BUSY in the low byte.
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// isConstraint reports a violated UNIQUE or PRIMARY KEY constraint.
func isConstraint(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// inTx runs fn in a BEGIN IMMEDIATE transaction on the write connection and
// commits it when fn returns nil. When SQLite answers SQLITE_BUSY (its lock
// stayed taken beyond busy_timeout, or another process was recovering the
// WAL), the whole transaction runs again, a bounded number of times: fn must
// therefore derive everything from what it reads inside the transaction.
// Errors are wrapped with "sqlite: op:" except the domain's own.
func (s *Store) inTx(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = s.tryTx(ctx, fn)
		if err == nil || !isBusy(err) || attempt >= s.opt.txAttempts {
			break
		}
		if berr := busyBackoff(ctx, attempt); berr != nil {
			return wrapErr(op, errors.Join(err, berr))
		}
	}
	return wrapErr(op, err)
}

// busyBackoff waits before the next run of a transaction that got
// SQLITE_BUSY, or until ctx is done, whose error it then returns.
func busyBackoff(ctx context.Context, attempt int) error {
	backoff := time.Duration(attempt*attempt)*5*time.Millisecond + rand.N(5*time.Millisecond)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(backoff):
		return nil
	}
}

func (s *Store) tryTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return cancelledFirst(ctx, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return cancelledFirst(ctx, err)
	}
	if err := tx.Commit(); err != nil {
		return cancelledFirst(ctx, err)
	}
	s.lastWrite.Store(time.Now().UnixNano())
	return nil
}

// cancelledFirst puts the context's error in front of err when the context
// ended: database/sql then rolls the transaction back by itself, and what the
// statement reports ("transaction has already been committed or rolled
// back") would hide that the request's deadline or its client is why.
func cancelledFirst(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w: %w", cerr, err)
	}
	return err
}

// wrapErr prefixes driver errors with the operation; the domain's errors
// pass unchanged, as they carry the message shown to people.
func wrapErr(op string, err error) error {
	if err == nil {
		return nil
	}
	var de *booking.Error
	var ue *booking.UnavailableError
	if errors.As(err, &de) || errors.As(err, &ue) {
		return err
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// notFound turns sql.ErrNoRows into the domain's sentinel.
func notFound(err, sentinel error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return sentinel
	}
	return err
}

// nanos stores a time as unix nanoseconds; the zero time as NULL, as its
// nanoseconds do not fit an int64.
func nanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// fromNanos is the inverse of nanos, in UTC.
func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// joinIDs and splitIDs store lists of seat ids, which never contain commas.
func joinIDs(ids []string) string { return strings.Join(ids, ",") }

func splitIDs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// placeholders returns "?,?,…" with n marks.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?,", n-1) + "?"
}
