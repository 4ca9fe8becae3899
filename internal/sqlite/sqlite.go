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
	busyTimeout     time.Duration // how long a write waits for another process's lock, and a read connection for SQLite's
	readConns       int           // size of the read-only pool
	checkpointEvery time.Duration // period of the background WAL checkpoint; 0 disables
	sessionGCEvery  time.Duration // period of the expired-session cleanup; 0 disables
	// defaultLang is DEFAULT_LANG: the language Migrate gives bookings
	// stored without one (0040_booking_lang.sql); "" is English.
	defaultLang string
}

// Option is a setting of Open.
type Option func(*options)

// DefaultLang is DEFAULT_LANG, the language Open gives the bookings
// stored before bookings had one (SPEC §15, existing data; §19).
func DefaultLang(lang string) Option { return func(o *options) { o.defaultLang = lang } }

// defaultOptions: the write pool has one connection (open), so this
// process's writes queue in Go rather than fight over SQLite's lock, and
// the read pool four. A pool of writers would give long worst cases and a
// WAL that never gets checkpointed (docs/PERFORMANCE.md, "The pools").
var defaultOptions = options{
	busyTimeout:     10 * time.Second,
	readConns:       4,
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
	writer   *writeLock
	read     *sql.DB // query_only connections for everything that only reads
	stmts    *statements
	sessions *SessionStore
	layouts  *layoutCache // seat layouts by show: immutable after CreateShow
	group    group        // Atomically's steps waiting for a batch (group.go)

	lastWrite atomic.Int64 // unix nanoseconds of the last local commit
	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	// pruneMu orders calls of Prune and the session sweep in this
	// process; it guards no seat (each step is a write of its own) but
	// what they remember: where pruneHolds' walk of the holds got to, and
	// when the next step may start.
	pruneMu    sync.Mutex
	pruneAfter string
	pruneNext  time.Time

	// showSeatsHook, when set (by tests only), runs inside ShowSeats'
	// read transaction between its read of the seats and of the hold.
	showSeatsHook func()
	// stmtHook, when set (by tests only), is called with each prepared
	// statement a step runs (tx.stmt), to count them.
	stmtHook func(*sql.Stmt)
}

// Open opens (creating it if needed, with its parent directory) the database
// at path, sets the pragmas, applies the embedded migrations and starts the
// background WAL checkpoint and session cleanup, which Close stops.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := defaultOptions
	for _, f := range opts {
		f(&o)
	}
	return open(ctx, path, o)
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
	if s.writer, err = openWriteLock(path, o.busyTimeout); err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	if s.write, err = sql.Open("sqlite", dsn(path, o, true)); err != nil {
		s.writer.close()
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	s.write.SetMaxOpenConns(1)
	s.write.SetMaxIdleConns(1)
	s.write.SetConnMaxLifetime(0)
	s.write.SetConnMaxIdleTime(0)
	if s.read, err = sql.Open("sqlite", dsn(path, o, false)); err != nil {
		s.write.Close()
		s.writer.close()
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
	s.background(o.sessionGCEvery, s.sweepSessions)
	return s, nil
}

// writeCacheKiB is the page cache of the write connection, smaller than a
// reader's. When an insert splits a b-tree page, SQLite may renumber the
// new pages into ascending order through a temporary page number beyond the
// end of a file under 1 GiB, and the next commit then drops cached pages
// past the end by walking the whole page cache. A smaller cache makes that
// walk shorter: a hold on a big file (BenchmarkStore's seats=1M hold and
// bare) is cheaper with it, and on a small file, which fits either way,
// nothing changes (figures in docs/PERFORMANCE.md).
const writeCacheKiB = 8000

// dsn builds the driver's connection string. The writer gets _txlock=immediate
// so that database/sql's BeginTx sends BEGIN IMMEDIATE: the write lock is
// taken up front, and a transaction never has to upgrade a stale read
// snapshot (which fails with SQLITE_BUSY_SNAPSHOT without waiting).
//
// The writer has no busy handler (busy_timeout 0): when another process
// holds the write lock, SQLite answers SQLITE_BUSY at once and retryBusy
// tries again within a millisecond. SQLite's own handler sleeps 1, 2, 5,
// 10 … 100 ms between tries, so a process that lost a few times in a row
// to a busy neighbour waited far longer than the lock was held.
func dsn(path string, o options, write bool) string {
	q := url.Values{}
	if write {
		q.Add("_pragma", "busy_timeout(0)")
	} else {
		q.Add("_pragma", "busy_timeout("+strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)+")")
	}
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

// Close stops the background work, empties the WAL if nobody is using it
// (closingCheckpoint), closes the prepared statements and both pools. It is
// safe to call more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.wg.Wait()
		s.closingCheckpoint()
		s.stmts.close()
		s.closeErr = s.closeDBs()
	})
	return s.closeErr
}

func (s *Store) closeDBs() error {
	return errors.Join(s.read.Close(), s.write.Close(), s.writer.close())
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
// commits it when fn returns nil. When SQLite answers SQLITE_BUSY (another
// process holds the write lock, or was recovering the WAL), the whole
// transaction runs again (retryBusy): fn must therefore derive everything
// from what it reads inside the transaction. Errors are wrapped with
// "sqlite: op:" except the domain's own.
func (s *Store) inTx(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	return wrapErr(op, s.retryBusy(ctx, func() error { return s.tryTx(ctx, fn) }))
}

// writeStmt runs fn, one autocommit statement on the write connection, as
// inTx runs a transaction. A single statement is atomic on its own and takes
// the write lock as it starts, as BEGIN IMMEDIATE does (it never upgrades a
// stale snapshot), and it saves the BEGIN and COMMIT round trips
// (BenchmarkAllow, the rate limiter's count; docs/PERFORMANCE.md).
func (s *Store) writeStmt(ctx context.Context, op string, fn func() error) error {
	err := s.retryBusy(ctx, func() error {
		unlock, err := s.writer.lock(ctx)
		if err != nil {
			return err
		}
		defer unlock()
		return fn()
	})
	if err == nil {
		s.lastWrite.Store(time.Now().UnixNano())
	}
	return wrapErr(op, err)
}

// retryBusy runs fn until it does not fail with SQLITE_BUSY, pausing a
// fraction of a millisecond between runs (lockPause), for up to
// busyTimeout, or until ctx is done. The write connection has no busy
// handler of SQLite's (dsn), so this loop is how a write waits for another
// process's lock.
func (s *Store) retryBusy(ctx context.Context, fn func() error) error {
	deadline := time.Now().Add(s.opt.busyTimeout)
	for {
		err := fn()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		if perr := lockPause(ctx); perr != nil {
			return errors.Join(err, perr)
		}
	}
}

// lockPause waits 0.1 to 1 ms, at random so that waiting processes do not
// try in step, or until ctx is done, whose error it then returns.
func lockPause(ctx context.Context) error {
	t := time.NewTimer(100*time.Microsecond + rand.N(900*time.Microsecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *Store) tryTx(ctx context.Context, fn func(*sql.Tx) error) error {
	unlock, err := s.writer.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	// The transaction itself does not watch ctx (modernc would start a
	// goroutine for BEGIN to interrupt it): it is checked before the
	// commit instead, and fn's statements watch it as they choose.
	tx, err := s.write.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return cancelledFirst(ctx, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return cancelledFirst(ctx, err)
	}
	if err := ctx.Err(); err != nil {
		_ = tx.Rollback()
		return err
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

// Backup writes a consistent copy of the database at path to dst, a new
// file, while other processes go on using the database, and checks the
// copy (PRAGMA quick_check). It opens the file by itself, not as a Store:
// no migration runs, so a backup never changes the schema under the
// servers using it.
//
// It uses SQLite's online backup API, all pages in one step: that step is
// one read transaction, a snapshot of the last commit before it began,
// which in WAL mode holds back no writer (copying in smaller steps would
// start again each time another process commits, and never end on a busy
// server). The ticker's checkpoints meanwhile cannot empty the WAL, and
// try again later (checkpoint). A dst that exists is refused, as is a path
// that is not a plain file path; a copy that fails is removed.
func Backup(ctx context.Context, path, dst string) (bytes int64, err error) {
	for _, p := range []string{path, dst} {
		if p == "" || p == ":memory:" || strings.HasPrefix(p, "file:") || strings.ContainsRune(p, '?') {
			return 0, fmt.Errorf("sqlite: backup: %q is not a plain file path", p)
		}
	}
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("sqlite: backup: the database: %w", err)
	}
	// Created empty, exclusively, so that an existing file is never
	// overwritten; SQLite takes an empty file for a new database.
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("sqlite: backup: %w", err)
	}
	f.Close()
	defer func() {
		if err != nil {
			for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
				os.Remove(dst + suffix)
			}
		}
	}()
	if err := copyDatabase(ctx, path, dst); err != nil {
		return 0, fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := checkCopy(ctx, dst); err != nil {
		return 0, fmt.Errorf("sqlite: backup: the copy %s: %w", dst, err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return 0, fmt.Errorf("sqlite: backup: %w", err)
	}
	return fi.Size(), nil
}

// backuper is what a modernc.org/sqlite connection offers for the online
// backup API.
type backuper interface {
	NewBackup(dstURI string) (*sqlite.Backup, error)
}

// copyDatabase copies every page of the database at path to the empty
// file dst, in one backup step.
func copyDatabase(ctx context.Context, path, dst string) error {
	o := defaultOptions
	db, err := sql.Open("sqlite", dsn(path, o, false))
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		b, ok := dc.(backuper)
		if !ok {
			return fmt.Errorf("driver connection %T has no backup API", dc)
		}
		bk, err := b.NewBackup(dst)
		if err != nil {
			return err
		}
		_, stepErr := bk.Step(-1)
		return errors.Join(stepErr, bk.Finish())
	})
}

// checkCopy runs PRAGMA quick_check on the copy at dst and makes its
// bytes durable.
func checkCopy(ctx context.Context, dst string) error {
	db, err := sql.Open("sqlite", dst+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	var verdict string
	err = db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&verdict)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return err
	case verdict != "ok":
		return fmt.Errorf("quick_check: %s", verdict)
	}
	f, err := os.Open(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
