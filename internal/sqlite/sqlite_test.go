package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

var t0 = time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)

const ttl = 15 * time.Minute

func at(d time.Duration) booking.Moment {
	return booking.Rules{TTL: ttl, AllowGaps: true}.At(t0.Add(d))
}

// mustOpen opens a store on a new file in a directory that does not exist
// yet, and closes it when the test ends.
func mustOpen(tb testing.TB, opts ...func(*options)) (*Store, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "data", "boxoffice.db")
	o := defaultOptions
	for _, f := range opts {
		f(&o)
	}
	s, err := open(context.Background(), path, o)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s, path
}

func reopen(tb testing.TB, path string, opts ...func(*options)) *Store {
	tb.Helper()
	o := defaultOptions
	for _, f := range opts {
		f(&o)
	}
	s, err := open(context.Background(), path, o)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// testShow builds a show of rows×cols seats; row A costs 100, B 200, ….
func testShow(id string, rows, cols int) (booking.Show, []booking.Seat) {
	show := booking.Show{
		ID: id, Movie: booking.Movie{ID: "m1", Title: "Film", RuntimeMin: 120},
		Theatre: booking.Theatre{ID: "t1", Name: "Odeon", City: "Pune"}, Screen: "1",
		StartsAt: t0.Add(365 * 24 * time.Hour), Currency: "INR",
	}
	var seats []booking.Seat
	for r := range rows {
		label := string(rune('A' + r%26))
		if r >= 26 {
			label = string(rune('A'+r/26-1)) + label
		}
		for c := range cols {
			seats = append(seats, booking.Seat{
				ShowID: id, ID: fmt.Sprintf("%s%d", label, c+1), Row: label, Number: c + 1,
				GridRow: r, GridCol: c, Category: "Std", Price: booking.Money(100 * (r + 1)), Kind: booking.KindStandard,
			})
		}
	}
	return show, seats
}

func mustCreateShow(tb testing.TB, s *Store, id string, rows, cols int) {
	tb.Helper()
	show, seats := testShow(id, rows, cols)
	if err := booking.CreateShowStep(context.Background(), s, time.Now, show, seats); err != nil {
		tb.Fatalf("create show: %v", err)
	}
}

func hold(show, owner string, seats ...string) booking.Hold {
	return booking.Hold{ID: booking.NewHoldID(time.Now()), ShowID: show, Owner: owner, SeatIDs: seats}
}

func pragma(tb testing.TB, db *sql.DB, name string) string {
	tb.Helper()
	var v string
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		tb.Fatalf("pragma %s: %v", name, err)
	}
	return v
}

func TestOpenSetsPragmas(t *testing.T) {
	s, path := mustOpen(t)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file: %v", err)
	}
	for name, want := range map[string]string{
		"journal_mode":       "wal",
		"synchronous":        "1", // NORMAL
		"busy_timeout":       "0", // retryBusy waits instead
		"foreign_keys":       "1",
		"journal_size_limit": fmt.Sprint(walSizeLimit),
		"cache_size":         fmt.Sprint(-writeCacheKiB),
	} {
		if got := pragma(t, s.write, name); got != want {
			t.Errorf("write pool: PRAGMA %s = %s, want %s", name, got, want)
		}
	}
	for name, want := range map[string]string{"query_only": "1", "cache_size": "-32000", "busy_timeout": "10000"} {
		if got := pragma(t, s.read, name); got != want {
			t.Errorf("read pool: PRAGMA %s = %s, want %s", name, got, want)
		}
	}
	if _, err := s.read.Exec(`DELETE FROM shows`); err == nil {
		t.Error("read pool accepted a write")
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

func TestOpenRejectsNonFiles(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file:x.db", "x.db?mode=ro"} {
		if s, err := Open(context.Background(), p); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s, path := mustOpen(t)
	mustCreateShow(t, s, "s1", 2, 2)
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	s.Close()
	s = reopen(t, path)
	// The latest version is that of the last embedded migration.
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("embedded migrations: %v, %v", names, err)
	}
	last := strings.TrimPrefix(slices.Max(names), "migrations/")
	want, err := migrationVersion(last)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.SchemaVersion(ctx); err != nil || v != want {
		t.Errorf("SchemaVersion = %d, %v; want %d (%s)", v, err, want, last)
	}
	if n, err := s.CountShows(ctx); err != nil || n != 1 {
		t.Errorf("CountShows after reopen = %d, %v; want 1", n, err)
	}
}

func TestMigrateConcurrentProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			s, err := Open(context.Background(), path)
			if err != nil {
				errs <- err
				return
			}
			errs <- s.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Open: %v", err)
		}
	}
}

func TestCloseTwice(t *testing.T) {
	s, _ := mustOpen(t)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestBusyIsRetriedByCode holds SQLite's write lock from another connection
// (as another process would) longer than the store waits for it: the
// store's transaction fails with SQLITE_BUSY, recognised by its code; held
// for less, the store's transaction runs again until it succeeds.
func TestBusyIsRetriedByCode(t *testing.T) {
	ctx := context.Background()
	short := func(o *options) { o.busyTimeout = 20 * time.Millisecond }
	s, path := mustOpen(t, short)
	mustCreateShow(t, s, "s1", 1, 4)

	other := reopen(t, path)
	lockFor := func(d time.Duration) <-chan struct{} {
		locked, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			tx, err := other.write.BeginTx(ctx, nil) // BEGIN IMMEDIATE
			if err != nil {
				t.Errorf("begin: %v", err)
				close(locked)
				return
			}
			close(locked)
			time.Sleep(d)
			tx.Rollback()
		}()
		<-locked
		return done
	}

	done := lockFor(300 * time.Millisecond)
	err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o1", "A1"), at(0).Rules)
	if !isBusy(err) {
		t.Errorf("HoldSeats under a foreign lock held past its wait: err = %v, want SQLITE_BUSY", err)
	}
	<-done

	s.opt.busyTimeout = time.Second
	done = lockFor(60 * time.Millisecond)
	if err := booking.HoldSeatsStep(ctx, s, at(0).Clock(), hold("s1", "o2", "A2"), at(0).Rules); err != nil {
		t.Errorf("HoldSeats retried past a short foreign lock: %v", err)
	}
	<-done

	if isBusy(errors.New("database is locked (SQLITE_BUSY)")) {
		t.Error("isBusy matched an error by its text")
	}
}

// TestOneSeatOneHoldAcrossProcesses races many holds for one seat through
// two stores on one file: the database lock lets exactly one win.
func TestOneSeatOneHoldAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	a, path := mustOpen(t)
	b := reopen(t, path)
	mustCreateShow(t, a, "s1", 2, 5)

	var wg sync.WaitGroup
	results := make(chan error, 40)
	for i := range 40 {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			err := booking.HoldSeatsStep(ctx, st, at(0).Clock(), hold("s1", fmt.Sprintf("o%d", i), "A3", fmt.Sprintf("B%d", i%5+1)), at(0).Rules)
			results <- err
		})
	}
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		switch {
		case err == nil:
			won++
		case booking.ErrorCode(err) != booking.ECONFLICT:
			t.Errorf("HoldSeats: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d holds of seat A3 succeeded, want exactly 1", won)
	}
	o, err := a.Occupancy(ctx, "s1", at(0))
	if err != nil || o.Held != 2 || o.Available != 8 {
		t.Errorf("Occupancy = %+v, %v; want 2 held, 8 available", o, err)
	}
}

// TestWALStaysBounded writes steadily with readers active and checks that
// the WAL file stays far below journal_size_limit, and that the idle
// checkpoint empties it.
func TestWALStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a few thousand transactions")
	}
	ctx := context.Background()
	s, path := mustOpen(t, func(o *options) { o.checkpointEvery = time.Second })
	mustCreateShow(t, s, "s1", 20, 25)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Seats(ctx, "s1"); err != nil {
					t.Errorf("Seats: %v", err)
					return
				}
			}
		})
	}
	var maxWAL int64
	n := 3000
	if raceEnabled {
		n = 300 // the race detector makes the pure-Go SQLite ~50x slower
	}
	start := time.Now()
	for i := range n {
		seat := fmt.Sprintf("%c%d", 'A'+i%20, i%25+1)
		// Every hold starts when the previous ones have lapsed.
		if err := booking.HoldSeatsStep(ctx, s, at(time.Duration(i)*ttl).Clock(), hold("s1", "o", seat), at(time.Duration(i)*ttl).Rules); err != nil {
			t.Fatalf("hold %d: %v", i, err)
		}
		if i%100 == 0 {
			if fi, err := os.Stat(path + "-wal"); err == nil {
				maxWAL = max(maxWAL, fi.Size())
			}
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d holds in %v; largest WAL seen: %d KiB", n, time.Since(start), maxWAL>>10)
	if maxWAL > walSizeLimit/2 {
		t.Errorf("WAL grew to %d bytes", maxWAL)
	}
	s.lastWrite.Store(0) // idle
	s.checkpoint(ctx)
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() != 0 {
		t.Errorf("WAL after idle checkpoint: %v, %v; want empty", fi.Size(), err)
	}
}
