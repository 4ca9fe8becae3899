package storetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// workerEnv carries a workerJob to a worker process: the test binary itself,
// started again by testProcessRace.
const workerEnv = "BOXOFFICE_STORETEST_WORKER"

// Lines a worker prints on stdout; anything else there is ignored.
const (
	lineReady   = "storetest:ready"
	lineOutcome = "storetest:outcome "
	lineDone    = "storetest:done"
)

type workerJob struct {
	Process int           `json:"process"`
	DSN     string        `json:"dsn"`
	ShowID  string        `json:"showId"`
	Now     time.Time     `json:"now"`
	TTL     time.Duration `json:"ttl"`
	Plan    [][]attempt   `json:"plan"`
	// Codes, when set, are ticket codes to admit instead: Doors goroutines
	// each scan every one of them (testProcessAdmitRace).
	Codes []string `json:"codes,omitempty"`
	Doors int      `json:"doors,omitempty"`
	// Sales, when set, makes each attempt a whole sale (runSales): at the
	// box office with Counter, else online.
	Sales   bool `json:"sales,omitempty"`
	Counter bool `json:"counter,omitempty"`
}

// RunWorkerIfRequested must be called first thing in the TestMain of every
// package that calls Run. In a process the suite started as a worker, it
// opens the shared database with h.Open, races as told, prints the outcomes
// and exits; otherwise it returns at once.
func RunWorkerIfRequested(h Harness) {
	spec, ok := os.LookupEnv(workerEnv)
	if !ok {
		return
	}
	if err := runWorker(h, spec, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "storetest worker: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runWorker(h Harness, spec string, stdin io.Reader, stdout io.Writer) error {
	var job workerJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		return fmt.Errorf("%s: %w", workerEnv, err)
	}
	if h.Open == nil {
		return errors.New("Harness.Open is nil")
	}
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	s, err := h.Open(ctx, job.DSN)
	if err != nil {
		return fmt.Errorf("open %s: %w", job.DSN, err)
	}
	defer s.Close()
	// Wait for the parent's go, so that every process races at once.
	fmt.Fprintln(stdout, lineReady)
	if _, err := bufio.NewReader(stdin).ReadString('\n'); err != nil {
		return fmt.Errorf("waiting for go: %w", err)
	}
	var outcomes []outcome
	switch {
	case len(job.Codes) > 0:
		outcomes = runAdmissions(ctx, store{s}, job)
	case job.Sales:
		outcomes = runSales(ctx, store{s}, job.ShowID, job.Plan, job.Counter, booking.Rules{TTL: job.TTL, AllowGaps: true}.At(job.Now))
	default:
		outcomes = runAttempts(ctx, store{s}, job.ShowID, job.Plan, booking.Rules{TTL: job.TTL, AllowGaps: true}.At(job.Now))
	}
	for _, o := range outcomes {
		o.Process = job.Process
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s%s\n", lineOutcome, b)
	}
	fmt.Fprintln(stdout, lineDone)
	return nil
}

// testProcessRace races holds from two OS processes, several goroutines in
// each, sharing one database; sessions appear in both processes, so holds
// replace each other across processes too.
func testProcessRace(t *testing.T, h Harness) {
	dsn, shared := h.Shared(t)
	if shared == nil {
		t.Fatal("Harness.Shared returned a nil store")
	}
	s := store{shared}
	closeWithTest(t, s)
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	show, seats := newShow(t, s, 2, 12, later)
	rng := rand.New(rand.NewPCG(seed(t), 2))
	m := at(time.Minute)

	const processes, goroutines, sessions = 2, 8, 12
	attempts := sized(12, 6)
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	workers := make([]*worker, processes)
	for p := range workers {
		job := workerJob{
			Process: p, DSN: dsn, ShowID: show.ID, Now: m.Now, TTL: m.TTL,
			Plan: planWindows(rng, seatIDs(seats), goroutines, attempts, 3, func(int, int) string {
				return fmt.Sprintf("o%d", rng.IntN(sessions))
			}),
		}
		workers[p] = startWorker(ctx, t, exe, job)
	}
	for _, w := range workers {
		w.waitReady(t)
	}
	for _, w := range workers {
		w.start(t)
	}
	var outcomes []outcome
	for _, w := range workers {
		outcomes = append(outcomes, w.wait(t)...)
	}
	if want := processes * goroutines * attempts; len(outcomes) != want {
		t.Fatalf("workers reported %d outcomes, want %d", len(outcomes), want)
	}
	var won [processes]int
	for _, o := range outcomes {
		if o.Won {
			won[o.Process]++
		}
	}
	t.Logf("holds won by process: %v", won)
	checkOverlap(t, outcomes)
	checkRace(t, s, show.ID, outcomes, m, false)
}

// checkOverlap fails the test unless the two worker processes' outcomes
// overlap in time: they must have raced, not taken turns.
func checkOverlap(t *testing.T, outcomes []outcome) {
	t.Helper()
	var span [2]struct{ start, end int64 }
	for _, o := range outcomes {
		sp := &span[o.Process]
		if sp.start == 0 || o.Start < sp.start {
			sp.start = o.Start
		}
		sp.end = max(sp.end, o.End)
	}
	overlap := time.Duration(min(span[0].end, span[1].end) - max(span[0].start, span[1].start))
	t.Logf("the processes raced together for %v", overlap)
	if overlap <= 0 {
		t.Errorf("the worker processes did not run at the same time (overlap %v): the race proved nothing", overlap)
	}
}

type worker struct {
	job    workerJob
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *bytes.Buffer
}

func startWorker(ctx context.Context, t *testing.T, exe string, job workerJob) *worker {
	t.Helper()
	spec, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+string(spec))
	w := &worker{job: job, cmd: cmd, lines: make(chan string, 256), stderr: new(bytes.Buffer)}
	cmd.Stderr = w.stderr
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting worker %d: %v", job.Process, err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	go func() {
		defer close(w.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "storetest:") {
				w.lines <- line
			}
		}
	}()
	return w
}

// failed stops the test with what the worker said on stderr.
func (w *worker) failed(t *testing.T, format string, args ...any) {
	t.Helper()
	_ = w.cmd.Process.Kill()
	err := w.cmd.Wait()
	t.Fatalf("worker %d: %s (exit: %v)\nstderr:\n%s\nDoes the TestMain of this package call storetest.RunWorkerIfRequested before m.Run?",
		w.job.Process, fmt.Sprintf(format, args...), err, w.stderr.String())
}

func (w *worker) waitReady(t *testing.T) {
	t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			w.failed(t, "exited before it was ready")
		}
		if line != lineReady {
			w.failed(t, "said %q before it was ready", line)
		}
	case <-time.After(raceTimeout):
		w.failed(t, "not ready after %v", raceTimeout)
	}
}

func (w *worker) start(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(w.stdin, "go\n"); err != nil {
		w.failed(t, "cannot be told to go: %v", err)
	}
}

func (w *worker) wait(t *testing.T) []outcome {
	t.Helper()
	var outcomes []outcome
	done := false
	for line := range w.lines {
		switch {
		case line == lineDone:
			done = true
		case strings.HasPrefix(line, lineOutcome):
			var o outcome
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, lineOutcome)), &o); err != nil {
				w.failed(t, "printed %q: %v", line, err)
			}
			outcomes = append(outcomes, o)
		}
	}
	if err := w.cmd.Wait(); err != nil || !done {
		t.Fatalf("worker %d: exit %v, finished: %v\nstderr:\n%s", w.job.Process, err, done, w.stderr.String())
	}
	return outcomes
}
