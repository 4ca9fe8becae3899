package main

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// slowSMTP is an SMTP server on loopback that takes a message and, before
// it answers the end of its DATA, waits for release: a send in progress
// for as long as the test likes. inData says a message's data has arrived.
func slowSMTP(t *testing.T) (addr string, inData <-chan struct{}, release chan<- struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	data, rel := make(chan struct{}, 4), make(chan struct{})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				r := bufio.NewReader(c)
				say := func(s string) { _, _ = c.Write([]byte(s + "\r\n")) }
				say("220 localhost ESMTP test")
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					cmd := strings.ToUpper(strings.TrimSpace(line))
					switch {
					case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
						say("250-localhost")
						say("250 8BITMIME")
					case strings.HasPrefix(cmd, "DATA"):
						say("354 go ahead")
						for {
							l, err := r.ReadString('\n')
							if err != nil {
								return
							}
							if l == ".\r\n" {
								break
							}
						}
						data <- struct{}{}
						<-rel
						say("250 queued")
					case strings.HasPrefix(cmd, "QUIT"):
						say("221 bye")
						return
					default:
						say("250 ok")
					}
				}
			}(c)
		}
	}()
	return ln.Addr().String(), data, rel
}

// TestSIGTERMWaitsForTheMailBeingSent: SIGTERM comes while the outbox
// sender is in the middle of an SMTP send. The process stops serving but
// waits for the send (the server answers it after SIGTERM), records the
// mail as sent, and only then closes the database and exits cleanly: the
// mail does not go again at the next start.
func TestSIGTERMWaitsForTheMailBeingSent(t *testing.T) {
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()
	store := openStore(t, path)
	show, _ := createShow(t, store, "Last Orders", 2)
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	holdID, err := svc.HoldSeats(ctx, show.ID, "visitor", []string{"A1"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := svc.StartPayment(ctx, holdID, "visitor", "ana@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency}); err != nil {
		t.Fatal(err)
	}
	mailID := p.BookingID + ".confirmed"
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	smtpAddr, inData, release := slowSMTP(t)
	runCtx, sigterm := context.WithCancel(ctx)
	defer sigterm()
	ready := make(chan string, 1)
	var stdout, stderr testkit.SyncBuffer
	m := &Main{Stdout: &stdout, Stderr: &stderr, Ready: func(u string) { ready <- u }}
	getenv := env(map[string]string{"ADDR": "127.0.0.1:0", "DATABASE_URL": dbURL, "SEED_DEMO": "false",
		"SMTP_URL": "smtp://" + smtpAddr, "MAIL_FROM": "boxoffice <tickets@example.com>",
		"PAYMENT_WEBHOOK_SECRET": "whsec_workers_0123456789abcdef"})
	done := make(chan error, 1)
	go func() { done <- m.Run(runCtx, nil, getenv) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve ended before listening: %v\n%s", err, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen within 30s\n%s", stderr.String())
	}
	select {
	case <-inData:
	case <-time.After(30 * time.Second):
		t.Fatalf("the mail was never sent\n%s", stderr.String())
	}

	sigterm() // what SIGTERM does in main
	// serve waits for the send: it says so, and has not returned.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(shutdownGrace)
wait:
	for {
		select {
		case err := <-done:
			close(release)
			t.Fatalf("serve returned (%v) with a mail being sent\n%s", err, stderr.String())
		case <-tick.C:
			if strings.Contains(stderr.String(), "waiting for background work") {
				break wait
			}
		case <-deadline:
			t.Fatalf("serve neither returned nor waited for its background work\n%s", stderr.String())
		}
	}
	close(release) // the SMTP server answers the send now
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v, want nil\n%s", err, stderr.String())
		}
	case <-time.After(shutdownGrace + 5*time.Second):
		t.Fatalf("serve did not stop\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "closing the database under it") {
		t.Errorf("the background work was cut off\n%s", stderr.String())
	}

	store = openStore(t, path)
	got, err := store.Mail(ctx, mailID)
	if err != nil {
		t.Fatal(err)
	}
	if got.SentAt.IsZero() || got.Attempts != 1 {
		t.Errorf("the mail after SIGTERM: sent at %v after %d attempts; want sent, at the first\n%s", got.SentAt, got.Attempts, stderr.String())
	}
}
