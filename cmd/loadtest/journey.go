package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
)

// journeyConfig is what the journey's flags set.
type journeyConfig struct {
	bin, file       string
	procs           int
	kill            bool
	moviegoers      int // 0: until -duration
	shows, spread   int
	idle            time.Duration
	users           int
	rows, cols      int
	party           int
	pay, decline    float64
	back            float64
	holdTTL         time.Duration
	duration        time.Duration
	timeout         time.Duration
	seed            uint64
	progress        time.Duration
	extraEnv        []string
	keepDB, verbose bool
}

func parseJourneyFlags(args []string, out io.Writer) (journeyConfig, error) {
	fs := flag.NewFlagSet("loadtest journey", flag.ContinueOnError)
	fs.SetOutput(out)
	var c journeyConfig
	fs.StringVar(&c.bin, "bin", "bin/boxoffice", "the boxoffice binary to run (make build)")
	fs.StringVar(&c.file, "db", "", "SQLite file to create (default: a new temporary file, removed after a passing run)")
	fs.IntVar(&c.procs, "procs", 2, "boxoffice processes on the one file, the moviegoers spread over them")
	fs.BoolVar(&c.kill, "kill", false, "SIGKILL one process half way through the sale (when the holds made would fill half the hall) and start it again")
	fs.IntVar(&c.moviegoers, "moviegoers", 1000, "moviegoers in all, each a new browser: its own session, CSRF token and address (0: as many as -duration allows)")
	fs.IntVar(&c.shows, "shows", 1, "shows of -rows×-cols seats in the database (a million seats: -shows 2000 -rows 20 -cols 25); the moviegoers go to the first")
	fs.IntVar(&c.spread, "spread", 1, "moviegoers go to one of the first this many shows, at random, so that a long run does not sell out")
	fs.DurationVar(&c.idle, "idle", 0, "after the moviegoers, wait this long and measure each process's memory again")
	fs.IntVar(&c.users, "users", 16, "moviegoers at a time")
	fs.IntVar(&c.rows, "rows", 20, "rows of the show's hall")
	fs.IntVar(&c.cols, "cols", 25, "seats a row")
	fs.IntVar(&c.party, "party", 4, "largest party; each moviegoer asks best available for 1 to this many")
	fs.Float64Var(&c.pay, "pay", 0.6, "probability that a moviegoer with a hold pays (and the payment succeeds)")
	fs.Float64Var(&c.decline, "decline", 0.1, "probability that the payment is declined")
	fs.Float64Var(&c.back, "back", 0.15, "probability of pressing Back (release); the rest walk away and let the hold lapse")
	fs.DurationVar(&c.holdTTL, "hold-ttl", 15*time.Minute, "HOLD_TTL of the processes")
	fs.DurationVar(&c.duration, "duration", 10*time.Minute, "the run stops after this long even if moviegoers are left")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.Uint64Var(&c.seed, "seed", 0, "random seed of the moviegoers' choices (0: from the clock)")
	fs.DurationVar(&c.progress, "progress", 2*time.Second, "how often to print progress to stderr (0: never)")
	fs.BoolVar(&c.keepDB, "keep", false, "keep the database file after a passing run")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case c.procs < 1 || c.procs > 16:
		return c, errors.New("-procs must be between 1 and 16")
	case c.moviegoers < 0 || c.users < 1 || c.shows < 1 || c.idle < 0:
		return c, errors.New("-moviegoers must not be negative, -users and -shows at least 1, -idle not negative")
	case c.spread < 1 || c.spread > c.shows:
		return c, errors.New("-spread must be between 1 and -shows")
	case c.rows < 1 || c.cols < 1 || c.party < 1:
		return c, errors.New("-rows, -cols and -party must be at least 1")
	case c.pay < 0 || c.decline < 0 || c.back < 0 || c.pay+c.decline+c.back > 1:
		return c, errors.New("-pay, -decline and -back are probabilities that add up to at most 1")
	case c.duration <= 0 || c.timeout <= 0:
		return c, errors.New("-duration and -timeout must be positive")
	}
	if c.seed == 0 {
		c.seed = uint64(time.Now().UnixNano())
	}
	return c, nil
}

// journey is one run: its servers, its moviegoers' tallies.
type journey struct {
	c       journeyConfig
	servers *servers
	shows   []string // those the moviegoers go to
	started time.Time

	mu        sync.Mutex
	lat       map[string][]time.Duration // by route
	errs      map[string]int             // by route: transport errors and unexpected statuses
	outcomes  map[string]int             // how moviegoers' journeys ended
	lost      map[int]int                // holds refused: 409 taken, 422 a gap
	confirmed map[string][]string        // booking id: seats, as the booking pages said
	soldOut   time.Duration              // when a moviegoer first found nothing left

	done, holds, booked atomic.Int64

	memory     map[string][]memory // of each process, by when: memoryWhen
	memoryErrs []error
	peakRSS    []int64 // kB, the most seen while the moviegoers went
	peakFile   int64   // bytes of the database file and its WAL, the most seen

	killAt  int64         // -kill: the hold after which to kill
	killNow chan struct{} // closed then
	killed  atomic.Bool
}

// runJourney runs simulated moviegoers through the real routes of
// -procs boxoffice processes on one SQLite file, then reads the file and
// checks the invariants of booking.CheckAudit, that every booking a
// moviegoer saw confirmed is still confirmed, and PRAGMA integrity_check.
// A violation is an error, with the evidence.
func runJourney(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseJourneyFlags(args, stdout)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	temp := ""
	if c.file == "" {
		temp, err = os.MkdirTemp("", "boxoffice-journey-")
		if err != nil {
			return err
		}
		c.file = filepath.Join(temp, "journey.db")
	} else if _, err := os.Stat(c.file); err == nil {
		return fmt.Errorf("-db %s exists; the run needs a new file", c.file)
	}
	j := &journey{c: c, lat: map[string][]time.Duration{}, errs: map[string]int{}, outcomes: map[string]int{}, lost: map[int]int{}, confirmed: map[string][]string{}}
	j.servers = &servers{bin: c.bin, file: c.file, env: append(os.Environ(),
		"SEED_DEMO=false", "HOLD_TTL="+c.holdTTL.String(), "PAYMENT_PROVIDER=sandbox",
		"PAYMENT_WEBHOOK_SECRET="+randomSecret())}
	ids, err := j.servers.seed(ctx, c.shows, c.rows, c.cols)
	if err != nil {
		return err
	}
	j.shows = ids[:c.spread]
	if err := j.servers.start(ctx, c.procs); err != nil {
		j.servers.stop()
		return err
	}
	j.measureMemory("idle before")
	killed, unserved, runErr := j.run(ctx, stderr)
	j.measureMemory("at the end")
	if c.idle > 0 {
		select {
		case <-time.After(c.idle):
		case <-ctx.Done():
		}
		j.measureMemory("idle after")
	}
	stopErr := j.servers.stop()
	elapsed := time.Since(j.started)
	violations, counts, auditErr := j.audit(ctx)
	j.print(stdout, elapsed, killed, unserved, counts, violations)
	if err := errors.Join(runErr, stopErr, auditErr); err != nil {
		return fmt.Errorf("%w (database kept: %s)", err, c.file)
	}
	violations = append(violations, j.served()...)
	if len(violations) > 0 {
		return fmt.Errorf("%d violations (database kept: %s):\n  %s", len(violations), c.file, strings.Join(violations, "\n  "))
	}
	if temp != "" && !c.keepDB {
		os.RemoveAll(temp)
	}
	return nil
}

// run sends the moviegoers, c.users at a time, round-robin over the
// processes, killing one half way through the sale when asked. It returns
// when it killed and how long the address went unserved.
func (j *journey) run(ctx context.Context, stderr io.Writer) (killedAt, unserved time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, j.c.duration)
	defer cancel()
	transport := &http.Transport{DialContext: loopbackDialer.DialContext, MaxIdleConnsPerHost: j.c.users + 4, IdleConnTimeout: time.Minute}
	defer transport.CloseIdleConnections()
	next := make(chan int)
	var wg sync.WaitGroup
	j.started = time.Now()
	for u := range j.c.users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(j.c.seed, uint64(u)))
			for n := range next {
				j.moviegoer(ctx, n, transport, rng)
				j.done.Add(1)
			}
		}()
	}
	var killErr error
	var killWG sync.WaitGroup
	if j.c.kill {
		// Half way through the sale: when the holds made would fill half
		// the hall at the average party size.
		j.killAt = max(1, int64(len(j.shows)*j.c.rows*j.c.cols)*2/int64(1+j.c.party)/2)
		j.killNow = make(chan struct{})
		killWG.Add(1)
		go func() {
			defer killWG.Done()
			select {
			case <-j.killNow:
			case <-ctx.Done():
				return
			}
			killedAt = time.Since(j.started)
			unserved, killErr = j.servers.kill(ctx, 0)
			fmt.Fprintf(stderr, "%6.1fs  killed process 1 (SIGKILL) after %d holds and started it again: %s unserved\n",
				killedAt.Seconds(), j.killAt, unserved.Round(time.Millisecond))
		}()
	}
	stopProgress := j.reportProgress(stderr)
	for n := 0; j.c.moviegoers == 0 || n < j.c.moviegoers; n++ {
		select {
		case next <- n:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if j.killNow != nil && !j.killed.Load() {
		cancel() // the sale ended before the kill: say so below
		killErr = errors.New("-kill: the run ended before half the hall was held; use more moviegoers")
	}
	killWG.Wait()
	stopProgress()
	if ctx.Err() != nil && j.c.moviegoers > 0 && int(j.done.Load()) < j.c.moviegoers {
		err = fmt.Errorf("stopped after -duration %s with %d of %d moviegoers done", j.c.duration, j.done.Load(), j.c.moviegoers)
	}
	return killedAt, unserved, errors.Join(err, killErr)
}

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

// moviegoer is one person's visit: best available for a party, hold it
// (trying again when someone else was quicker), then pay, decline, go back
// or walk away.
func (j *journey) moviegoer(ctx context.Context, n int, transport http.RoundTripper, rng *rand.Rand) {
	jar, _ := cookiejar.New(nil)
	b := &browser{j: j, ctx: ctx, addr: fmt.Sprintf("198.%d.%d.%d", 18+n>>16&1, n>>8&0xff, n&0xff),
		base:   j.servers.procs[n%len(j.servers.procs)].url(),
		client: &http.Client{Transport: transport, Jar: jar, Timeout: j.c.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	party := 1 + rng.IntN(j.c.party)
	show := j.shows[rng.IntN(len(j.shows))]
	for try := 0; ; try++ {
		doc, ok := b.getDoc("best", "/shows/"+show+"?best="+fmt.Sprint(party))
		if !ok {
			j.end(b.failed())
			return
		}
		var seats []string
		doc.Find("[data-suggested]").Each(func(_ int, s *goquery.Selection) { seats = append(seats, s.AttrOr("data-seat-id", "")) })
		if len(seats) == 0 {
			if doc.Find(`[data-seat-id][data-state="available"]`).Length() == 0 {
				j.markSoldOut()
				j.end(endSoldOut)
			} else {
				j.end(endNoBlock)
			}
			return
		}
		csrf := doc.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
		status, loc, ok := b.post("hold", "/shows/"+show+"/holds", url.Values{"_csrf": {csrf}, "seat": seats})
		switch {
		case !ok:
			j.end(b.failed())
			return
		case status == http.StatusSeeOther:
			if j.holds.Add(1) == j.killAt && j.killNow != nil && j.killed.CompareAndSwap(false, true) {
				close(j.killNow)
			}
			j.after(b, loc, seats, csrf, rng)
			return
		case status == http.StatusConflict || status == http.StatusUnprocessableEntity:
			j.mu.Lock()
			j.lost[status]++
			j.mu.Unlock()
			if try == 2 {
				j.end(endLost)
				return
			}
		default:
			j.fail("hold", fmt.Sprint(status))
			j.end(b.failed())
			return
		}
	}
}

// after is what a moviegoer with a hold at checkout path does next.
func (j *journey) after(b *browser, checkout string, seats []string, csrf string, rng *rand.Rand) {
	r := rng.Float64()
	switch {
	case r < j.c.pay:
		j.pay(b, checkout, seats, csrf, "succeed")
	case r < j.c.pay+j.c.decline:
		j.pay(b, checkout, seats, csrf, "decline")
	case r < j.c.pay+j.c.decline+j.c.back:
		status, _, ok := b.post("release", checkout+"/release", url.Values{"_csrf": {csrf}})
		if !ok || status != http.StatusSeeOther {
			if ok {
				j.fail("release", fmt.Sprint(status))
			}
			j.end(b.failed())
			return
		}
		j.end(endBack)
	default:
		j.end(endWalked)
	}
}

// pay gives an email at Pay, takes the sandbox's outcome, and reads the
// booking page until it is settled.
func (j *journey) pay(b *browser, checkout string, seats []string, csrf, outcome string) {
	n := j.done.Load()
	status, sandbox, ok := b.post("pay", checkout+"/pay", url.Values{"_csrf": {csrf}, "email": {fmt.Sprintf("moviegoer%d@example.com", n)}})
	if !ok || status != http.StatusSeeOther {
		if ok && status == http.StatusGone {
			j.end("hold gone at Pay")
			return
		}
		if ok {
			j.fail("pay", fmt.Sprint(status))
		}
		j.end(b.failed())
		return
	}
	doc, ok := b.getDoc("sandbox page", sandbox)
	if !ok {
		j.end(b.failed())
		return
	}
	form := doc.Find("form.sandbox__actions")
	action := form.AttrOr("action", "")
	status, bookingURL, ok := b.post("sandbox pay", action, url.Values{"_csrf": {form.Find(`input[name="_csrf"]`).AttrOr("value", "")}, "outcome": {outcome}})
	if !ok || status != http.StatusSeeOther {
		if ok {
			j.fail("sandbox pay", fmt.Sprint(status))
		}
		j.end(b.failed())
		return
	}
	for range 100 {
		doc, ok := b.getDoc("booking", bookingURL)
		if !ok {
			j.end(b.failed())
			return
		}
		el := doc.Find("[data-booking-id]").First()
		switch state := el.AttrOr("data-state", ""); state {
		case "pending":
			time.Sleep(50 * time.Millisecond)
			continue
		case "confirmed":
			j.mu.Lock()
			j.confirmed[el.AttrOr("data-booking-id", "")] = seats
			j.mu.Unlock()
			j.booked.Add(1)
			j.end(endPaid)
		case "failed":
			if outcome == "decline" {
				j.end(endDeclined)
			} else {
				j.end(endPaidFailed)
			}
		default:
			j.end("paid, " + state)
		}
		return
	}
	j.end(endStillPending)
}

// served is what the answers say went wrong on the servers' side: any 5xx
// (a killed process refuses connections; it answers no 5xx), and a payment
// the sandbox took whose booking then failed.
func (j *journey) served() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(j.errs)) {
		if status := k[strings.LastIndexByte(k, ' ')+1:]; len(status) == 3 && status[0] == '5' {
			bad = append(bad, fmt.Sprintf("%d answers %s", j.errs[k], k))
		}
	}
	if n := j.outcomes[endPaidFailed]; n > 0 {
		bad = append(bad, fmt.Sprintf("%d payments the sandbox took ended in a failed booking", n))
	}
	return bad
}

func (j *journey) end(outcome string) {
	j.mu.Lock()
	j.outcomes[outcome]++
	j.mu.Unlock()
}

func (j *journey) fail(route, why string) {
	j.mu.Lock()
	j.errs[route+" "+why]++
	j.mu.Unlock()
}

func (j *journey) markSoldOut() {
	j.mu.Lock()
	if j.soldOut == 0 {
		j.soldOut = time.Since(j.started)
	}
	j.mu.Unlock()
}

// failed is how a journey that failed ended: an error, or cut off by the
// end of the run.
func (b *browser) failed() string {
	if b.ctx.Err() != nil {
		return endCutOff
	}
	return endError
}

// browser is one moviegoer's browser: cookies, address, the process it
// talks to.
type browser struct {
	j      *journey
	ctx    context.Context
	client *http.Client
	addr   string
	base   string
}

func (b *browser) do(route string, req *http.Request) (*http.Response, bool) {
	req.Header.Set("X-Forwarded-For", b.addr)
	began := time.Now()
	res, err := b.client.Do(req)
	if err != nil {
		if b.ctx.Err() == nil { // not cut off by the end of the run
			b.j.fail(route, "error")
		}
		return nil, false
	}
	d := time.Since(began)
	b.j.mu.Lock()
	b.j.lat[route] = append(b.j.lat[route], d)
	b.j.mu.Unlock()
	return res, true
}

// at is path on b's process, or path itself when it is a whole URL (a
// Location may be either).
func (b *browser) at(path string) string {
	if strings.HasPrefix(path, "http://") || strings.HasPrefix(path, "https://") {
		return path
	}
	return b.base + path
}

func (b *browser) getDoc(route, path string) (*goquery.Document, bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodGet, b.at(path), nil)
	if err != nil {
		b.j.fail(route, "bad url")
		return nil, false
	}
	res, ok := b.do(route, req)
	if !ok {
		return nil, false
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		b.j.fail(route, fmt.Sprint(res.StatusCode))
		return nil, false
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		b.j.fail(route, "body")
		return nil, false
	}
	return doc, true
}

// post posts form and returns the status and the Location.
func (b *browser) post(route, path string, form url.Values) (int, string, bool) {
	req, err := http.NewRequestWithContext(b.ctx, http.MethodPost, b.at(path), strings.NewReader(form.Encode()))
	if err != nil {
		b.j.fail(route, "bad url")
		return 0, "", false
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, ok := b.do(route, req)
	if !ok {
		return 0, "", false
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, res.Header.Get("Location"), true
}

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
		v, n := booking.CheckAudit(a, booking.Moment{Now: time.Now(), TTL: j.c.holdTTL})
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
	fmt.Fprintf(w, "%-14s %7s %8s %8s %8s %8s %8s\n", "route", "count", "per-s", "p50", "p95", "p99", "max")
	for _, route := range []string{"best", "hold", "pay", "sandbox page", "sandbox pay", "booking", "release"} {
		l := j.lat[route]
		if len(l) == 0 {
			continue
		}
		slices.Sort(l)
		fmt.Fprintf(w, "%-14s %7d %8.0f %8s %8s %8s %8s\n", route, len(l), float64(len(l))/elapsed.Seconds(),
			pct(l, 50), pct(l, 95), pct(l, 99), l[len(l)-1].Round(time.Microsecond))
	}
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
