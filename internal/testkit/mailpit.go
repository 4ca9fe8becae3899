package testkit

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// MailpitVersion is the mailpit the tests are written against; .ci/run
// installs it with go install github.com/axllent/mailpit@VERSION.
const MailpitVersion = "v1.33.1"

// MailpitServer is a running mailpit: an SMTP server that keeps every
// message it is given, and the HTTP API that reads them back.
type MailpitServer struct {
	// SMTPURL is an SMTP_URL for it: smtp://127.0.0.1:PORT, or smtps://
	// with MailpitOptions.ImplicitTLS. It takes mail with no
	// authentication and with any user and password.
	SMTPURL string
	// API is the base URL of its HTTP API: http://127.0.0.1:PORT.
	API string

	log *SyncBuffer
}

// MailpitOptions changes how MailpitWith starts mailpit's SMTP server.
type MailpitOptions struct {
	// SMTPHost is the address the SMTP server listens on; 127.0.0.1 unless
	// set. Tests of what a client does with a server on another machine
	// give one of this machine's non-loopback addresses.
	SMTPHost string
	// TLSCert and TLSKey are PEM files; with them the server offers
	// STARTTLS (and then accepts authentication only over TLS).
	TLSCert, TLSKey string
	// ImplicitTLS, with TLSCert and TLSKey, makes the server speak TLS
	// from the first byte, as smtps:// expects.
	ImplicitTLS bool
}

// MailpitMessageSummary is a message as GET /api/v1/messages lists it.
type MailpitMessageSummary struct {
	ID          string // mailpit's id, for Message and Part
	MessageID   string // the Message-ID header, without angle brackets
	From        MailpitAddress
	To          []MailpitAddress
	Subject     string
	Username    string // the user it authenticated as, if any
	Attachments int
	Created     time.Time
}

// MailpitAddress is a name and an address, as mailpit's API gives them.
type MailpitAddress struct {
	Name    string
	Address string
}

// MailpitMessage is one message as GET /api/v1/message/{ID} gives it.
type MailpitMessage struct {
	ID          string
	MessageID   string
	From        MailpitAddress
	To          []MailpitAddress
	Subject     string
	Date        time.Time
	Username    string
	Text        string // the text/plain part
	HTML        string // the text/html part
	Inline      []MailpitPart
	Attachments []MailpitPart
}

// MailpitPart is an inline part or an attachment of a message; Part
// downloads its bytes.
type MailpitPart struct {
	PartID      string
	FileName    string
	ContentType string
	ContentID   string // without angle brackets
	Size        uint64
}

// mailpitHTTP reads mailpit's API; a test that waits longer has a bug.
var mailpitHTTP = &http.Client{Timeout: 10 * time.Second}

// Mailpit starts mailpit for the test on free loopback ports, with plain
// SMTP (no STARTTLS) that takes mail with or without a user and password,
// and stops it when the test ends.
//
// mailpit is found as $MAILPIT, on PATH, or in $(go env GOPATH)/bin.
// Without it the test skips, saying how to install it, except when CI is
// set: CI installs it, so there a mail test that cannot run fails.
func Mailpit(t testing.TB) *MailpitServer {
	t.Helper()
	return MailpitWith(t, MailpitOptions{})
}

// MailpitWith is Mailpit with its SMTP server set up by opt.
func MailpitWith(t testing.TB, opt MailpitOptions) *MailpitServer {
	t.Helper()
	bin := findTool("MAILPIT", "mailpit")
	if bin == "" {
		SkipUnlessCI(t, "mailpit not found: go install github.com/axllent/mailpit@"+MailpitVersion+" (or set MAILPIT)",
			"the mail tests must run there")
	}
	if opt.SMTPHost == "" {
		opt.SMTPHost = "127.0.0.1"
	}
	dir := t.TempDir()
	// mailpit cannot listen on port 0 and say which port it got, so the
	// ports are chosen first; another process may take one meanwhile,
	// and then mailpit exits and is started again on others.
	var lastErr error
	for range 3 {
		s, err := startMailpit(t, bin, dir, opt)
		if err == nil {
			return s
		}
		lastErr = err
	}
	t.Fatal(lastErr)
	return nil
}

func startMailpit(t testing.TB, bin, dir string, opt MailpitOptions) (*MailpitServer, error) {
	httpAddr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	smtpAddr, err := freeAddrOn(opt.SMTPHost)
	if err != nil {
		return nil, err
	}
	args := []string{
		"--listen", httpAddr,
		"--smtp", smtpAddr,
		"--database", filepath.Join(dir, "mailpit.db"),
		"--disable-version-check",
		"--smtp-disable-rdns",
		"--smtp-auth-accept-any",
	}
	scheme := "smtp"
	switch {
	case opt.TLSCert != "" && opt.ImplicitTLS:
		args = append(args, "--smtp-tls-cert", opt.TLSCert, "--smtp-tls-key", opt.TLSKey, "--smtp-require-tls")
		scheme = "smtps"
	case opt.TLSCert != "":
		args = append(args, "--smtp-tls-cert", opt.TLSCert, "--smtp-tls-key", opt.TLSKey)
	default:
		// Authentication over plain SMTP: a loopback SMTP_URL may carry a
		// user, and the tests check that it is sent.
		args = append(args, "--smtp-auth-allow-insecure")
	}
	cmd := exec.Command(bin, args...)
	log := &SyncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting mailpit: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	s := &MailpitServer{
		SMTPURL: scheme + "://" + smtpAddr,
		API:     "http://" + httpAddr,
		log:     log,
	}
	deadline := time.Now().Add(30 * time.Second)
	for !s.ready(smtpAddr) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("mailpit %s exited before it answered: %v\n%s", strings.Join(args, " "), err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("mailpit did not answer within 30 s\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("log of mailpit at %s:\n%s", s.API, log.String())
		}
	})
	return s, nil
}

// ready says whether both the API (/readyz: the database is open) and the
// SMTP port answer.
func (s *MailpitServer) ready(smtpAddr string) bool {
	resp, err := mailpitHTTP.Get(s.API + "/readyz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	c, err := net.DialTimeout("tcp", smtpAddr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Log is what mailpit wrote so far.
func (s *MailpitServer) Log() string {
	return s.log.String()
}

// Messages lists the messages mailpit holds, newest first.
func (s *MailpitServer) Messages(t testing.TB) []MailpitMessageSummary {
	t.Helper()
	var list struct {
		Messages []MailpitMessageSummary `json:"messages"`
	}
	s.getJSON(t, "/api/v1/messages?limit=1000", &list)
	return list.Messages
}

// Message is the message with mailpit's id (MailpitMessageSummary.ID).
func (s *MailpitServer) Message(t testing.TB, id string) MailpitMessage {
	t.Helper()
	var m MailpitMessage
	s.getJSON(t, "/api/v1/message/"+url.PathEscape(id), &m)
	return m
}

// Headers are the message's headers, by canonical name.
func (s *MailpitServer) Headers(t testing.TB, id string) map[string][]string {
	t.Helper()
	var h map[string][]string
	s.getJSON(t, "/api/v1/message/"+url.PathEscape(id)+"/headers", &h)
	return h
}

// Raw is the message as it was received.
func (s *MailpitServer) Raw(t testing.TB, id string) []byte {
	t.Helper()
	return s.get(t, "/api/v1/message/"+url.PathEscape(id)+"/raw")
}

// Part is the decoded content of a message's part (MailpitPart.PartID).
func (s *MailpitServer) Part(t testing.TB, id, partID string) []byte {
	t.Helper()
	return s.get(t, "/api/v1/message/"+url.PathEscape(id)+"/part/"+url.PathEscape(partID))
}

// DeleteAll deletes every message.
func (s *MailpitServer) DeleteAll(t testing.TB) {
	t.Helper()
	req, err := http.NewRequest(http.MethodDelete, s.API+"/api/v1/messages", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := mailpitHTTP.Do(req)
	if err != nil {
		t.Fatalf("mailpit: delete all: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("mailpit: delete all: %s", resp.Status)
	}
}

// WaitFor waits up to 10 s until mailpit holds at least n messages and
// returns them, newest first; past that the test fails.
func (s *MailpitServer) WaitFor(t testing.TB, n int) []MailpitMessageSummary {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list := s.Messages(t)
		if len(list) >= n {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailpit holds %d messages after 10 s, want %d", len(list), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *MailpitServer) getJSON(t testing.TB, path string, v any) {
	t.Helper()
	if err := json.Unmarshal(s.get(t, path), v); err != nil {
		t.Fatalf("mailpit: GET %s: %v", path, err)
	}
}

func (s *MailpitServer) get(t testing.TB, path string) []byte {
	t.Helper()
	resp, err := mailpitHTTP.Get(s.API + path)
	if err != nil {
		t.Fatalf("mailpit: GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("mailpit: GET %s: %v", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("mailpit: GET %s: %s: %s", path, resp.Status, b)
	}
	return b
}

// freeAddrOn is FreeAddr on host.
func freeAddrOn(host string) (string, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// findTool finds a test's tool: $env, then name on PATH, then in
// $(go env GOPATH)/bin, where go install puts it.
func findTool(env, name string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
