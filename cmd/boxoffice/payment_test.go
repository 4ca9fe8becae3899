package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
)

// buildBinary builds the boxoffice binary into a temp directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "boxoffice")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startBinary runs bin serve with env added to ours and returns its base
// URL; at the end of the test it is stopped with SIGTERM and must exit 0.
func startBinary(t *testing.T, bin string, env ...string) string {
	t.Helper()
	p := launchBinary(t, bin, env...)
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if err := p.wait(shutdownGrace + 5*time.Second); err != nil {
			t.Errorf("after SIGTERM: %v, want exit status 0\n%s", err, p.stderr.String())
		}
	})
	return p.url
}

// process is a running boxoffice serve.
type process struct {
	url    string
	cmd    *exec.Cmd
	stderr *syncBuffer
	exited chan error // receives Wait's error once
	err    error
	done   bool
}

// wait waits up to within for the process to exit and returns how it
// exited; past within it kills the process and says so.
func (p *process) wait(within time.Duration) error {
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

// launchBinary runs bin serve with env added to ours, waits until it
// listens, and leaves stopping it to the caller (the process is killed at
// the end of the test if it still runs).
func launchBinary(t *testing.T, bin string, env ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), env...)
	stdout, stdoutW := io.Pipe()
	cmd.Stdout = stdoutW
	p := &process{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "boxoffice listening on "); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	go func() {
		err := cmd.Wait()
		stdoutW.Close()
		p.exited <- err
	}()
	t.Cleanup(func() {
		if !p.done {
			_ = cmd.Process.Kill()
			p.wait(5 * time.Second)
		}
	})
	select {
	case p.url = <-urls:
		return p
	case err := <-p.exited:
		p.err, p.done = err, true
		t.Fatalf("binary exited before listening: %v\n%s", err, p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("binary did not print its URL\n%s", p.stderr.String())
	}
	return nil
}

// TestCallbackAcrossProcesses runs the real binary twice on one SQLite file,
// as two processes behind a load balancer, and fires one signed payment
// event 20 times at once, split across both: every delivery is answered
// 200, and exactly one takes effect.
func TestCallbackAcrossProcesses(t *testing.T) {
	bin := buildBinary(t)
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()

	// The payment to settle, made through the domain on the same file.
	store := openStore(t, path)
	show := booking.Show{
		ID: booking.NewID(), Movie: booking.Movie{ID: "m1", Title: "Two Processes"},
		Theatre: booking.Theatre{ID: "t1", Name: "Odeon"}, Screen: "1",
		StartsAt: time.Now().Add(24 * time.Hour), Currency: "INR",
	}
	var seats []booking.Seat
	for i, id := range []string{"A1", "A2"} {
		seats = append(seats, booking.Seat{ShowID: show.ID, ID: id, Row: "A", Number: i + 1, GridCol: i,
			Category: "Classic", Price: 20000, Kind: booking.KindStandard, Status: booking.SeatAvailable})
	}
	if err := store.CreateShow(ctx, show, seats); err != nil {
		t.Fatal(err)
	}
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	h, err := svc.HoldSeats(ctx, show.ID, "visitor", []string{"A1", "A2"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := svc.StartPayment(ctx, h.ID, "visitor")
	if err != nil {
		t.Fatal(err)
	}

	const secret = "whsec_two_processes"
	env := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false",
		"LOG_FORMAT=json", "PAYMENT_WEBHOOK_SECRET=" + secret}
	servers := []string{startBinary(t, bin, env...), startBinary(t, bin, env...)}

	body, err := json.Marshal(payment.NewEvent(p, booking.EventPaymentSucceeded, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make([]answer, 20)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			<-start
			req, err := http.NewRequest(http.MethodPost, servers[i%2]+payment.CallbackPath, bytes.NewReader(body))
			if err != nil {
				answers[i].err = err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(payment.SignatureHeader, payment.Sign([]byte(secret), body, time.Now()))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				answers[i].err = err
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			answers[i] = answer{status: res.StatusCode, body: strings.TrimSpace(string(b))}
		})
	}
	close(start)
	wg.Wait()

	took := map[string]int{}
	for i, a := range answers {
		if a.err != nil || a.status != http.StatusOK {
			t.Errorf("delivery %d to %s: %d %s %v, want 200", i, servers[i%2], a.status, a.body, a.err)
			continue
		}
		took[a.body]++
	}
	if took[`{"effect":"booked"}`] != 1 || took[`{"effect":"booked","duplicate":true}`] != len(answers)-1 {
		t.Errorf("answers %v, want one booked and %d duplicates", took, len(answers)-1)
	}

	b, err := store.Booking(ctx, p.BookingID)
	if err != nil || b.State != booking.BookingConfirmed || b.TicketCode == "" {
		t.Fatalf("booking = %s %q, %v; want confirmed with a ticket code", b.State, b.TicketCode, err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var events, booked int
	if err := db.QueryRow(`SELECT count(*) FROM payment_events`).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM seats WHERE status = 'booked' AND booking_id = ?`, b.ID).Scan(&booked); err != nil {
		t.Fatal(err)
	}
	if events != 1 || booked != 2 {
		t.Errorf("%d events recorded, %d seats booked; want 1 and 2", events, booked)
	}
}
