package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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

	// The crowd (-browsers > 0): browsers that watch the map, some of
	// them buyers, and optionally a waiting room in front of them.
	browsers    int
	buyers      float64
	ramp        time.Duration
	poll        time.Duration // 0: as the page's hx-trigger says
	queuePoll   time.Duration
	onsale      int           // admissions a minute; 0: no on-sale
	onsaleOpens time.Duration // T0, after the crowd starts
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
	fs.Func("env", "`KEY=VALUE` added to every process's environment, e.g. -env HOLD_RATE=0 -env HOLD_SEATS_PER_ADDRESS=0 (repeatable; the tool's own environment is passed on too)", func(kv string) error {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.ContainsAny(k, " \t") {
			return fmt.Errorf("%q: want KEY=VALUE", kv)
		}
		c.extraEnv = append(c.extraEnv, kv)
		return nil
	})
	fs.IntVar(&c.browsers, "browsers", 0, "crowd mode: this many browsers arrive over -ramp, each with its own cookies and X-Forwarded-For address, open the show's page and poll its map fragment as the page's htmx does (If-None-Match, gzip) until -duration ends; -buyers of them also hold the best seats for a party of 1 to -party (POST …/holds best=N, up to 3 tries), then pay, decline, go Back or walk away as moviegoers do (replaces -moviegoers and -users)")
	fs.Float64Var(&c.buyers, "buyers", 0.3, "crowd mode: the share of browsers that also buy (0 to 1); the others only watch")
	fs.DurationVar(&c.ramp, "ramp", 30*time.Second, "crowd mode: the browsers arrive evenly spread over this long")
	fs.DurationVar(&c.poll, "poll", 0, "crowd mode: the map poll's interval, ±10 % jitter (0: as the page's hx-trigger says, \"every 5s\")")
	fs.DurationVar(&c.queuePoll, "queue-poll", 20*time.Second, "crowd mode with -onsale: how often a browser in the waiting room reloads its page, ±15 % jitter (SPEC §18: 20 s ±3 s)")
	fs.IntVar(&c.onsale, "onsale", 0, "crowd mode: put the shows behind an on-sale admitting this many browsers a minute (SPEC §18): the tool signs in as admin, creates it through POST /admin/onsales opening -onsale-opens after the crowd starts, and each browser joins the queue at /queue/{id}, reloads it every -queue-poll, and goes on to the show once admitted")
	fs.DurationVar(&c.onsaleOpens, "onsale-opens", 10*time.Second, "crowd mode with -onsale: the on-sale opens (T0) this long after the crowd starts")
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
	case c.browsers < 0 || c.browsers > 100000:
		return c, errors.New("-browsers must be between 0 (no crowd) and 100000")
	case c.buyers < 0 || c.buyers > 1:
		return c, errors.New("-buyers is a share of the browsers, from 0 to 1")
	case c.ramp < 0 || c.poll < 0 || c.queuePoll <= 0 || c.onsale < 0 || c.onsaleOpens < 0:
		return c, errors.New("-ramp, -poll, -onsale and -onsale-opens must not be negative, -queue-poll must be positive")
	case c.browsers > 0 && c.kill:
		return c, errors.New("-kill is for the moviegoers' run, not the crowd (-browsers)")
	case c.browsers > 0 && c.ramp >= c.duration:
		return c, errors.New("-ramp must be shorter than -duration: the crowd runs for -duration")
	case c.browsers == 0 && c.onsale > 0:
		return c, errors.New("-onsale needs a crowd: set -browsers")
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

	admin adminAccount // -onsale: the account the processes create
	crowd *crowd       // -browsers
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
	env := append(serverEnv(os.Environ()),
		"SEED_DEMO=false", "HOLD_TTL="+c.holdTTL.String(), "PAYMENT_PROVIDER=sandbox",
		"PAYMENT_WEBHOOK_SECRET="+randomSecret())
	if c.browsers > 0 {
		// Each browser sends its own X-Forwarded-For address: the
		// processes must trust the tool's loopback hop for per-address
		// limits to count browsers apart (SPEC §12).
		env = append(env, "TRUSTED_PROXIES=127.0.0.0/8,::1/128")
	}
	if c.onsale > 0 {
		j.admin = adminAccount{email: "loadtest-admin@example.com", password: randomSecret()}
		env = append(env, "ADMIN_EMAIL="+j.admin.email, "ADMIN_PASSWORD="+j.admin.password)
	}
	j.servers = &servers{bin: c.bin, file: c.file, env: append(env, c.extraEnv...)}
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
	var killed, unserved time.Duration
	var runErr error
	if c.browsers > 0 {
		runErr = j.runCrowd(ctx, stderr)
	} else {
		killed, unserved, runErr = j.run(ctx, stderr)
	}
	if c.browsers > 0 && j.crowd != nil && j.crowd.began.IsZero() {
		// The crowd never started (the on-sale could not be made):
		// there is nothing to report.
		stopErr := j.servers.stop()
		if temp != "" && !c.keepDB {
			os.RemoveAll(temp)
		}
		return errors.Join(runErr, stopErr)
	}
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
	if c.browsers > 0 && auditErr == nil {
		var more []string
		more, auditErr = j.crowd.check(ctx, j)
		violations = append(violations, more...)
	}
	if c.browsers > 0 {
		j.printCrowd(stdout, elapsed, counts, violations)
	} else {
		j.print(stdout, elapsed, killed, unserved, counts, violations)
	}
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

// serverEnv is environ without the settings each process must derive or
// leave unset: PUBLIC_URL comes from its own port (the sandbox calls the
// process back there), and the tool reads /debug/pprof without a token.
func serverEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "PUBLIC_URL=") && !strings.HasPrefix(kv, "METRICS_TOKEN=") {
			out = append(out, kv)
		}
	}
	return out
}
