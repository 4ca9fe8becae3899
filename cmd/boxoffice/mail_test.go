package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
)

// blackHole is an SMTP server that accepts connections and never answers:
// a process sending to it is stuck mid-send until it is killed.
func blackHole(t *testing.T) (addr string, connected <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ch := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			ch <- struct{}{}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln.Addr().String(), ch
}

// TestMailSurvivesAKill: a process commits a confirmation, claims its mail
// and is killed with SIGKILL in the middle of sending it. Nothing is lost:
// after its lease two fresh processes share the outbox, and the mail
// arrives at a real SMTP server exactly once, with a booking link that
// opens the ticket without any cookie.
func TestMailSurvivesAKill(t *testing.T) {
	bin := testkit.BuildBinary(t)
	mailpit := testkit.Mailpit(t)
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()

	store := openStore(t, path)
	show, _ := createShow(t, store, "Kill Nine", 2)
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	holdID, err := svc.HoldSeats(ctx, show.ID, "visitor", []string{"A1", "A2"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := svc.StartPayment(ctx, holdID, "visitor", "ana@example.com")
	if err != nil {
		t.Fatal(err)
	}

	const secret = "whsec_mail_survives"
	const lease = 5 * time.Second
	env := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false", "LOG_FORMAT=json",
		"PAYMENT_WEBHOOK_SECRET=" + secret, "MAIL_LEASE=" + lease.String(), "MAIL_FROM=boxoffice <tickets@example.com>"}
	hole, connected := blackHole(t)
	doomed := testkit.Start(t, bin, append(env, "SMTP_URL=smtp://"+hole), "serve")

	body, err := json.Marshal(payment.NewEvent(p, booking.EventPaymentSucceeded, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, doomed.URL+payment.CallbackPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(payment.SignatureHeader, payment.Sign([]byte(secret), body, time.Now()))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("callback: %d", res.StatusCode)
	}
	select {
	case <-connected:
	case <-time.After(15 * time.Second):
		t.Fatalf("the process never started sending the mail; log:\n%s", doomed.Log())
	}
	if err := doomed.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = doomed.Wait(5 * time.Second)

	b, err := store.Booking(ctx, p.BookingID)
	if err != nil || b.State != booking.BookingConfirmed {
		t.Fatalf("booking after the kill: %s, %v; want confirmed", b.State, err)
	}
	mailID := b.ID + ".confirmed"
	m, err := store.Mail(ctx, mailID)
	if err != nil || m.Attempts != 1 || !m.SentAt.IsZero() {
		t.Fatalf("the mail after the kill: %+v, %v; want claimed once and not sent", m, err)
	}

	// Two processes restart on the same file; neither may send before the
	// lease lapses, and only one sends it then.
	mailEnv := append(env, "SMTP_URL="+mailpit.SMTPURL)
	srv := serve(t, bin, mailEnv...)
	serve(t, bin, mailEnv...)
	got := mailpit.WaitFor(t, 1)
	time.Sleep(lease + 3*time.Second) // long enough for a second send, if there were one
	if n := len(mailpit.Messages(t)); n != 1 {
		t.Fatalf("%d mails arrived, want exactly 1", n)
	}
	if got[0].Created.Before(m.ClaimedUntil.Add(-time.Second)) {
		t.Errorf("the mail arrived at %v, before the killed process's lease ended at %v", got[0].Created, m.ClaimedUntil)
	}
	msg := mailpit.Message(t, got[0].ID)
	if len(msg.To) != 1 || msg.To[0].Address != "ana@example.com" || !strings.Contains(msg.Subject, "Kill Nine") {
		t.Errorf("mail to %+v, subject %q", msg.To, msg.Subject)
	}
	if !strings.Contains(msg.Text, b.TicketCode) {
		t.Errorf("the mail does not carry ticket code %s:\n%s", b.TicketCode, msg.Text)
	}
	if m, err := store.Mail(ctx, mailID); err != nil || m.SentAt.IsZero() {
		t.Errorf("the mail is not recorded sent: %+v, %v", m, err)
	}

	// The link in the mail, from a client with no cookies, shows the ticket.
	link := regexp.MustCompile(`https?://\S+/bookings/` + b.ID + `\?key=[A-Za-z0-9_%-]+`).FindString(msg.Text)
	if link == "" {
		t.Fatalf("no booking link in the mail:\n%s", msg.Text)
	}
	// The link names PUBLIC_URL, which is the first process's address: ask
	// a running process for the same path.
	linkPath := link[strings.Index(link, "/bookings/"):]
	res, err = (&http.Client{}).Get(srv.URL + linkPath)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s without a cookie: %d, %v", linkPath, res.StatusCode, err)
	}
	if code, _ := d.Find("[data-ticket-code]").Attr("data-ticket-code"); code != b.TicketCode {
		t.Errorf("the link opens ticket %q, want %q", code, b.TicketCode)
	}
}
