package testkit

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// StripeMockVersion is the stripe-mock the tests are written against; .ci/run
// installs it with go install github.com/stripe/stripe-mock@VERSION.
const StripeMockVersion = "v0.203.0"

// StripeMock starts Stripe's own mock API server, stripe-mock, for the test
// on loopback ports chosen by the system, and returns its HTTP base URL
// (http://127.0.0.1:PORT). It is stopped when the test ends.
//
// stripe-mock is found as $STRIPE_MOCK, on PATH, or in $(go env GOPATH)/bin.
// Without it the test skips, saying how to install it, except when CI is
// set: CI installs it, so there a Stripe test that cannot run fails.
func StripeMock(t testing.TB) string {
	t.Helper()
	bin := findStripeMock()
	if bin == "" {
		SkipUnlessCI(t, "stripe-mock not found: go install github.com/stripe/stripe-mock@"+StripeMockVersion+" (or set STRIPE_MOCK)",
			"the Stripe tests must run there")
	}
	// Both addresses: with only one given, stripe-mock also listens on
	// :12112 on every interface.
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting stripe-mock: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		url := ""
		for sc.Scan() {
			if m := stripeMockListening.FindStringSubmatch(sc.Text()); m != nil && url == "" {
				url = "http://" + m[1]
				found <- url
			}
		}
		if url == "" {
			found <- "" // it exited before it listened
		}
	}()
	select {
	case url := <-found:
		if url == "" {
			t.Fatal("stripe-mock exited before it listened")
		}
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("stripe-mock did not listen within 30 s")
		return ""
	}
}

var stripeMockListening = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

func findStripeMock() string {
	if p := os.Getenv("STRIPE_MOCK"); p != "" {
		return p
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "stripe-mock")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
