package web_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/payment"
)

// pay presses Pay on the hold at holdPath and returns the answer.
func (c *client) pay(holdPath string, kv ...string) response {
	c.t.Helper()
	return c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}}, kv...)
}

// mustPay holds seats, presses Pay and returns the pending payment the
// browser was sent to the sandbox for.
func (c *client) mustPay(seats ...string) booking.Payment {
	c.t.Helper()
	res := c.pay(c.mustHold(seats...))
	wantStatus(c.t, res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	prefix := payment.CheckoutPath // a path: the browser keeps its origin and session
	if !strings.HasPrefix(loc, prefix) {
		c.t.Fatalf("Pay sent the browser to %q, want %s…", loc, prefix)
	}
	p, err := c.app.store.Payment(context.Background(), strings.TrimPrefix(loc, prefix))
	if err != nil {
		c.t.Fatalf("the payment of %s: %v", loc, err)
	}
	return p
}

// event is the JSON body a provider sends when p ends with typ.
func (a *app) event(p booking.Payment, typ booking.EventType) []byte {
	a.t.Helper()
	body, err := json.Marshal(payment.NewEvent(p, typ, a.clock.Now()))
	if err != nil {
		a.t.Fatal(err)
	}
	return body
}

// callback posts body to /payments/callback with the signature header sig
// ("" sends none), as a provider does: no session, no CSRF token.
func (a *app) callback(body []byte, sig string) response {
	a.t.Helper()
	h := http.Header{"Content-Type": {"application/json"}}
	if sig != "" {
		h.Set(payment.SignatureHeader, sig)
	}
	return a.client().do(http.MethodPost, payment.CallbackPath, bytes.NewReader(body), h)
}

// deliver signs body now with the test secret and posts it.
func (a *app) deliver(body []byte) response {
	a.t.Helper()
	return a.callback(body, payment.Sign([]byte(testSecret), body, a.clock.Now()))
}

// booking reads the booking of p from the store.
func (a *app) booking(p booking.Payment) booking.Booking {
	a.t.Helper()
	b, err := a.store.Booking(context.Background(), p.BookingID)
	if err != nil {
		a.t.Fatalf("Booking: %v", err)
	}
	return b
}

func TestPayRedirectsToTheProvider(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	if p.State != booking.PaymentPending || p.Amount != 36000 || p.Currency != "INR" {
		t.Errorf("payment = %+v, want pending ₹360", p)
	}
	if b := a.booking(p); b.State != booking.BookingPending || strings.Join(b.SeatIDs, ",") != "A1,A2" {
		t.Errorf("booking = %+v, want pending for A1, A2", b)
	}

	// htmx gets an HX-Redirect instead of a 303 it would follow itself.
	// (Another moviegoer: this one is paying for A1, A2, so cannot hold
	// again before going Back.)
	c = a.client()
	holdPath := c.mustHold("B1")
	res := c.pay(holdPath, "HX-Request", "true")
	wantStatus(t, res, http.StatusNoContent)
	if got := res.Header.Get("HX-Redirect"); !strings.HasPrefix(got, payment.CheckoutPath) {
		t.Errorf("HX-Redirect = %q", got)
	}
	// Pressing Pay again continues the same payment.
	first := res.Header.Get("HX-Redirect")
	if again := c.pay(holdPath, "HX-Request", "true").Header.Get("HX-Redirect"); again != first {
		t.Errorf("second Pay went to %q, want the same checkout %q", again, first)
	}
}

func TestPayRefusedWhenTheHoldEnded(t *testing.T) {
	tests := []struct {
		name    string
		end     func(a *app, c *client, holdPath string)
		message string
	}{
		{"expired", func(a *app, _ *client, _ string) { a.clock.Advance(15*time.Minute + time.Second) }, "expired"},
		{"released", func(_ *app, c *client, holdPath string) {
			wantStatus(t, c.post(holdPath+"/release", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
		}, "released"},
		{"replaced", func(_ *app, c *client, _ string) { c.mustHold("C3") }, "other seats"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t)
			c := a.client()
			holdPath := c.mustHold("A1", "A2")
			tt.end(a, c, holdPath)
			res := c.pay(holdPath)
			wantStatus(t, res, http.StatusGone)
			d := res.doc(t)
			if msg := d.Find("[role=alert]").Text(); !strings.Contains(msg, tt.message) {
				t.Errorf("410 says %q, want it to mention %q", msg, tt.message)
			}
			if d.Find(`a[href="/shows/`+testShowID+`"]`).Length() == 0 {
				t.Error("410 page has no way back to the seat map")
			}
			if d.Find(`form[action$="/pay"]`).Length() != 0 {
				t.Error("410 page still offers Pay")
			}
			if n := countPayments(t, a); n != 0 {
				t.Errorf("%d payments created, want none", n)
			}
		})
	}
}

func TestPayOnAnotherSessionsHoldIsNotFound(t *testing.T) {
	a := newApp(t)
	holdPath := a.client().mustHold("A1")
	wantStatus(t, a.client().pay(holdPath), http.StatusNotFound)
	if n := countPayments(t, a); n != 0 {
		t.Errorf("%d payments created, want none", n)
	}
}

// countPayments counts the payments in a's database.
func countPayments(t *testing.T, a *app) int {
	t.Helper()
	return a.count(`SELECT count(*) FROM payments`)
}

// count runs a counting query on a's database file, through a connection of
// its own: what is there, whatever the store's API shows.
func (a *app) count(query string, args ...any) int {
	a.t.Helper()
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		a.t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		a.t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestCallbackAnswers(t *testing.T) {
	a := newApp(t)
	p := a.client().mustPay("A1")
	valid := a.event(p, booking.EventPaymentSucceeded)
	sign := func(body []byte, at time.Time) string { return payment.Sign([]byte(testSecret), body, at) }
	now := a.clock.Now()
	other := booking.Payment{ID: booking.NewID(), HoldID: p.HoldID, Amount: p.Amount, Currency: p.Currency}
	wrongAmount := p
	wrongAmount.Amount++
	wrongHold := p
	wrongHold.HoldID = booking.NewID()
	tooBig := append(bytes.Repeat([]byte(" "), payment.MaxCallbackBytes), valid...)

	tests := []struct {
		name string
		body []byte
		sig  string
		want int
	}{
		{"missing signature", valid, "", http.StatusUnauthorized},
		{"wrong secret", valid, payment.Sign([]byte("not the secret"), valid, now), http.StatusUnauthorized},
		{"garbage signature", valid, "t=1,v1=zz", http.StatusUnauthorized},
		{"stale", valid, sign(valid, now.Add(-6*time.Minute)), http.StatusUnauthorized},
		{"from the future", valid, sign(valid, now.Add(6*time.Minute)), http.StatusUnauthorized},
		{"body tampered", bytes.Replace(valid, []byte(`"amount":18000`), []byte(`"amount":1`), 1), sign(valid, now), http.StatusUnauthorized},
		{"malformed JSON", []byte(`{"id":"evt_1","type":`), sign([]byte(`{"id":"evt_1","type":`), now), http.StatusBadRequest},
		{"unknown type", []byte(`{"id":"evt_2","type":"payment.refunded","created":1,"data":{}}`),
			sign([]byte(`{"id":"evt_2","type":"payment.refunded","created":1,"data":{}}`), now), http.StatusBadRequest},
		{"too large", tooBig, sign(tooBig, now), http.StatusBadRequest},
		{"unknown payment", a.event(other, booking.EventPaymentSucceeded), "", http.StatusNotFound},
		{"amount mismatch", a.event(wrongAmount, booking.EventPaymentSucceeded), "", http.StatusUnprocessableEntity},
		{"hold mismatch", a.event(wrongHold, booking.EventPaymentSucceeded), "", http.StatusUnprocessableEntity},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := tt.sig
			if sig == "" && tt.want != http.StatusUnauthorized {
				sig = sign(tt.body, now)
			}
			res := a.callback(tt.body, sig)
			wantStatus(t, res, tt.want)
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			if b := a.booking(p); b.State != booking.BookingPending {
				t.Errorf("after a refused callback the booking is %s", b.State)
			}
		})
	}

	// The real one, twice: processed, then a duplicate that changes nothing.
	for i, want := range []string{`{"effect":"booked"}`, `{"effect":"booked","duplicate":true}`} {
		res := a.deliver(valid)
		wantStatus(t, res, http.StatusOK)
		if got := strings.TrimSpace(res.body); got != want {
			t.Errorf("delivery %d answered %s, want %s", i+1, got, want)
		}
	}
	if b := a.booking(p); b.State != booking.BookingConfirmed || b.TicketCode == "" {
		t.Errorf("booking = %s %q, want confirmed with a ticket code", b.State, b.TicketCode)
	}
	m := a.client().get("/metrics").body
	for _, line := range []string{
		`boxoffice_payment_callbacks_total{outcome="booked"} 1`,
		`boxoffice_payment_callbacks_total{outcome="duplicate"} 1`,
		`boxoffice_payment_callbacks_total{outcome="bad_signature"} 6`,
	} {
		if !strings.Contains(m, line) {
			t.Errorf("metrics lack %s", line)
		}
	}
}

// TestCallbackConcurrentDeliveriesAcrossServers fires one event 20 times at
// once at two servers, each with its own store opened on the one database
// file, as two processes behind a load balancer: it takes effect once.
func TestCallbackConcurrentDeliveriesAcrossServers(t *testing.T) {
	a := newApp(t)
	b := a.sibling()
	p := a.client().mustPay("B1", "B2")
	body := a.event(p, booking.EventPaymentSucceeded)

	var wg sync.WaitGroup
	statuses := make([]int, 20)
	effects := make([]string, 20)
	start := make(chan struct{})
	for i := range statuses {
		srv := a
		if i%2 == 1 {
			srv = b
		}
		wg.Go(func() {
			<-start
			res := srv.deliver(body)
			statuses[i], effects[i] = res.StatusCode, strings.TrimSpace(res.body)
		})
	}
	close(start)
	wg.Wait()

	booked := 0
	for i := range statuses {
		if statuses[i] != http.StatusOK {
			t.Errorf("delivery %d: status %d (%s), want 200", i, statuses[i], effects[i])
		}
		if effects[i] == `{"effect":"booked"}` {
			booked++
		}
	}
	if booked != 1 {
		t.Errorf("%d deliveries took effect, want exactly 1: %v", booked, effects)
	}
	bk := b.booking(p)
	if bk.State != booking.BookingConfirmed {
		t.Fatalf("booking is %s, want confirmed", bk.State)
	}
	events := a.count(`SELECT count(*) FROM payment_events`)
	bookedSeats := a.count(`SELECT count(*) FROM seats WHERE status = 'booked' AND booking_id = ?`, bk.ID)
	if events != 1 || bookedSeats != 2 {
		t.Errorf("%d events recorded and %d seats booked, want 1 and 2", events, bookedSeats)
	}
}

// TestLatePayments is SPEC §2's "payment succeeded" rule at the endpoint:
// the money was taken, so seats still free are booked however late; seats
// taken meanwhile make the booking refund_due, never a double booking.
func TestLatePayments(t *testing.T) {
	tests := []struct {
		name      string
		meanwhile func(a *app, c *client, p booking.Payment)
		want      booking.BookingState
	}{
		{"failure after success", func(a *app, _ *client, p booking.Payment) {
			wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
			wantStatus(t, a.deliver(a.event(p, booking.EventPaymentFailed)), http.StatusOK)
		}, booking.BookingConfirmed},
		{"hold expired, seats untouched", func(a *app, _ *client, _ booking.Payment) {
			a.clock.Advance(40 * time.Minute)
		}, booking.BookingConfirmed},
		{"Back pressed, seats still free", func(a *app, c *client, p booking.Payment) {
			wantStatus(t, c.post(holdPathOf(p)+"/release", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
		}, booking.BookingConfirmed},
		{"expired and a seat re-held by another session", func(a *app, _ *client, _ booking.Payment) {
			a.clock.Advance(16 * time.Minute)
			a.client().mustHold("A2", "A3")
		}, booking.BookingRefundDue},
		{"Back pressed and a seat booked by another session", func(a *app, c *client, p booking.Payment) {
			wantStatus(t, c.post(holdPathOf(p)+"/release", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
			a.book("A1")
		}, booking.BookingRefundDue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newApp(t)
			c := a.client()
			p := c.mustPay("A1", "A2")
			tt.meanwhile(a, c, p)
			wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)

			b := a.booking(p)
			if b.State != tt.want {
				t.Fatalf("booking is %s (%s), want %s", b.State, b.Reason, tt.want)
			}
			sm, err := a.svc.SeatMap(context.Background(), testShowID, "")
			if err != nil {
				t.Fatal(err)
			}
			ownerOf := map[string]string{}
			for _, s := range sm.Seats {
				if s.ID == "A1" || s.ID == "A2" {
					ownerOf[s.ID] = string(s.Status) + " " + s.BookingID
				}
			}
			page := c.get("/bookings/" + b.ID).doc(t)
			state, _ := page.Find("[data-booking-id]").Attr("data-state")
			switch tt.want {
			case booking.BookingConfirmed:
				want := map[string]string{"A1": "booked " + b.ID, "A2": "booked " + b.ID}
				if diff := cmp.Diff(want, ownerOf); diff != "" {
					t.Errorf("seats (-want +got):\n%s", diff)
				}
			case booking.BookingRefundDue:
				for id, o := range ownerOf {
					if strings.HasSuffix(o, b.ID) {
						t.Errorf("seat %s is %s: booked for a refunded booking", id, o)
					}
				}
				if msg, why := page.Find("[role=alert]").Text(), booking.ReasonText(i18n.For(i18n.English), b.Reason); why == "" || !strings.Contains(msg, why) {
					t.Errorf("refund_due page says %q, want why: %q", msg, why)
				}
				if !strings.Contains(page.Find("[data-booking-id]").Text(), "will be returned") {
					t.Error("refund_due page does not say the money will be returned")
				}
			}
			if state != string(tt.want) {
				t.Errorf("booking page data-state = %q, want %s", state, tt.want)
			}
		})
	}
}

// holdPathOf is the checkout path of p's hold.
func holdPathOf(p booking.Payment) string { return "/holds/" + p.HoldID }
