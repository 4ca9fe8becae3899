package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
)

// TestSIGTERMDrainsInFlightRequests: SIGTERM arrives while a request is
// half sent (its headers and part of its body). The process stops taking
// new connections at once but keeps that one open, serves the request
// when the rest of the body arrives, and then exits with status 0.
func TestSIGTERMDrainsInFlightRequests(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, _ := tempDatabaseURL(t)
	p := serve(t, bin, "ADDR=127.0.0.1:0", "DATABASE_URL="+dbURL, "SEED_DEMO=false", "LOG_FORMAT=json",
		"PAYMENT_WEBHOOK_SECRET=whsec_drain_0123456789abcdef")
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}

	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// An unsigned payment callback: no session, no CSRF token, and an
	// answer (401) that only the handler gives, after reading the body.
	// Sent with Expect: 100-continue, so that the server says when the
	// handler starts reading the body: from then on the request is in
	// flight.
	body := `{"id":"evt_drain","type":"payment.succeeded","payment_id":"p_drain","amount":1000}`
	head := "POST " + payment.CallbackPath + " HTTP/1.1\r\n" +
		"Host: " + u.Host + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n" +
		"Expect: 100-continue\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	answers := bufio.NewReader(conn)
	if cont, err := readInterim(answers); err != nil || cont != "HTTP/1.1 100 Continue" {
		t.Fatalf("before the body the server answered %q, %v; want HTTP/1.1 100 Continue\n%s", cont, err, p.Log())
	}
	half := len(body) / 2
	if _, err := io.WriteString(conn, body[:half]); err != nil {
		t.Fatal(err)
	}

	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// It stops accepting connections.
	testkit.Eventually(t, 10*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err == nil {
			c.Close()
		}
		return errors.Is(err, syscall.ECONNREFUSED)
	}, "connections to be refused after SIGTERM")
	if exited, err := p.Exited(); exited {
		t.Fatalf("the process exited (%v) with a request in flight\n%s", err, p.Log())
	}

	// The half-sent request is still being served: finish it.
	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatalf("the server closed the in-flight connection: %v", err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(answers, nil)
	if err != nil {
		t.Fatalf("no response to the in-flight request: %v\n%s", err, p.Log())
	}
	if _, err := io.ReadAll(res.Body); err != nil {
		t.Fatalf("reading the response body: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("in-flight unsigned callback = %s, want 401 Unauthorized from its handler", res.Status)
	}

	if err := p.Wait(5 * time.Second); err != nil {
		t.Fatalf("after the drain: %v, want exit status 0\n%s", err, p.Log())
	}
}

// readInterim reads an interim answer (1xx), a status line and no headers,
// and returns its status line.
func readInterim(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return line, err
	}
	if end, err := r.ReadString('\n'); err != nil || end != "\r\n" {
		return line, fmt.Errorf("the status line %q is followed by %q, %v, not an empty line", line, end, err)
	}
	return strings.TrimSuffix(line, "\r\n"), nil
}
