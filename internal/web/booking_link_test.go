package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/web"
)

// TestPayEmail: Pay needs one address with a dotted domain; what became of
// the hold is answered first (404, 410), then the address (422), and a
// refused Pay creates nothing. A second Pay corrects the address.
func TestPayEmail(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holdPath := c.mustHold("A1")
	for _, bad := range []string{"", "moviegoer", "a@localhost", "two@example.com, three@example.com", "Ana <ana@example.com>", "a@example..com"} {
		res := c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {bad}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if d.Find(`[data-field-error="email"]`).Length() != 1 || d.Find(`form.pay-form input[name="email"]`).Length() != 1 {
			t.Errorf("email %q: the checkout does not say what is wrong with the address", bad)
		}
	}
	if n := countPayments(t, a); n != 0 {
		t.Fatalf("refused Pays created %d payments", n)
	}
	// Another session's hold: 404 whatever the address.
	wantStatus(t, a.client().post(holdPath+"/pay", url.Values{"email": {"x"}}), http.StatusForbidden) // no CSRF token
	other := a.client()
	wantStatus(t, other.post(holdPath+"/pay", url.Values{"_csrf": {other.csrf()}, "email": {"x"}}), http.StatusNotFound)
	// An expired hold: 410 before the address.
	expired := a.client()
	expiredPath := expired.mustHold("B1")
	a.clock.Advance(16 * time.Minute)
	wantStatus(t, expired.post(expiredPath+"/pay", url.Values{"_csrf": {expired.csrf()}, "email": {"nope"}}), http.StatusGone)

	c2 := a.client()
	path := c2.mustHold("C1")
	res := c2.post(path+"/pay", url.Values{"_csrf": {c2.csrf()}, "email": {"typo@exmaple.com"}})
	wantStatus(t, res, http.StatusSeeOther)
	// The session was renewed at Pay; the checkout offers the address again.
	if v, _ := c2.get(path).doc(t).Find(`input[name="email"]`).Attr("value"); v != "typo@exmaple.com" {
		t.Errorf("the checkout offers %q, want the address given", v)
	}
	res = c2.post(path+"/pay", url.Values{"_csrf": {c2.csrf()}, "email": {" Ana@Example.COM "}})
	wantStatus(t, res, http.StatusSeeOther)
	p, err := a.store.Payment(context.Background(), strings.TrimPrefix(res.Header.Get("Location"), "/sandbox/checkout/"))
	if err != nil {
		t.Fatal(err)
	}
	if b := a.booking(p); b.Email != "Ana@example.com" {
		t.Errorf("after a second Pay the booking's address is %q, want Ana@example.com", b.Email)
	}
	if n := countPayments(t, a); n != 1 {
		t.Errorf("two Pays made %d payments, want 1", n)
	}
}

// TestPayRenewsTheSessionToken: a token seen before Pay is worth nothing
// after it; the moviegoer's booking still opens.
func TestPayRenewsTheSessionToken(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holdPath := c.mustHold("A1")
	before := c.sessionToken()
	res := c.pay(holdPath)
	wantStatus(t, res, http.StatusSeeOther)
	if after := c.sessionToken(); after == before || after == "" {
		t.Errorf("session token %q before Pay and %q after; want a new one", before, after)
	}
	if n := a.count(`SELECT count(*) FROM sessions WHERE token = ?`, before); n != 0 {
		t.Error("the token from before Pay is still stored")
	}
}

// TestBookingLink: the link opens the booking and its status fragment in a
// browser without the session; a wrong or missing key is 404.
func TestBookingLink(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	b := a.booking(p)
	if b.Key == "" || len(b.Key) < 22 {
		t.Fatalf("booking key %q: want at least 128 random bits", b.Key)
	}
	page := c.get("/bookings/" + b.ID)
	link, ok := page.doc(t).Find("[data-booking-link]").Attr("href")
	if !ok || !strings.HasSuffix(link, "/bookings/"+b.ID+"?key="+b.Key) || !strings.HasPrefix(link, a.srv.URL) {
		t.Fatalf("the confirmation shows link %q, want the absolute booking link", link)
	}
	stranger := a.client()
	res := stranger.get(strings.TrimPrefix(link, a.srv.URL))
	wantStatus(t, res, http.StatusOK)
	if got := bookingState(t, res); got != "confirmed" {
		t.Errorf("the link opens a booking in state %q", got)
	}
	if code, _ := res.doc(t).Find("[data-ticket-code]").Attr("data-ticket-code"); code != b.TicketCode {
		t.Errorf("ticket code %q through the link, want %q", code, b.TicketCode)
	}
	wantStatus(t, stranger.get("/bookings/"+b.ID+"/status?key="+url.QueryEscape(b.Key)), http.StatusOK)
	for _, q := range []string{"", "?key=", "?key=wrong", "?key=" + url.QueryEscape(b.Key[:len(b.Key)-1])} {
		wantStatus(t, stranger.get("/bookings/"+b.ID+q), http.StatusNotFound)
		wantStatus(t, stranger.get("/bookings/"+b.ID+"/status"+q), http.StatusNotFound)
	}
	// A pending booking opened by its link polls with the key.
	p2 := c.mustPay("B1")
	b2 := a.booking(p2)
	d := stranger.get("/bookings/" + b2.ID + "?key=" + url.QueryEscape(b2.Key)).doc(t)
	if hx, _ := d.Find("[data-booking-id]").Attr("hx-get"); hx != "/bookings/"+b2.ID+"/status?key="+url.QueryEscape(b2.Key) {
		t.Errorf("a pending booking opened by its link polls %q", hx)
	}
}

// TestFindBooking: the same answer whether the address and code match or
// not; a match queues the link mail; the address is limited.
func TestFindBooking(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("A1")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	b := a.booking(p)
	finder := a.client()
	wantStatus(t, finder.get("/bookings/find"), http.StatusOK)
	find := func(email, code string) string {
		t.Helper()
		res := finder.post("/bookings/find", url.Values{"_csrf": {finder.csrf()}, "email": {email}, "code": {code}})
		wantStatus(t, res, http.StatusOK)
		return strings.TrimSpace(res.doc(t).Find("[data-find-sent]").Text())
	}
	links := func() int { return a.count(`SELECT count(*) FROM mail WHERE kind = 'link' AND booking_id = ?`, b.ID) }
	miss := find("someone@example.com", b.TicketCode)
	if links() != 0 {
		t.Fatal("a wrong address queued the link")
	}
	hit := find(strings.ToUpper(testEmail), strings.ToLower(strings.ReplaceAll(b.TicketCode, "-", "")))
	if hit != miss || hit == "" {
		t.Errorf("answers differ:\n match: %q\n miss:  %q", hit, miss)
	}
	if links() != 1 {
		t.Errorf("%d link mails queued after a match, want 1", links())
	}
	if got := find(testEmail, "ZZZZ-ZZZZ"); got != miss {
		t.Errorf("unknown code answered %q", got)
	}
	// Ten a window per address: the next is 429 with Retry-After.
	for i := 0; i < 10; i++ {
		res := finder.post("/bookings/find", url.Values{"_csrf": {finder.csrf()}, "email": {testEmail}, "code": {"ZZZZ-ZZZZ"}})
		if res.StatusCode == http.StatusTooManyRequests {
			if res.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			return
		}
	}
	t.Error("find my booking is not limited per address")
}

// TestSessionIdle: a session that sees no request for SESSION_IDLE ends; a
// request keeps it alive, rewriting it at most every tenth of the idle
// time. Time is the service's clock, which the session's deadline and the
// session store's expiry both follow.
func TestSessionIdle(t *testing.T) {
	const idle = 10 * time.Minute
	a := newApp(t, func(o *web.Options) { o.SessionIdle = idle })
	c := a.client()
	holdPath := c.mustHold("A1")
	// Twelve minutes in all, more than the idle time: each request moved
	// the deadline on.
	for range 3 {
		a.clock.Advance(4 * time.Minute)
		wantStatus(t, c.get(holdPath), http.StatusOK)
	}
	before := a.sessionRow(t, c.sessionToken())
	a.clock.Advance(idle / 20)
	wantStatus(t, c.get(holdPath), http.StatusOK) // within a tenth of the idle time
	if after := a.sessionRow(t, c.sessionToken()); after != before {
		t.Error("a request right after another rewrote the session")
	}
	a.clock.Advance(idle - idle/20 - time.Second)
	wantStatus(t, c.get(holdPath), http.StatusGone) // still its session: the hold lapsed meanwhile
	a.clock.Advance(idle + time.Second)
	wantStatus(t, c.get(holdPath), http.StatusNotFound) // a new session: not its hold
}
