package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/web"
)

// bookingState returns the booking element of a page or fragment and its
// data-state.
func bookingState(t *testing.T, res response) string {
	t.Helper()
	state, ok := res.doc(t).Find("[data-booking-id]").Attr("data-state")
	if !ok {
		t.Fatalf("%s: no [data-booking-id] with data-state:\n%s", res.Request.URL.Path, res.body)
	}
	return state
}

func TestBookingPageFollowsThePayment(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("D5", "D6")
	path := "/bookings/" + p.BookingID

	// Pending: the page polls its fragment, which answers 304 until it changes.
	res := c.get(path)
	wantStatus(t, res, http.StatusOK)
	el := res.doc(t).Find("[data-booking-id]")
	if id, _ := el.Attr("data-booking-id"); id != p.BookingID {
		t.Errorf("data-booking-id = %q, want %q", id, p.BookingID)
	}
	if bookingState(t, res) != "pending" {
		t.Errorf("new booking is not pending")
	}
	if poll, _ := el.Attr("hx-get"); poll != path+"/status" {
		t.Errorf("pending booking polls %q, want %s/status", poll, path)
	}
	if trig, _ := el.Attr("hx-trigger"); trig != "every 1s" {
		t.Errorf("hx-trigger = %q", trig)
	}
	status := c.get(path+"/status", "HX-Request", "true")
	wantStatus(t, status, http.StatusOK)
	if strings.Contains(status.body, "<html") || bookingState(t, status) != "pending" {
		t.Errorf("status fragment is not a pending fragment:\n%s", status.body)
	}
	wantStatus(t, c.get(path+"/status", "If-None-Match", status.Header.Get("ETag")), http.StatusNotModified)

	// The callback lands: the next poll brings the ticket.
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	status = c.get(path+"/status", "If-None-Match", status.Header.Get("ETag"), "HX-Request", "true")
	wantStatus(t, status, http.StatusOK)
	b := a.booking(p)
	d := status.doc(t)
	el = d.Find("[data-booking-id]")
	if code, _ := el.Attr("data-ticket-code"); code == "" || code != b.TicketCode {
		t.Errorf("data-ticket-code = %q, want %q", code, b.TicketCode)
	}
	if _, polls := el.Attr("hx-get"); polls {
		t.Error("a confirmed booking still polls")
	}
	svg := d.Find("svg.ticket-qr")
	if vb, _ := svg.Attr("viewBox"); !strings.HasPrefix(vb, "0 0 ") || svg.Find("g rect").Length() < 20 {
		t.Errorf("no QR code drawn: viewBox %q, %d modules", vb, svg.Find("g rect").Length())
	}
	if label, _ := svg.Attr("aria-label"); !strings.Contains(label, b.TicketCode) {
		t.Errorf("QR code labelled %q", label)
	}
	text := el.Text()
	for _, want := range []string{"Monsoon Express", "Lalbagh Cinemas", "D5, D6", "₹500", "15 Mar", b.TicketCode} {
		if !strings.Contains(text, want) {
			t.Errorf("confirmed booking lacks %q:\n%s", want, text)
		}
	}
	if got := bookingState(t, c.get(path)); got != "confirmed" {
		t.Errorf("booking page state %q after the callback", got)
	}
}

func TestBookingIsOnlyForItsSession(t *testing.T) {
	a := newApp(t)
	p := a.client().mustPay("A1")
	for _, path := range []string{"/bookings/" + p.BookingID, "/bookings/" + p.BookingID + "/status"} {
		other := a.client()
		other.csrf() // a session of its own
		wantStatus(t, other.get(path), http.StatusNotFound)
		wantStatus(t, a.client().get(path), http.StatusNotFound) // no session at all
	}
	wantStatus(t, a.client().get("/bookings/"+booking.NewID()), http.StatusNotFound)
}

func TestBookingDeclined(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentFailed)), http.StatusOK)
	res := c.get("/bookings/" + p.BookingID)
	if got := bookingState(t, res); got != "failed" {
		t.Fatalf("declined booking is %q, want failed", got)
	}
	d := res.doc(t)
	if d.Find(`[data-booking-id] a[href="/shows/`+testShowID+`"]`).Length() == 0 {
		t.Error("declined booking has no link back to the seat map")
	}
	if _, ok := d.Find("[data-booking-id]").Attr("data-ticket-code"); ok {
		t.Error("declined booking has a ticket code")
	}
	if st := seatStates(c.get("/shows/" + testShowID).doc(t)); st["A1"] != "available" || st["A2"] != "available" {
		t.Errorf("after a decline A1, A2 are %s, %s; want available", st["A1"], st["A2"])
	}
}

// TestSandboxCheckout goes through the sandbox's own pages over HTTP: its
// form carries the session's CSRF token, Pay sends the browser to the
// booking at once, and the callback arrives by itself over real HTTP.
func TestSandboxCheckout(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("E1", "E2")
	page := c.get(payment.CheckoutPath + p.ID)
	wantStatus(t, page, http.StatusOK)
	d := page.doc(t)
	if amount, _ := d.Find("[data-payment-id]").Attr("data-amount"); amount != "50000" {
		t.Errorf("sandbox shows amount %q, want 50000", amount)
	}
	token, _ := d.Find(`input[name="_csrf"]`).Attr("value")
	if token == "" { // masked per response: the POST below proves it is the session's
		t.Fatal("the sandbox form has no _csrf")
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("sandbox page without our CSP: %q", csp)
	}

	submit := payment.CheckoutPath + p.ID
	wantStatus(t, c.post(submit, url.Values{"outcome": {"succeed"}}), http.StatusForbidden)
	wantStatus(t, a.client().post(submit, url.Values{"outcome": {"succeed"}, "_csrf": {token}}), http.StatusForbidden)
	if a.booking(p).State != booking.BookingPending {
		t.Fatal("a refused submit sent a callback")
	}
	res := c.post(submit, url.Values{"outcome": {"succeed"}, "_csrf": {token}})
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/bookings/"+p.BookingID {
		t.Fatalf("after Pay the sandbox sent the browser to %q", loc)
	}
	deadline := time.Now().Add(10 * time.Second)
	for bookingState(t, c.get("/bookings/"+p.BookingID+"/status")) != "confirmed" {
		if time.Now().After(deadline) {
			t.Fatal("the sandbox's callback did not confirm the booking within 10s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestWithoutPaymentProvider(t *testing.T) {
	a := newApp(t, func(o *web.Options) { o.Payments = nil })
	c := a.client()
	holdPath := c.mustHold("A1")
	wantStatus(t, c.pay(holdPath), http.StatusServiceUnavailable)
	wantStatus(t, c.get(payment.CheckoutPath+booking.NewID()), http.StatusNotFound)
	wantStatus(t, a.callback([]byte(`{}`), ""), http.StatusServiceUnavailable)
}
