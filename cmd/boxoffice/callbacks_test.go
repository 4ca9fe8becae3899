package main

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
)

// TestSandboxCallbackSurvivesAKill: a moviegoer presses Pay on the sandbox
// checkout of a process whose callbacks cannot get through (its PUBLIC_URL
// answers 503), and the process is killed with SIGKILL before any attempt
// succeeds. Nothing is lost (SPEC §6): the outcome was recorded with its
// callback in the database, and a fresh process on the same file delivers
// it to itself, which confirms the booking.
func TestSandboxCallbackSurvivesAKill(t *testing.T) {
	bin := testkit.BuildBinary(t)
	dbURL, path := tempDatabaseURL(t)
	ctx := context.Background()

	store := openStore(t, path)
	show, _ := createShow(t, store, "Kill Nine Callback", 2)
	svc := booking.NewService(store, nil, booking.DefaultPolicy)
	holdID, err := svc.HoldSeats(ctx, show.ID, "visitor", []string{"A1", "A2"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := svc.StartPayment(ctx, holdID, "visitor", "ana@example.com")
	if err != nil {
		t.Fatal(err)
	}

	var refused atomic.Int32
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refused.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(unavailable.Close)
	env := []string{"ADDR=127.0.0.1:0", "DATABASE_URL=" + dbURL, "SEED_DEMO=false", "LOG_FORMAT=json",
		"PAYMENT_WEBHOOK_SECRET=whsec_callback_survives"}
	doomed := testkit.Start(t, bin, append(env, "PUBLIC_URL="+unavailable.URL), "serve")

	// Pay, as the checkout page's form does.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page := doomed.URL + payment.CheckoutPath + p.ID
	res, err := client.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	d, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET the checkout page: %d, %v", res.StatusCode, err)
	}
	token := d.Find(`form input[name="_csrf"]`).AttrOr("value", "")
	res, err = client.PostForm(page, url.Values{"_csrf": {token}, "outcome": {"succeed"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("Pay: %d, want 303; log:\n%s", res.StatusCode, doomed.Log())
	}

	// The process tried, failed, and is killed before it can succeed.
	var c booking.OutboundCallback
	testkit.Eventually(t, 15*time.Second, func() bool {
		c, err = store.OutboundCallback(ctx, p.ID)
		return err == nil && c.Attempts >= 1 && strings.Contains(c.LastError, "503")
	}, "a failed attempt to be recorded; log:\n%s", doomed.Log())
	if err := doomed.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = doomed.Wait(5 * time.Second)
	if refused.Load() < 1 {
		t.Fatal("the doomed process never tried")
	}
	b, err := store.Booking(ctx, p.BookingID)
	if err != nil || b.State != booking.BookingPending {
		t.Fatalf("booking after the kill: %s, %v; want still pending", b.State, err)
	}
	if c, err = store.OutboundCallback(ctx, p.ID); err != nil || !c.DeliveredAt.IsZero() || !c.GaveUpAt.IsZero() {
		t.Fatalf("the callback after the kill: %+v, %v; want still to deliver", c, err)
	}

	// A fresh process, on its own address, delivers it to itself.
	serve(t, bin, env...)
	testkit.Eventually(t, 40*time.Second, func() bool {
		b, err = store.Booking(ctx, p.BookingID)
		return err == nil && b.State == booking.BookingConfirmed
	}, "the booking to be confirmed")
	if b.TicketCode == "" {
		t.Error("the confirmed booking has no ticket code")
	}
	// The callback is recorded delivered once its answer is back, just
	// after the booking is confirmed.
	testkit.Eventually(t, 10*time.Second, func() bool {
		c, err = store.OutboundCallback(ctx, p.ID)
		return err == nil && !c.DeliveredAt.IsZero()
	}, "the callback to be recorded delivered")
	if c.Attempts < 2 || c.LastError != "" {
		t.Errorf("the callback: %+v; want delivered by a later attempt", c)
	}
}
