package testkit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// built is the boxoffice binary of this test binary, built by the first
// BuildBinary and removed by Run.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// BuildBinary returns the path of the real boxoffice binary (./cmd/boxoffice),
// built once per test binary. The test skips in -short mode and on Windows,
// which has no SIGTERM, and without the browser assets, which the binary
// refuses to serve without (NeedAssets: under CI it fails instead). A
// package that calls it runs its tests through Run, which removes the
// binary at the end.
func BuildBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	NeedAssets(t)
	built.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		if built.dir, built.err = os.MkdirTemp("", "boxoffice-test-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "boxoffice")
		// By import path: a test runs in its package's directory, somewhere
		// in the module.
		if out, err := exec.Command(goTool, "build", "-o", bin, "boxoffice/cmd/boxoffice").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build ./cmd/boxoffice: %v\n%s", err, out)
			return
		}
		built.path = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// Run runs the tests of m and then removes the binary BuildBinary built;
// its result is TestMain's exit code.
func Run(m *testing.M) int {
	defer func() {
		if built.dir != "" {
			os.RemoveAll(built.dir)
		}
	}()
	return m.Run()
}

// FreeAddr is an address of 127.0.0.1 with a TCP port that nothing listens
// on just now.
func FreeAddr() (string, error) { return freeAddrOn("127.0.0.1") }

// Process is a running boxoffice serve. When the test ends it gets SIGTERM,
// unless it has exited already, and must exit with status 0 within
// StopWithin; its log (stderr) is shown when the test failed.
type Process struct {
	// URL is the base URL the process printed: "boxoffice listening on URL".
	URL string
	// StopWithin bounds the wait for the exit after SIGTERM at the end of
	// the test; 20s unless changed.
	StopWithin time.Duration

	name   string
	cmd    *exec.Cmd
	log    *SyncBuffer
	exited chan error // receives Wait's error once
	err    error
	done   bool
}

// Start runs bin with args and exactly the environment env, and waits until
// it prints the line "boxoffice listening on URL …" on stdout.
func Start(t testing.TB, bin string, env []string, args ...string) *Process {
	t.Helper()
	p, err := TryStart(t, bin, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TryStart is Start returning an error, after which no process is left
// running, instead of failing the test.
func TryStart(t testing.TB, bin string, env []string, args ...string) (*Process, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	// An io.Pipe, unlike StdoutPipe, may be read while Wait runs.
	stdout, stdoutW := io.Pipe()
	cmd.Stdout = stdoutW
	p := &Process{
		StopWithin: 20 * time.Second,
		name:       strings.Join(append([]string{filepath.Base(bin)}, args...), " "),
		cmd:        cmd,
		log:        &SyncBuffer{},
		exited:     make(chan error, 1),
	}
	cmd.Stderr = p.log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "boxoffice listening on "); ok {
				select {
				case urls <- strings.Fields(rest + " ")[0]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout) // keep draining so the process never blocks on a write
	}()
	go func() {
		err := cmd.Wait()
		stdoutW.Close()
		p.exited <- err
	}()

	select {
	case p.URL = <-urls:
	case err := <-p.exited:
		return nil, fmt.Errorf("%s exited before listening: %s\n%s", p.name, exitString(err), p.log.String())
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-p.exited
		return nil, fmt.Errorf("%s did not listen within 30s\n%s", p.name, p.log.String())
	}
	t.Cleanup(func() {
		if !p.done {
			_ = p.Signal(syscall.SIGTERM)
			if err := p.Wait(p.StopWithin); err != nil {
				t.Errorf("%s after SIGTERM: %v, want exit status 0", p.name, err)
			}
		}
		if t.Failed() {
			t.Logf("log of %s at %s:\n%s", p.name, p.URL, p.log.String())
		}
	})
	return p, nil
}

func exitString(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error {
	return p.cmd.Process.Signal(sig)
}

// Wait waits up to within for the process to exit and returns how it
// exited (nil for status 0); past within it kills the process and says so.
func (p *Process) Wait(within time.Duration) error {
	if p.done {
		return p.err
	}
	select {
	case p.err = <-p.exited:
	case <-time.After(within):
		_ = p.cmd.Process.Kill()
		<-p.exited
		p.err = errors.New("did not exit within " + within.String())
	}
	p.done = true
	return p.err
}

// Exited says, without waiting, whether the process has exited, and how.
func (p *Process) Exited() (bool, error) {
	if p.done {
		return true, p.err
	}
	select {
	case p.err = <-p.exited:
		p.done = true
		return true, p.err
	default:
		return false, nil
	}
}

// Log is what the process wrote to stderr so far.
func (p *Process) Log() string {
	return p.log.String()
}

// SyncBuffer is a bytes.Buffer that a process or goroutine may write to
// while a test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
