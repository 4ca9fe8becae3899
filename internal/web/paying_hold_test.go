package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"boxoffice/internal/booking"
)

// TestHoldWhilePaying: a moviegoer presses Pay, comes back to the seat map
// (the browser's Back button) and holds the same seats again. Replacing
// the hold would take the seats from under the payment, which would then
// end refund_due; instead the hold is 409 saying what is being paid for,
// as a page and as an htmx answer, each leading to the checkout, and
// nothing changes: the payment, when it succeeds, books the seats. Back
// stays possible, and after it a hold succeeds.
func TestHoldWhilePaying(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holdPath := c.mustHold("A1", "A2")
	p := c.mustPayHold(holdPath)
	const want = "You are paying for A1, A2: finish, or go Back first."

	for _, htmx := range []bool{false, true} {
		for _, seats := range [][]string{{"A1", "A2"}, {"B1"}} {
			var kv []string
			if htmx {
				kv = []string{"HX-Request", "true"}
			}
			res := c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {c.csrf()}, "seat": seats}, kv...)
			if res.StatusCode != http.StatusConflict {
				t.Fatalf("hold %v while paying (htmx %v): status %d, want 409; body:\n%s", seats, htmx, res.StatusCode, res.body)
			}
			d := res.doc(t)
			if !strings.Contains(d.Text(), want) {
				t.Errorf("hold %v while paying (htmx %v) does not say %q:\n%s", seats, htmx, want, res.body)
			}
			if href, _ := d.Find("[data-paying-hold] a").Attr("href"); href != holdPath {
				t.Errorf("hold %v while paying (htmx %v) leads to %q, want the checkout %s", seats, htmx, href, holdPath)
			}
		}
	}
	if n := a.count(`SELECT count(*) FROM holds`); n != 1 {
		t.Errorf("%d holds stored, want the one being paid for", n)
	}
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	if b := a.booking(p); b.State != booking.BookingConfirmed {
		t.Errorf("the payment ended %q (%s), want confirmed", b.State, b.Reason)
	}

	// Back stays possible: a moviegoer paying for B1 goes Back, and holds.
	c2 := a.client()
	path2 := c2.mustHold("B1")
	c2.mustPayHold(path2)
	wantStatus(t, c2.hold("B1", "B2"), http.StatusConflict)
	res := c2.post(path2+"/release", url.Values{"_csrf": {c2.csrf()}})
	wantStatus(t, res, http.StatusSeeOther)
	c2.mustHold("B1", "B2")
}

// mustPayHold presses Pay on the hold at holdPath and returns the pending
// payment.
func (c *client) mustPayHold(holdPath string) booking.Payment {
	c.t.Helper()
	res := c.pay(holdPath)
	wantStatus(c.t, res, http.StatusSeeOther)
	p, err := c.app.store.Payment(c.t.Context(), strings.TrimPrefix(res.Header.Get("Location"), "/sandbox/checkout/"))
	if err != nil {
		c.t.Fatalf("the payment of %s: %v", holdPath, err)
	}
	return p
}
