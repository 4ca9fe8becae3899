package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// servers are the boxoffice processes a journey run starts on one SQLite
// file, each on a port of its own, and can kill and start again.
type servers struct {
	bin   string
	file  string
	env   []string // what every process gets, besides its address
	procs []*server
}

// server is one boxoffice serve process.
type server struct {
	addr string
	pid  atomic.Int64 // of the process now running, for rss
	cmd  *exec.Cmd
	log  string        // its stdout and stderr, a file beside the database
	done chan struct{} // closed when it exited
}

// logTail is the end of s's log, for an error message.
func (s *server) logTail() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func (s *server) url() string { return "http://" + s.addr }

// seed creates the file with shows synthetic shows of rows×cols seats and
// returns their ids.
func (ss *servers) seed(ctx context.Context, shows, rows, cols int) ([]string, error) {
	var out, errs bytes.Buffer
	cmd := exec.CommandContext(ctx, ss.bin, "seed", "--shows", fmt.Sprint(shows),
		"--rows", fmt.Sprint(rows), "--cols", fmt.Sprint(cols), "--database-url", "sqlite:"+ss.file)
	cmd.Env, cmd.Stdout, cmd.Stderr = ss.env, &out, &errs
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s seed: %w: %s", ss.bin, err, strings.TrimSpace(errs.String()))
	}
	ids := strings.Fields(out.String())
	if len(ids) != shows {
		return nil, fmt.Errorf("%s seed printed %d ids, want %d", ss.bin, len(ids), shows)
	}
	return ids, nil
}

// start starts n processes, each on a port the kernel picks.
func (ss *servers) start(ctx context.Context, n int) error {
	for range n {
		s := &server{log: fmt.Sprintf("%s.serve%d.log", ss.file, len(ss.procs)+1)}
		ss.procs = append(ss.procs, s)
		if err := ss.launch(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// launch starts s's process and waits until it is ready: on s.addr, or,
// the first time, on a port the kernel picks, which the process prints
// ("boxoffice listening on URL") and keeps for its restarts.
func (ss *servers) launch(ctx context.Context, s *server) error {
	log, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close() // the process has its own copy
	logStart, err := log.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	addr := s.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	s.cmd = exec.Command(ss.bin, "serve")
	// PUBLIC_URL is derived from the port the process listens on.
	s.cmd.Env = append(append([]string{}, ss.env...), "ADDR="+addr, "DATABASE_URL=sqlite:"+ss.file)
	s.cmd.Stderr, s.cmd.Stdout = log, log
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("start %s serve: %w", ss.bin, err)
	}
	s.pid.Store(int64(s.cmd.Process.Pid))
	s.done = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		if s.addr == "" {
			s.addr = listening(s.log, logStart)
		}
		if s.addr != "" && ready(client, s.url()) {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("boxoffice serve on %s exited at start: %s", addr, s.logTail())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("boxoffice serve on %s not ready after 30s: %s", addr, s.logTail())
		}
	}
}

// kill sends SIGKILL to process i, waits for it to die, and starts it again
// on the same address; it returns how long the address went unserved.
func (ss *servers) kill(ctx context.Context, i int) (time.Duration, error) {
	s := ss.procs[i]
	began := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return 0, fmt.Errorf("kill: %w", err)
	}
	<-s.done
	err := ss.launch(ctx, s)
	return time.Since(began), err
}

// stop ends every process with SIGTERM (a graceful drain), SIGKILL after
// 10 s, and reports any that had died on its own.
func (ss *servers) stop() error {
	var errs []error
	for _, s := range ss.procs {
		select {
		case <-s.done:
			errs = append(errs, fmt.Errorf("boxoffice serve on %s had exited: %s", s.addr, s.logTail()))
			continue
		default:
		}
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
			errs = append(errs, fmt.Errorf("boxoffice serve on %s did not stop within 10s of SIGTERM", s.addr))
		}
	}
	return errors.Join(errs...)
}

// ready reports whether url's /readyz answers 200.
func ready(client *http.Client, url string) bool {
	res, err := client.Get(url + "/readyz")
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// listening is the address that a process logging to file from offset on
// said it listens on, "" until it has.
func listening(file string, offset int64) string {
	b, err := os.ReadFile(file)
	if err != nil || int64(len(b)) < offset {
		return ""
	}
	for _, line := range strings.Split(string(b[offset:]), "\n") {
		if rest, ok := strings.CutPrefix(line, "boxoffice listening on http://"); ok {
			if addr, _, ok := strings.Cut(rest, " "); ok {
				return addr
			}
		}
	}
	return ""
}

func randomSecret() string {
	b := make([]byte, 24)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// rss is the resident memory of each process in kB, from /proc (0 where
// it cannot be read).
func (ss *servers) rss() []int64 {
	out := make([]int64, len(ss.procs))
	for i, s := range ss.procs {
		out[i] = procStatus(s.pid.Load())["VmRSS:"]
	}
	return out
}

// memory is what one process holds at one moment: its resident memory,
// anonymous (the Go heap and SQLite's page caches, which the driver
// allocates outside the heap) and file-backed (the binary and the pages of
// the database file it has mapped), and its Go heap in use after a
// collection.
type memory struct {
	anonKB, fileKB int64
	heapInuse      int64 // bytes
}

func (m memory) String() string {
	return fmt.Sprintf("%d MB (%d anonymous + %d file), heap %.1f MB",
		(m.anonKB+m.fileKB+512)/1024, (m.anonKB+512)/1024, (m.fileKB+512)/1024, float64(m.heapInuse)/(1<<20))
}

// memory measures every process: /proc for the resident sizes, and
// /debug/pprof/heap after a collection for the heap, whose profile it
// keeps beside the database as FILE.heap-LABEL.N.pb.gz for go tool pprof.
func (ss *servers) memory(label string) ([]memory, error) {
	out := make([]memory, len(ss.procs))
	client := &http.Client{Timeout: 30 * time.Second}
	var errs []error
	for i, s := range ss.procs {
		status := procStatus(s.pid.Load())
		out[i].anonKB, out[i].fileKB = status["RssAnon:"], status["RssFile:"]+status["RssShmem:"]
		name := fmt.Sprintf("%s.heap-%s.%d.pb.gz", ss.file, strings.ReplaceAll(label, " ", "-"), i+1)
		if err := download(client, s.url()+"/debug/pprof/heap?gc=1", name); err != nil {
			errs = append(errs, err)
		}
		text, err := get(client, s.url()+"/debug/pprof/heap?debug=1")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if rest, ok := strings.CutPrefix(line, "# HeapInuse = "); ok {
				fmt.Sscan(rest, &out[i].heapInuse)
			}
		}
	}
	return out, errors.Join(errs...)
}

// procStatus is /proc/PID/status as numbers by field name ("VmRSS:", in
// kB); empty when it cannot be read.
func procStatus(pid int64) map[string]int64 {
	fields := map[string]int64{}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return fields
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, rest, ok := strings.Cut(line, "\t"); ok {
			var n int64
			if _, err := fmt.Sscan(rest, &n); err == nil {
				fields[strings.TrimSpace(name)] = n
			}
		}
	}
	return fields
}

// get is the body of a GET of url that answered 200.
func get(client *http.Client, url string) (string, error) {
	res, err := client.Get(url)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return string(b), err
}

// download writes the body of a GET of url to file.
func download(client *http.Client, url, file string) error {
	body, err := get(client, url)
	if err != nil {
		return err
	}
	return os.WriteFile(file, []byte(body), 0o644)
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// cpu is the CPU time (user and system) each process has used so far, from
// /proc/PID/stat (0 where it cannot be read).
func (ss *servers) cpu() []time.Duration {
	out := make([]time.Duration, len(ss.procs))
	for i, s := range ss.procs {
		out[i] = procCPU(s.pid.Load())
	}
	return out
}

// procCPU is utime+stime of process pid from /proc/PID/stat, 0 when it
// cannot be read. The fields are counted after the command's closing
// parenthesis: the command may hold spaces.
func procCPU(pid int64) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return statCPU(string(b))
}

func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	// After ")": state is field 3 of proc(5), utime 14, stime 15.
	if len(f) < 13 {
		return 0
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// selfCPU is the CPU time (user and system) this process has used so far,
// by getrusage(RUSAGE_SELF).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
