package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
)

// TestCallbackAcrossProcesses runs the real binary twice on one SQLite file,
// as two processes behind a load balancer, and fires one signed payment
// event 20 times at once, split across both: every delivery is answered
// 200, and exactly one takes effect.
func TestCallbackAcrossProcesses(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()

	// The payment to settle, made through the domain on the same file.
	store := openStore(t, path)
	show, _ := createShow(t, store, "Two Processes", 2)
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	holdID, err := svc.HoldSeats(ctx, show.ID, "visitor", []string{"A1", "A2"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := svc.StartPayment(ctx, holdID, "visitor", "moviegoer@example.com")
	if err != nil {
		t.Fatal(err)
	}

	const secret = "whsec_two_processes"
	env := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false",
		"LOG_FORMAT=json", "PAYMENT_WEBHOOK_SECRET=" + secret}
	servers := []string{serve(t, bin, env...).URL, serve(t, bin, env...).URL}

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
