package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// addSessions inserts n sessions of 300 bytes that expired at expiry, in
// one transaction.
func addSessions(tb testing.TB, s *Store, prefix string, n int, expiry time.Time) {
	tb.Helper()
	ctx := context.Background()
	data := make([]byte, 300)
	err := s.inTx(ctx, "add sessions", func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO sessions (token, data, expiry) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range n {
			_, _ = rand.Read(data)
			if _, err := st.ExecContext(ctx, fmt.Sprintf("%s%08d", prefix, i), data, expiry.UnixNano()+int64(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func countRows(tb testing.TB, s *Store, query string, args ...any) int {
	tb.Helper()
	var n int
	if err := s.read.QueryRow(query, args...).Scan(&n); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestPruneStepHoldsTheLockBriefly is how pruneStep was chosen: with
// PRUNE_MEASURE=1 it fills a database with 200k expired sessions for each
// of several step sizes and times 40 of Prune's DELETE statements of
// sessions, each of which holds the write lock from its start to its
// commit, and, on a database of its own, one DELETE of all 200k. Without
// PRUNE_MEASURE it checks pruneStep on 20k sessions against a bound far
// above the measured time, so that it says something on a slow or busy
// machine too.
func TestPruneStepHoldsTheLockBriefly(t *testing.T) {
	n, measure := 20_000, os.Getenv("PRUNE_MEASURE") != ""
	if measure {
		n = 200_000
	} else if testing.Short() || raceEnabled {
		n = 5_000
	}
	ctx := context.Background()
	old := time.Now().Add(-48 * time.Hour)
	cut := old.Add(time.Hour).UnixNano()
	fresh := func() *Store {
		s, _ := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
		addSessions(t, s, "old", n, old)
		return s
	}

	steps := []int{pruneStep}
	if measure {
		steps = []int{100, 250, 500, 1000, 2000, 5000}
	}
	for _, step := range steps {
		s := fresh()
		if measure {
			// What holds the write lock is the statement and its
			// commit; SQLite's autocheckpoint, which the committing
			// connection runs afterwards, takes no lock a writer waits
			// for, so it is left out of the times.
			if _, err := s.write.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
				t.Fatal(err)
			}
		}
		var took []time.Duration
		for range min(40, n/step) {
			start := time.Now()
			res, err := s.write.ExecContext(ctx, prunables[0].sql, cut, step)
			took = append(took, time.Since(start))
			if err != nil {
				t.Fatal(err)
			}
			if k, _ := res.RowsAffected(); int(k) != step {
				t.Fatalf("a step of %d deleted %d sessions", step, k)
			}
		}
		slices.Sort(took)
		med, p90 := took[len(took)/2], took[len(took)*9/10]
		t.Logf("DELETE of %5d of %d expired sessions: median %v, p90 %v, worst %v", step, n, med, p90, took[len(took)-1])
		if step == pruneStep && !raceEnabled && med > 50*time.Millisecond {
			t.Errorf("a step of %d held the write lock %v (median), want a few ms", step, med)
		}
		s.Close()
	}
	// A step of holds reads each hold's payments, bookings and locked
	// seats before it deletes: a walk of released holds, all to go.
	{
		s, _ := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
		mustCreateShow(t, s, "s1", 1, 2)
		addHolds(t, s, old, n, func(int) string { return string(booking.HoldReleased) })
		if _, err := s.write.ExecContext(ctx, `PRAGMA wal_autocheckpoint = 0`); err != nil {
			t.Fatal(err)
		}
		var took []time.Duration
		for range min(40, n/pruneStep) {
			s.pruneNext = time.Time{} // no rest: the step alone
			start := time.Now()
			k, err := s.pruneHolds(ctx, old.Add(time.Hour), pruneStep)
			took = append(took, time.Since(start))
			if err != nil || k != pruneStep {
				t.Fatalf("a step of holds deleted %d, %v; want %d", k, err, pruneStep)
			}
		}
		slices.Sort(took)
		med := took[len(took)/2]
		t.Logf("a step of %d of %d released holds: median %v, p90 %v, worst %v", pruneStep, n, med, took[len(took)*9/10], took[len(took)-1])
		if !raceEnabled && med > 50*time.Millisecond {
			t.Errorf("a step of %d holds held the write lock %v (median), want a few ms", pruneStep, med)
		}
	}
	if measure {
		s := fresh()
		start := time.Now()
		res, err := s.write.ExecContext(ctx, `DELETE FROM sessions WHERE expiry < ?`, cut)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := res.RowsAffected()
		t.Logf("one DELETE of all %d sessions: %v", k, time.Since(start))
	}
}

// TestPruneDoesNotStallAnotherProcess drains expired sessions with Prune,
// in calls of limit pruneStep as the serve loop makes them, while a second
// process holds one seat again and again: each step holds the write lock
// for a millisecond or so, and rests between steps, so that no hold of
// the other process waits long (one DELETE of everything due would hold
// the lock for a long time: TestPruneStepHoldsTheLockBriefly).
func TestPruneDoesNotStallAnotherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a second process")
	}
	n := 50_000
	if raceEnabled {
		n = 5_000
	}
	ctx := context.Background()
	s, path := mustOpen(t, func(o *options) { o.sessionGCEvery = 0 })
	mustCreateShow(t, s, "s1", 1, 2)
	old := time.Now().Add(-48 * time.Hour)
	addSessions(t, s, "old", n, old)
	addSessions(t, s, "live", 10, time.Now().Add(time.Hour))

	holder := startHelper(t, "holder", path)
	// Its holds are kept (their ids are of today, past Prune's cut), so
	// their count says how far it got.
	holds := func() int { return countRows(t, s, `SELECT count(*) FROM holds`) }
	testkit.Eventually(t, 10*time.Second, func() bool { return holds() >= 3 }, "a few holds of the other process before Prune")
	calls, total, longest := 0, 0, time.Duration(0)
	for {
		start := time.Now()
		k, err := s.Prune(ctx, old.Add(time.Hour), pruneStep)
		longest = max(longest, time.Since(start))
		if err != nil {
			t.Fatalf("Prune: %v", err)
		}
		calls++
		total += k
		if k < pruneStep {
			break
		}
	}
	done := holds()
	testkit.Eventually(t, 10*time.Second, func() bool { return holds() >= done+3 }, "a few holds of the other process after Prune")
	var count, failed int
	var p50, p99, worst time.Duration
	res := holder.stop()
	if !scan(res, "helper:holds %d %d %d %d %d", &count, &p50, &p99, &worst, &failed) {
		t.Fatalf("holder reported %q", res)
	}
	t.Logf("Prune: %d calls deleted %d sessions, the longest call %v; beside it %d holds of another process: p50 %v, p99 %v, worst %v",
		calls, total, longest, count, p50, p99, worst)
	if total != n || calls != n/pruneStep+1 {
		t.Errorf("%d calls of Prune deleted %d sessions, want %d calls deleting %d", calls, total, n/pruneStep+1, n)
	}
	if left := countRows(t, s, `SELECT count(*) FROM sessions`); left != 10 {
		t.Errorf("%d sessions left, want the 10 live ones", left)
	}
	if failed > 0 {
		t.Errorf("%d holds of the other process failed", failed)
	}
	// Generous, for a loaded machine; the point is the difference from
	// one DELETE of everything.
	if worst > 250*time.Millisecond {
		t.Errorf("a hold of the other process took %v while Prune ran, want well under the 0.37 s of one DELETE", worst)
	}
}

// addHolds inserts holds made one millisecond apart from start, in state
// state(i), with no seats: what Prune finds of holds long over.
func addHolds(tb testing.TB, s *Store, start time.Time, n int, state func(i int) string) {
	tb.Helper()
	ctx := context.Background()
	err := s.inTx(ctx, "add holds", func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
			VALUES (?, 's1', ?, 'A1', 100, 'INR', ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range n {
			at := start.Add(time.Duration(i) * time.Millisecond)
			if _, err := st.ExecContext(ctx, booking.NewHoldID(at), fmt.Sprintf("o%d", i), at.UnixNano(), state(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// TestPruneHoldsGoesOnWhereItStopped: among old holds that stay for good
// (completed), the released ones go pruneStep at a time over several steps
// and calls, each call going on from where the last stopped, never walking
// back; the walk starts over once it reaches the cutoff.
func TestPruneHoldsGoesOnWhereItStopped(t *testing.T) {
	s, _ := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
	mustCreateShow(t, s, "s1", 1, 2)
	ctx := context.Background()
	start := t0.Add(-48 * time.Hour)
	n := 3*pruneStep + 17
	addHolds(t, s, start, n, func(i int) string {
		if i%3 == 0 {
			return string(booking.HoldReleased)
		}
		return string(booking.HoldCompleted)
	})
	addHolds(t, s, t0, 10, func(int) string { return string(booking.HoldReleased) }) // after the cutoff
	cutoff := t0.Add(-time.Hour)
	released := (n + 2) / 3
	limit := pruneStep / 5
	total, prev := 0, ""
	for calls := 0; ; calls++ {
		k, err := s.Prune(ctx, cutoff, limit)
		if err != nil {
			t.Fatal(err)
		}
		total += k
		if k < limit {
			if s.pruneAfter != "" {
				t.Errorf("the walk ended at %q, want it to start over", s.pruneAfter)
			}
			break
		}
		if s.pruneAfter <= prev {
			t.Fatalf("call %d: the walk went from %q back to %q", calls, prev, s.pruneAfter)
		}
		prev = s.pruneAfter
	}
	if total != released {
		t.Errorf("Prune deleted %d holds, want the %d released ones", total, released)
	}
	if left := countRows(t, s, `SELECT count(*) FROM holds WHERE state = 'released'`); left != 10 {
		t.Errorf("%d released holds left, want the 10 made after the cutoff", left)
	}
	if left := countRows(t, s, `SELECT count(*) FROM holds WHERE state = 'completed'`); left != n-released {
		t.Errorf("%d completed holds left, want all %d", left, n-released)
	}
}

// TestPruneSessionsAndRateLimits: what expired or ended before the cutoff
// goes; the rest stays.
func TestPruneSessionsAndRateLimits(t *testing.T) {
	s, _ := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
	ctx := context.Background()
	cutoff := time.Now().Add(-24 * time.Hour)
	addSessions(t, s, "old", 7, cutoff.Add(-time.Hour))
	addSessions(t, s, "new", 3, cutoff.Add(time.Hour))
	l := newLimiter(t, s)
	for i := range 5 {
		if _, _, err := l.allowAt(ctx, cutoff.Add(-time.Hour), fmt.Sprintf("old%d", i), 10, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := l.allowAt(ctx, cutoff, "new", 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Prune(ctx, cutoff, 100); err != nil || n != 12 {
		t.Errorf("Prune = %d, %v; want the 7 sessions and 5 windows from before the cutoff", n, err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM sessions`); n != 3 {
		t.Errorf("%d sessions left, want 3", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM rate_limits`); n != 1 {
		t.Errorf("%d rate-limit windows left, want 1", n)
	}
}

// walks reports whether a step of a query plan walks a table: a scan,
// other than json_each's of a list the query was given or a hold's own seat
// ids (holdSeatIDs), or a sort.
func walks(step string) bool {
	return strings.HasPrefix(step, "SCAN ") && !strings.HasPrefix(step, "SCAN json_each VIRTUAL TABLE") ||
		strings.Contains(step, "TEMP B-TREE")
}

// TestPruneUsesIndexes: every statement of Prune finds its rows through an
// index, never by walking a table while it holds the write lock.
func TestPruneUsesIndexes(t *testing.T) {
	s, _ := mustOpen(t)
	queries := []string{pruneHoldsSQL}
	for _, p := range prunables {
		queries = append(queries, p.sql)
	}
	for _, q := range queries {
		rows, err := s.read.Query("EXPLAIN QUERY PLAN "+q, 1, 2, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if walks(step) {
				t.Errorf("%s\nplan %q walks a table", q, plan)
			}
		}
	}
}

// TestFileStaysFlatWithPruning: day after day of the same history (ended
// holds and sessions, 3,000 of each a day, 1,000 with -race), pruned each day to the last
// day's as RETENTION=24h would, the file stops growing from the third day
// on: SQLite reuses the pages Prune frees. Without Prune it grows
// by a day's history each day, which the test checks too, so that it
// would notice history that no longer reaches the file.
func TestFileStaysFlatWithPruning(t *testing.T) {
	const days = 8
	perDay := 3000
	if raceEnabled || testing.Short() {
		perDay = 1000 // the race detector makes every insert several times dearer
	}
	run := func(prune bool) []int64 {
		s, path := mustOpen(t, func(o *options) { o.checkpointEvery = 0; o.sessionGCEvery = 0 })
		mustCreateShow(t, s, "s1", 1, 2)
		ctx := context.Background()
		var sizes []int64
		for d := range days {
			start := t0.Add(time.Duration(d) * 24 * time.Hour)
			addHolds(t, s, start, perDay, func(int) string { return string(booking.HoldReleased) })
			addSessions(t, s, fmt.Sprintf("d%d-", d), perDay, start)
			if prune {
				for {
					n, err := s.Prune(ctx, start.Add(-24*time.Hour), 10_000)
					if err != nil {
						t.Fatal(err)
					}
					if n < 10_000 {
						break
					}
				}
			}
			if _, err := s.walCheckpoint(ctx, "TRUNCATE"); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, fi.Size())
		}
		return sizes
	}
	pruned, kept := run(true), run(false)
	t.Logf("file by day, pruned: %v; kept: %v", pruned, kept)
	if last, third := pruned[days-1], pruned[2]; last > third+third/20 {
		t.Errorf("pruned: the file grew from %d bytes on day 3 to %d on day %d, want it flat (within 5%%)", third, last, days)
	}
	if grown := kept[days-1] - kept[2]; grown < (pruned[2]-pruned[0])*2 {
		t.Errorf("kept: the file grew by only %d bytes in five days of history; the test's history does not reach the file", grown)
	}
}
