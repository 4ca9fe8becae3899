package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
)

// measureMemory records the processes' memory (servers.memory) as when.
func (j *journey) measureMemory(when string) {
	m, err := j.servers.memory(when)
	if j.memory == nil {
		j.memory = map[string][]memory{}
	}
	j.memory[when] = m
	if err != nil {
		j.memoryErrs = append(j.memoryErrs, fmt.Errorf("memory %s: %w", when, err))
	}
}

// fileSize is the bytes of the database file and of its WAL.
func (j *journey) fileSize() (db, wal int64) {
	if fi, err := os.Stat(j.c.file); err == nil {
		db = fi.Size()
	}
	if fi, err := os.Stat(j.c.file + "-wal"); err == nil {
		wal = fi.Size()
	}
	return db, wal
}

func (j *journey) reportProgress(w io.Writer) (stop func()) {
	if j.c.progress <= 0 {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(j.c.progress)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				rss := j.servers.rss()
				db, wal := j.fileSize()
				j.mu.Lock()
				j.peakFile = max(j.peakFile, db+wal)
				for i, kb := range rss {
					if i < len(j.peakRSS) {
						j.peakRSS[i] = max(j.peakRSS[i], kb)
					} else {
						j.peakRSS = append(j.peakRSS, kb)
					}
				}
				errs := 0
				for _, n := range j.errs {
					errs += n
				}
				j.mu.Unlock()
				fmt.Fprintf(w, "%6.1fs  moviegoers %d/%d  holds %d  booked %d  errors %d  RSS %s  file %.1f MB + WAL %.1f MB\n",
					time.Since(j.started).Seconds(), j.done.Load(), j.c.moviegoers, j.holds.Load(), j.booked.Load(), errs, mbs(rss),
					float64(db)/(1<<20), float64(wal)/(1<<20))
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// Outcomes of a moviegoer's journey.
const (
	endPaid       = "paid"
	endDeclined   = "declined"
	endBack       = "back"
	endWalked     = "walked away"
	endNoBlock    = "no block for the party"
	endSoldOut    = "sold out"
	endLost       = "lost every try"
	endError      = "error"
	endCutOff     = "cut off by the end of the run"
	endPaidFailed = "paid, failed"
	// endStillPending is a payment the sandbox took whose booking was still
	// pending 5 s later: its callback was lost with a killed process (the
	// sandbox's retries live in memory), or is late.
	endStillPending = "paid, still pending"
)

// audit reads the file once every process has stopped: the invariants, the
// bookings moviegoers saw confirmed, and SQLite's integrity check.
func (j *journey) audit(ctx context.Context) ([]string, booking.AuditCounts, error) {
	store, err := sqlite.Open(ctx, j.c.file)
	if err != nil {
		return nil, booking.AuditCounts{}, err
	}
	defer store.Close()
	var bad []string
	var counts booking.AuditCounts
	byID := map[string]booking.Booking{}
	for _, show := range j.shows {
		a, err := booking.LoadAudit(ctx, store, show)
		if err != nil {
			return nil, counts, fmt.Errorf("audit of show %s: %w", show, err)
		}
		v, n := booking.CheckAudit(a, booking.Rules{TTL: j.c.holdTTL}.At(time.Now()))
		for _, e := range v {
			bad = append(bad, "show "+show+": "+e)
		}
		counts = counts.Add(n)
		for _, b := range a.Bookings {
			byID[b.ID] = b
		}
	}
	for _, id := range slices.Sorted(maps.Keys(j.confirmed)) {
		b, ok := byID[id]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("booking %s was confirmed to a moviegoer and is not in the database", id))
		case b.State != booking.BookingConfirmed:
			bad = append(bad, fmt.Sprintf("booking %s was confirmed to a moviegoer and is now %s", id, b.State))
		case !slices.Equal(booking.NormalizeSeatIDs(j.confirmed[id]), b.SeatIDs):
			bad = append(bad, fmt.Sprintf("booking %s was confirmed for %v and has %v", id, j.confirmed[id], b.SeatIDs))
		}
	}
	db, err := sql.Open("sqlite", j.c.file)
	if err != nil {
		return bad, counts, err
	}
	defer db.Close()
	var verdict string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&verdict); err != nil {
		return bad, counts, fmt.Errorf("integrity_check: %w", err)
	}
	if verdict != "ok" {
		bad = append(bad, "integrity_check: "+verdict)
	}
	return bad, counts, nil
}

// print writes the report: a row per route in the shape of the hold
// report (count, per second, percentiles), then the journeys' ends, the
// sale and the audit.
func (j *journey) print(w io.Writer, elapsed, killedAt, unserved time.Duration, n booking.AuditCounts, violations []string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	total := 0
	for _, l := range j.lat {
		total += len(l)
	}
	fmt.Fprintf(w, "%d requests in %s by %d moviegoers, %d at a time, on %d processes sharing %s\n",
		total, elapsed.Round(time.Millisecond), j.done.Load(), j.c.users, j.c.procs, filepath.Base(j.c.file))
	if j.c.kill {
		fmt.Fprintf(w, "process 1 killed (SIGKILL) at %.1fs, after %d holds, and started again: %s unserved\n", killedAt.Seconds(), j.killAt, unserved.Round(time.Millisecond))
	}
	latRows(w, []string{"best", "hold", "pay", "sandbox page", "sandbox pay", "booking", "release"}, j.lat, elapsed.Seconds())
	fmt.Fprintf(w, "holds won %d, lost %d (taken meanwhile: 409), refused %d (a single gap: 422)\n",
		j.holds.Load(), j.lost[http.StatusConflict], j.lost[http.StatusUnprocessableEntity])
	for _, k := range slices.Sorted(maps.Keys(j.outcomes)) {
		fmt.Fprintf(w, "  %-24s %d\n", k, j.outcomes[k])
	}
	for _, k := range slices.Sorted(maps.Keys(j.errs)) {
		fmt.Fprintf(w, "  error: %-17s %d\n", k, j.errs[k])
	}
	fmt.Fprintf(w, "seats sold %d of %d (%d bookings; %d seats still locked, %d available)\n", n.Booked, n.Seats, n.Confirmed, n.Locked, n.Available)
	if j.soldOut > 0 {
		fmt.Fprintf(w, "sold out after %.1fs\n", j.soldOut.Seconds())
	}
	db, wal := j.fileSize()
	fmt.Fprintf(w, "file %.1f MB + WAL %.1f MB at the end", float64(db)/(1<<20), float64(wal)/(1<<20))
	if j.peakFile > 0 {
		fmt.Fprintf(w, " (at most %.1f MB in all at a progress line)", float64(max(j.peakFile, db+wal))/(1<<20))
	}
	fmt.Fprintln(w)
	if len(j.peakRSS) > 0 {
		fmt.Fprintf(w, "peak resident memory per process: %s\n", mbs(j.peakRSS))
	}
	for _, when := range []string{"idle before", "at the end", "idle after"} {
		m, ok := j.memory[when]
		if !ok {
			continue
		}
		label := when
		if when == "idle after" {
			label += " " + j.c.idle.String()
		}
		parts := make([]string, len(m))
		for i, p := range m {
			parts[i] = p.String()
		}
		fmt.Fprintf(w, "memory %-18s %s\n", label+":", strings.Join(parts, " | "))
	}
	for _, err := range j.memoryErrs {
		fmt.Fprintf(w, "  %v\n", err)
	}
	if len(violations) == 0 {
		fmt.Fprintf(w, "invariants: ok, read from the database (%d bookings seen confirmed are confirmed; integrity_check ok)\n", len(j.confirmed))
	} else {
		fmt.Fprintf(w, "invariants: %d violated\n", len(violations))
	}
}

// mbs writes resident sizes in kB as "27 MB, 31 MB".
func mbs(kbs []int64) string {
	parts := make([]string, len(kbs))
	for i, kb := range kbs {
		parts[i] = fmt.Sprintf("%d MB", (kb+512)/1024)
	}
	return strings.Join(parts, ", ")
}
