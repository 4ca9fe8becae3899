package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
)

// never is a time after every run: a hold whose seats were freed at a
// time the tool did not see.
var never = time.Unix(1<<40, 0)

// holdRow is a hold as the database has it at the end.
type holdRow struct {
	id        string
	seats     []string
	createdAt time.Time
	state     string
}

// check reads the file after the run for what only it knows: when the
// first hold was made and when each show sold out (no seat available by
// the seat rule: held seats count), and whether a buyer lost every try
// while a block for its party was free (SPEC §18: the one-step best hold
// takes any block free at the moment of its step). A seat counts as free
// during a try when it is available at the end and nothing freed it after
// the try began: seats are freed only by Back and a declined payment,
// whose moments the tool saw, and by a lapsed lock (HOLD_TTL after the
// hold); a hold freed at a moment the tool did not see frees its seats at
// no known time, so they never count.
func (cr *crowd) check(ctx context.Context, j *journey) ([]string, error) {
	store, err := sqlite.Open(ctx, j.c.file)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	db, err := sql.Open("sqlite", j.c.file)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	now := time.Now()
	moment := booking.Rules{TTL: j.c.holdTTL}.At(now)
	cr.mu.Lock()
	defer cr.mu.Unlock()
	freedAt := map[string]time.Time{}
	for _, b := range cr.buyers {
		if b.holdID != "" && !b.freedAt.IsZero() {
			freedAt[b.holdID] = b.freedAt
		}
	}
	var bad []string
	for _, show := range j.shows {
		seats, err := store.Seats(ctx, show)
		if err != nil {
			return bad, fmt.Errorf("seats of show %s: %w", show, err)
		}
		holds, err := readHolds(ctx, db, show)
		if err != nil {
			return bad, err
		}
		// When each hold let its seats go: never, for a hold that
		// booked them or still holds them.
		release := func(h holdRow) time.Time {
			if t, ok := freedAt[h.id]; ok {
				return t
			}
			if h.state == "completed" {
				return never
			}
			if lapse := h.createdAt.Add(j.c.holdTTL); !lapse.After(now) {
				return lapse
			}
			return never
		}
		lastFreed := map[string]time.Time{}
		for _, h := range holds {
			if h.state == "completed" {
				continue
			}
			t := release(h)
			for _, id := range h.seats {
				if t.After(lastFreed[id]) {
					lastFreed[id] = t
				}
			}
			if cr.firstHold.IsZero() || h.createdAt.Before(cr.firstHold) {
				cr.firstHold = h.createdAt
			}
		}
		if t := soldOutAt(seats, holds, release); !t.IsZero() && (cr.soldOut.IsZero() || t.After(cr.soldOut)) {
			cr.soldOut = t
		}
		for _, b := range cr.buyers {
			if b.show != show {
				continue
			}
			if msg := lostWhileFree(b, seats, lastFreed, moment); msg != "" {
				cr.lostWhileFree++
				bad = append(bad, msg)
			}
		}
	}
	return bad, nil
}

// lostWhileFree says how buyer b lost every try while a block for its
// party was free: a block of seats available at the end (moment) that
// nothing freed (lastFreed) after a try began; "" when it did not.
func lostWhileFree(b *buyer, seats []booking.Seat, lastFreed map[string]time.Time, moment booking.Moment) string {
	if !b.lostAll {
		return ""
	}
	for _, t := range b.tries {
		free := func(s booking.Seat) bool { return s.AvailableAt(moment) && lastFreed[s.ID].Before(t.start) }
		if block, ok := booking.BestBlock(seats, booking.BestRequest{Party: b.party}, free); ok {
			return fmt.Sprintf("buyer %d (party of %d) lost every try; at its try at %s (answered %d) %v were free from before it to the end",
				b.n, b.party, t.start.Format("15:04:05.000"), t.status, block.IDs())
		}
	}
	return ""
}

// readHolds is every hold of show in the file.
func readHolds(ctx context.Context, db *sql.DB, show string) ([]holdRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, seat_ids, created_at, state FROM holds WHERE show_id = ?`, show)
	if err != nil {
		return nil, fmt.Errorf("holds of show %s: %w", show, err)
	}
	defer rows.Close()
	var out []holdRow
	for rows.Next() {
		var h holdRow
		var seats string
		var created int64
		if err := rows.Scan(&h.id, &seats, &created, &h.state); err != nil {
			return nil, err
		}
		h.seats = strings.Split(seats, ",")
		h.createdAt = time.Unix(0, created)
		out = append(out, h)
	}
	return out, rows.Err()
}

// soldOutAt is the first moment no seat of the show was available by the
// seat rule (every seat held or booked), from the holds' times and when
// each let its seats go; zero when that never happened.
func soldOutAt(seats []booking.Seat, holds []holdRow, release func(holdRow) time.Time) time.Time {
	type event struct {
		at    time.Time
		seats []string
		delta int
	}
	var events []event
	for _, h := range holds {
		events = append(events, event{h.createdAt, h.seats, 1})
		if t := release(h); t != never {
			events = append(events, event{t, h.seats, -1})
		}
	}
	sort.SliceStable(events, func(a, b int) bool { return events[a].at.Before(events[b].at) })
	locks := map[string]int{}
	taken := 0
	for _, e := range events {
		for _, id := range e.seats {
			before := locks[id]
			locks[id] += e.delta
			switch {
			case before <= 0 && locks[id] > 0:
				taken++
			case before > 0 && locks[id] <= 0:
				taken--
			}
		}
		if taken >= len(seats) && len(seats) > 0 {
			return e.at
		}
	}
	return time.Time{}
}

// crowdProgress prints a line to w every -progress while the crowd runs.
func (j *journey) crowdProgress(w io.Writer) (stop func()) {
	if j.c.progress <= 0 {
		return func() {}
	}
	cr := j.crowd
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
			}
			j.mu.Lock()
			errs := 0
			for _, n := range j.errs {
				errs += n
			}
			j.mu.Unlock()
			queue := ""
			if cr.onsaleID != "" {
				queue = fmt.Sprintf("  joined %d  admitted %d", cr.joined.Load(), cr.admitted.Load())
			}
			fmt.Fprintf(w, "%6.1fs  browsers %d/%d  watching %d%s  polls %d (304: %d)  holds %d  booked %d  errors %d  RSS %s\n",
				time.Since(j.started).Seconds(), cr.arrived.Load(), j.c.browsers, cr.watching.Load(), queue,
				cr.polls200.Load()+cr.polls304.Load(), cr.polls304.Load(), j.holds.Load(), j.booked.Load(), errs, mbs(j.servers.rss()))
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// crowdRoutes are the crowd report's rows, in order; "poll" is the 200s
// and 304s together.
var crowdRoutes = []string{"page", "poll", "poll 200", "poll 304", "poll 303", "queue", "join", "hold", "checkout", "pay", "sandbox page", "sandbox pay", "booking", "release"}

// printCrowd writes a crowd run's report: the routes' rows in the shape of
// the hold report, the polls, the buyers and their fairness, the sale, the
// queue, the CPU of the processes beside the tool's, and the audit.
func (j *journey) printCrowd(w io.Writer, elapsed time.Duration, n booking.AuditCounts, violations []string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	cr := j.crowd
	lat := maps.Clone(j.lat)
	lat["poll"] = append(slices.Clone(lat["poll 200"]), lat["poll 304"]...)
	total := 0
	for route, l := range j.lat {
		if route != "admin" {
			total += len(l)
		}
	}
	secs := cr.cpu.wall1.Sub(cr.cpu.wall0).Seconds()
	if secs <= 0 {
		secs = elapsed.Seconds()
	}
	buyers := len(cr.buyers)
	fmt.Fprintf(w, "%d requests in %s by %d browsers (%d buyers) arriving over %s, on %d processes sharing %s\n",
		total, time.Duration(secs*float64(time.Second)).Round(time.Millisecond), cr.arrived.Load(), buyers, j.c.ramp, j.c.procs, filepath.Base(j.c.file))
	latRows(w, crowdRoutes, lat, secs)
	polls := cr.polls200.Load() + cr.polls304.Load()
	if polls > 0 {
		fmt.Fprintf(w, "polls %d: %d not modified (304, %.0f %%), %d with a new map (200)\n", polls, cr.polls304.Load(), 100*float64(cr.polls304.Load())/float64(polls), cr.polls200.Load())
	}
	lostAll := 0
	for _, b := range cr.buyers {
		if b.lostAll {
			lostAll++
		}
	}
	fmt.Fprintf(w, "holds won %d, lost %d (no block for the party: 409); buyers %d, %d lost every try, %d of them while a block for their party was free\n",
		j.holds.Load(), j.lost[http.StatusConflict], buyers, lostAll, cr.lostWhileFree)
	for _, k := range slices.Sorted(maps.Keys(j.outcomes)) {
		fmt.Fprintf(w, "  %-24s %d\n", k, j.outcomes[k])
	}
	timeouts, fives := 0, 0
	for _, k := range slices.Sorted(maps.Keys(j.errs)) {
		fmt.Fprintf(w, "  error: %-17s %d\n", k, j.errs[k])
		status := k[strings.LastIndexByte(k, ' ')+1:]
		switch {
		case status == "timeout":
			timeouts += j.errs[k]
		case len(status) == 3 && status[0] == '5':
			fives += j.errs[k]
		}
	}
	fmt.Fprintf(w, "timeouts %d, 5xx %d\n", timeouts, fives)
	fmt.Fprintf(w, "seats sold %d of %d (%d bookings; %d seats still locked, %d available)\n", n.Booked, n.Seats, n.Confirmed, n.Locked, n.Available)
	switch {
	case cr.firstHold.IsZero():
		fmt.Fprintln(w, "no hold was made")
	case cr.soldOut.IsZero():
		fmt.Fprintf(w, "first hold %.1fs into the run; not sold out (a seat was available by the seat rule throughout)\n", cr.firstHold.Sub(cr.began).Seconds())
	default:
		fmt.Fprintf(w, "first hold %.1fs into the run; sold out (every seat held or booked) %.1fs after it\n",
			cr.firstHold.Sub(cr.began).Seconds(), cr.soldOut.Sub(cr.firstHold).Seconds())
	}
	if cr.onsaleID != "" {
		slices.Sort(cr.admitWait)
		fmt.Fprintf(w, "on-sale %s, %d a minute, opened %.1fs into the run: %d joined, %d admitted", cr.onsaleID, j.c.onsale, cr.t0.Sub(cr.began).Seconds(), cr.joined.Load(), cr.admitted.Load())
		if len(cr.admitWait) > 0 {
			fmt.Fprintf(w, " (in the queue p50 %s, max %s)", pct(cr.admitWait, 50), cr.admitWait[len(cr.admitWait)-1].Round(time.Millisecond))
		}
		waiting := 0
		for _, c := range cr.queueEnd {
			waiting += c
		}
		fmt.Fprintf(w, ", %d still in the queue at the end", waiting)
		if len(cr.lastAhead) > 0 {
			ahead := slices.Sorted(maps.Values(cr.lastAhead))
			fmt.Fprintf(w, " (ahead of them p50 %d, max %d)", ahead[len(ahead)/2], ahead[len(ahead)-1])
		}
		fmt.Fprintln(w)
	}
	j.printCPU(w, secs, polls)
	db, wal := j.fileSize()
	fmt.Fprintf(w, "file %.1f MB + WAL %.1f MB at the end\n", float64(db)/(1<<20), float64(wal)/(1<<20))
	if len(violations) == 0 {
		fmt.Fprintf(w, "invariants: ok, read from the database (%d bookings seen confirmed are confirmed; integrity_check ok; no buyer lost every try while a block was free)\n", len(j.confirmed))
	} else {
		fmt.Fprintf(w, "invariants: %d violated\n", len(violations))
	}
}

// printCPU writes the CPU of the tool beside the processes', and what a
// request costs the processes.
func (j *journey) printCPU(w io.Writer, secs float64, polls int64) {
	r := &j.crowd.cpu
	self := r.self1 - r.self0
	server := r.server()
	parts := make([]string, len(server))
	for i, d := range server {
		parts[i] = fmt.Sprintf("%.1fs (%.0f %%)", d.Seconds(), 100*d.Seconds()/secs)
	}
	all := sum(server)
	fmt.Fprintf(w, "CPU over %.0fs: load tool %.1fs (%.0f %% of a core), processes %s\n", secs, self.Seconds(), 100*self.Seconds()/secs, strings.Join(parts, ", "))
	var requests int64
	for k := range kinds {
		requests += j.crowd.counts[k].Load()
	}
	fmt.Fprintf(w, "server CPU per request, all CPU ÷ count: %s a request (%d), %s a poll (%d)\n",
		perReq(all, requests), requests, perReq(all, polls), polls)
	cost, seen, idle, ok := r.share()
	if !ok {
		fmt.Fprintln(w, "server CPU by kind: too few one-second windows to tell")
		return
	}
	var by []string
	for k := range kinds {
		if !seen[k] {
			continue
		}
		by = append(by, fmt.Sprintf("%s %s", kindNames[k], cost[k].Round(time.Microsecond)))
	}
	fmt.Fprintf(w, "server CPU by kind, estimated by least squares over %d one-second windows: %s; besides requests %s a second\n",
		len(r.windows), strings.Join(by, ", "), idle.Round(time.Millisecond))
}

func perReq(cpu time.Duration, n int64) string {
	if n == 0 {
		return "-"
	}
	return (cpu / time.Duration(n)).Round(time.Microsecond).String()
}

// latRows writes a header and a row per route that has latencies, in the
// shape of the hold report: count, per second, p50, p90, p99, max.
func latRows(w io.Writer, routes []string, lat map[string][]time.Duration, secs float64) {
	fmt.Fprintf(w, "%-14s %7s %8s %9s %9s %9s %9s\n", "route", "count", "per-s", "p50", "p90", "p99", "max")
	for _, route := range routes {
		l := lat[route]
		if len(l) == 0 {
			continue
		}
		slices.Sort(l)
		fmt.Fprintf(w, "%-14s %7d %8.*f %9s %9s %9s %9s\n", route, len(l), perSDigits(float64(len(l))/secs), float64(len(l))/secs,
			pct(l, 50), pct(l, 90), pct(l, 99), l[len(l)-1].Round(time.Microsecond))
	}
}

// perSDigits shows a small rate with a decimal.
func perSDigits(r float64) int {
	if r < 10 {
		return 1
	}
	return 0
}
