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
	j.servers = &servers{bin: c.bin, file: c.file, env: append(serverEnv(os.Environ()),
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
