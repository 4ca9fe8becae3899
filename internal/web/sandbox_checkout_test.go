package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
)

// TestSandboxCheckoutPage: the sandbox's checkout is a page of this app,
// standing alone as a provider's would: the banner, the amount for people
// and machines, Pay and Decline posting back with the session's CSRF
// token, no inline script or style; a settled payment links to its
// booking; an unknown one is 404. Pay and Decline are decided by the
// provider (payment.Sandbox.Decide); anything else is 422 and sends no
// callback.
func TestSandboxCheckoutPage(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	page := payment.CheckoutPath + p.ID
	res := c.get(page)
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	for _, ch := range []struct{ what, got, want string }{
		{"banner", d.Find(".sandbox__banner strong").Text(), "Sandbox payment — no real money"},
		{"data-payment-id", d.Find("[data-payment-id]").AttrOr("data-payment-id", ""), p.ID},
		{"data-amount", d.Find("[data-amount]").AttrOr("data-amount", ""), "36000"},
		{"amount", d.Find(".sandbox__amount").Text(), "₹360"},
		{"merchant", d.Find("h1").Text(), "Pay boxoffice"},
		{"form action", d.Find("form").AttrOr("action", ""), page},
		{"pay", d.Find(`button[value="succeed"]`).Text(), "Pay ₹360"},
		{"decline", d.Find(`button[value="decline"]`).Text(), "Decline"},
		{"cache", res.Header.Get("Cache-Control"), "no-store"},
	} {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.what, ch.got, ch.want)
		}
	}
	if n := d.Find("script, style, [style]").Length(); n != 0 {
		t.Errorf("the page has %d inline scripts or styles; the CSP forbids them", n)
	}
	if href := d.Find(`link[rel="stylesheet"]`).AttrOr("href", ""); !strings.HasSuffix(href, "/css/app.css") {
		t.Errorf("stylesheet %q", href)
	}

	field := d.Find(`form input[name="_csrf"]`).AttrOr("value", "")
	if field == "" || d.Find(`meta[name="csrf-token"]`).AttrOr("content", "") == "" {
		t.Fatal("the page has no CSRF token for its form")
	}
	for _, outcome := range []string{"", "refund"} {
		wantStatus(t, c.post(page, url.Values{"_csrf": {field}, "outcome": {outcome}}), http.StatusUnprocessableEntity)
	}
	wantStatus(t, c.get(payment.CheckoutPath+"nosuch"), http.StatusNotFound)
	wantStatus(t, c.post(payment.CheckoutPath+"nosuch", url.Values{"_csrf": {field}, "outcome": {"succeed"}}), http.StatusNotFound)

	res = c.post(page, url.Values{"_csrf": {field}, "outcome": {"decline"}})
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/bookings/"+p.BookingID {
		t.Errorf("Decline sent the browser to %q", loc)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := a.store.Booking(t.Context(), p.BookingID)
		if err == nil && b.State == booking.BookingFailed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the declined payment's booking is %s, %v", b.State, err)
		}
	}
	d = c.get(page).doc(t)
	if d.Find("form").Length() != 0 || d.Find("a.button").AttrOr("href", "") != "/bookings/"+p.BookingID {
		t.Error("a settled payment's page still offers Pay, or no link to its booking")
	}
}
