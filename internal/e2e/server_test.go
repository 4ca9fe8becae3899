package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	webhookSecret = "whsec_e2e_0123456789abcdef"
	adminEmail    = "admin@example.com"
	adminPassword = "e2e-admin-password"
)

// server is one real boxoffice serve process on a free port of 127.0.0.1,
// with its own SQLite file and the demo catalog.
type server struct {
	URL    string
	stderr *syncBuffer
}

// startServer starts boxoffice serve with settings for a test, env
// overriding them (HOLD_TTL=3s, ADMIN_EMAIL=…). When the test ends, the
// process gets SIGTERM and must exit with status 0; its log is shown when
// the test failed.
func startServer(t *testing.T, env ...string) *server {
	t.Helper()
	if binary == "" {
		t.Fatal("no boxoffice binary: TestMain did not build it")
	}
	// Another process may take the free port between our look and the
	// server's listen: try again then.
	for attempt := 1; ; attempt++ {
		s, err := tryStartServer(t, env)
		if err == nil {
			return s
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatal(err)
		}
	}
}

func tryStartServer(t *testing.T, env []string) (*server, error) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	dbPath := filepath.Join(t.TempDir(), "db.sqlite")
	cmd := exec.Command(binary, "serve")
	// Only what the process needs from ours, so that no setting of the
	// developer's shell leaks in; later entries win over earlier ones.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(), "TZ=Asia/Kolkata"}
	cmd.Env = append(cmd.Env,
		"ADDR=127.0.0.1:"+strconv.Itoa(port),
		"DATABASE_URL=sqlite:"+dbPath,
		"PUBLIC_URL="+base,
		"PAYMENT_WEBHOOK_SECRET="+webhookSecret,
		"SEED_DEMO=true",
		"HOLD_RATE=0",
	)
	cmd.Env = append(cmd.Env, env...)
	stdout, stdoutW := io.Pipe()
	cmd.Stdout = stdoutW
	s := &server{URL: base, stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	listening := make(chan struct{}, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "boxoffice listening on ") {
				select {
				case listening <- struct{}{}:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		stdoutW.Close()
		exited <- err
	}()

	select {
	case <-listening:
	case err := <-exited:
		return nil, errors.New("boxoffice serve exited before listening: " + errString(err) + "\n" + s.stderr.String())
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return nil, errors.New("boxoffice serve did not listen within 30s\n" + s.stderr.String())
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("boxoffice serve after SIGTERM: %v, want exit status 0", err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("boxoffice serve did not exit within 20s of SIGTERM")
		}
		if t.Failed() {
			t.Logf("log of boxoffice serve at %s:\n%s", base, s.stderr.String())
		}
	})
	return s, nil
}

func errString(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// freePort is a TCP port of 127.0.0.1 that nothing listens on just now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var showIDAttr = regexp.MustCompile(`data-show-id="([^"]+)"`)

// showIDs are the shows of the home page, in its order, each once.
func (s *server) showIDs(t *testing.T) []string {
	t.Helper()
	res, err := http.Get(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %d %v", res.StatusCode, err)
	}
	var ids []string
	seen := map[string]bool{}
	for _, m := range showIDAttr.FindAllSubmatch(body, -1) {
		if id := string(m[1]); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) < 6 {
		t.Fatalf("the home page lists %d shows; the demo catalog has more", len(ids))
	}
	return ids
}

// syncBuffer is a bytes.Buffer the process's output may be written to
// while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
