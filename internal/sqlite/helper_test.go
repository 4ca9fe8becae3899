package sqlite

import (
	"boxoffice/internal/booking"
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary, started again by startHelper, a second
// process on a database: its value is "role path".
const helperEnv = "BOXOFFICE_SQLITE_HELPER"

// helperRoles are what a helper process can do on its database. Each
// prints "helper:ready" once its store is open, does its work until its
// stdin closes, then prints one line of results starting "helper:".
var helperRoles = map[string]func(s *Store, stdin <-chan struct{}){
	"idle":   idleRole,
	"holder": holderRole,
}

// TestHelperProcess is not a test: it is the body of the processes that
// startHelper starts.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("only run as a process that startHelper starts")
	}
	role, path, _ := strings.Cut(spec, " ")
	fn, ok := helperRoles[role]
	if !ok {
		t.Fatalf("no helper role %q", role)
	}
	o := defaultOptions
	if role == "idle" {
		o.checkpointEvery = 0 // idleRole runs it, timed
	}
	s, err := open(context.Background(), path, o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	fmt.Println("helper:ready")
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	fn(s, done)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// idleRole never writes and runs the ticker's checkpoint each
// checkpointEvery as the ticker does, timing each run. It prints
// "helper:checkpoints RUNS LONGEST".
func idleRole(s *Store, done <-chan struct{}) {
	tick := defaultOptions.checkpointEvery
	runs, longest := 0, time.Duration(0)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-done:
			fmt.Printf("helper:checkpoints %d %d\n", runs, longest)
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), tick) // as background gives it
			start := time.Now()
			s.checkpoint(ctx) // checkpointEvery 0: idle at every run
			longest = max(longest, time.Since(start))
			runs++
			cancel()
		}
	}
}

// holderRole holds seat A1 of show s1 again and again, each hold once the
// previous one lapsed, timing each, with a pause of a millisecond between
// them. It prints "helper:holds COUNT P50 P99 WORST FAILED".
func holderRole(s *Store, done <-chan struct{}) {
	ctx := context.Background()
	var lat []time.Duration
	failed := 0
	for i := 0; ; i++ {
		select {
		case <-done:
			slices.Sort(lat)
			if len(lat) == 0 {
				lat = []time.Duration{0}
			}
			fmt.Printf("helper:holds %d %d %d %d %d\n", len(lat), lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1], failed)
			return
		default:
		}
		start := time.Now()
		if err := booking.HoldSeatsStep(ctx, s, at(time.Duration(i)*ttl).Clock(), hold("s1", fmt.Sprintf("o%d", i), "A1"), at(time.Duration(i)*ttl).Rules); err != nil {
			fmt.Fprintf(os.Stderr, "holder: hold %d: %v\n", i, err)
			failed++
		}
		lat = append(lat, time.Since(start))
		time.Sleep(time.Millisecond)
	}
}

// helper is a running helper process.
type helper struct {
	t       *testing.T
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string
	stopped bool
}

// startHelper starts the test binary as TestHelperProcess in role on path
// and returns once its store is open. It is stopped at the end of the
// test, if the test did not stop it.
func startHelper(t *testing.T, role, path string) *helper {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h := &helper{t: t, lines: make(chan string, 16)}
	h.cmd = exec.Command(exe, "-test.run=^TestHelperProcess$", "-test.count=1")
	h.cmd.Env = append(os.Environ(), helperEnv+"="+role+" "+path)
	h.cmd.Stderr = os.Stderr
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "helper:") {
				h.lines <- sc.Text()
			}
		}
	}()
	t.Cleanup(func() {
		if !h.stopped {
			h.stop()
		}
	})
	select {
	case l, ok := <-h.lines:
		if !ok || l != "helper:ready" {
			t.Fatalf("helper %s ended before it was ready (%q)", role, l)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("helper %s not ready within 30s", role)
	}
	return h
}

// stop closes the helper's stdin and returns its line of results.
func (h *helper) stop() string {
	h.t.Helper()
	h.stopped = true
	h.stdin.Close()
	var result string
	for l := range h.lines {
		result = l
	}
	if err := h.cmd.Wait(); err != nil {
		h.t.Errorf("helper process: %v", err)
	}
	return result
}

// scan parses a helper's line of results with format into args.
func scan(line, format string, args ...any) bool {
	n, err := fmt.Sscanf(line, format, args...)
	return err == nil && n == len(args)
}
