package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

const (
	adminEmail    = "ops@example.com"
	adminPassword = "correct horse battery"
)

// newAdminApp is newApp with an admin account, and bcrypt at its cheapest.
func newAdminApp(t testing.TB) *app {
	t.Helper()
	a := newApp(t, func(o *web.Options) { o.AdminPasswordCost = bcrypt.MinCost })
	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), adminEmail, adminPassword, booking.RoleAdmin); err != nil {
		t.Fatalf("Ensure admin: %v", err)
	}
	return a
}

// login signs in through the form, with the sign-in page's CSRF token.
func (c *client) login(email, password string) response {
	c.t.Helper()
	d := c.get("/admin/login").doc(c.t)
	tok, _ := d.Find(`meta[name="csrf-token"]`).Attr("content")
	return c.post("/admin/login", url.Values{"_csrf": {tok}, "email": {email}, "password": {password}})
}

// loginFrom is login by a client at addr, behind the loopback proxy the
// tests trust.
func (c *client) loginFrom(addr, email, password string) response {
	c.t.Helper()
	d := c.get("/admin/login", "X-Forwarded-For", addr).doc(c.t)
	tok, _ := d.Find(`meta[name="csrf-token"]`).Attr("content")
	return c.post("/admin/login", url.Values{"_csrf": {tok}, "email": {email}, "password": {password}}, "X-Forwarded-For", addr)
}

func (c *client) mustLogin() {
	c.t.Helper()
	res := c.login(adminEmail, adminPassword)
	wantStatus(c.t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/admin" {
		c.t.Fatalf("sign-in sent to %q, want /admin", loc)
	}
}

// adminCSRF is the CSRF token of an admin page.
func (c *client) adminCSRF() string {
	c.t.Helper()
	tok, _ := c.get("/admin").doc(c.t).Find(`meta[name="csrf-token"]`).Attr("content")
	return tok
}

// sessionToken is the session cookie the client holds.
func (c *client) sessionToken() string {
	u, _ := url.Parse(c.app.srv.URL)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "boxoffice_session" {
			return ck.Value
		}
	}
	return ""
}

type counts struct{ Booked, Held, Available int }

// countsIn reads the data-count hooks inside the selection.
func countsIn(t testing.TB, s *goquery.Selection) counts {
	t.Helper()
	n := func(kind string) int {
		sel := s.Find(`[data-count="` + kind + `"]`)
		if sel.Length() != 1 {
			t.Fatalf("%d [data-count=%q] elements, want 1", sel.Length(), kind)
		}
		v, err := strconv.Atoi(strings.TrimSpace(sel.Text()))
		if err != nil {
			t.Fatalf("[data-count=%q] is %q", kind, sel.Text())
		}
		return v
	}
	return counts{n("booked"), n("held"), n("available")}
}

func TestAdminAccessControl(t *testing.T) {
	a := newAdminApp(t)
	pages := []string{"/admin", "/admin/shows/" + testShowID, "/admin/shows/" + testShowID + "/bookings.csv", "/admin/payments/nope"}

	anonymous := a.client()
	moviegoer := a.client()
	moviegoer.mustHold("A1") // a session with a visitor id and a hold
	for _, c := range []*client{anonymous, moviegoer} {
		for _, p := range pages {
			res := c.get(p)
			wantStatus(t, res, http.StatusSeeOther)
			if loc := res.Header.Get("Location"); loc != "/admin/login" {
				t.Errorf("GET %s without an admin: Location %q, want /admin/login", p, loc)
			}
		}
		res := c.post("/admin/bookings/x/refund", url.Values{"_csrf": {c.csrf()}})
		wantStatus(t, res, http.StatusSeeOther)
	}

	admin := a.client()
	admin.mustLogin()
	for _, p := range pages[:3] {
		wantStatus(t, admin.get(p), http.StatusOK)
	}
	wantStatus(t, admin.get("/admin/payments/nope"), http.StatusNotFound)
	wantStatus(t, admin.get("/admin/shows/nope"), http.StatusNotFound)
	wantStatus(t, admin.get("/admin?date=yesterday"), http.StatusUnprocessableEntity)
	// Signed in, the sign-in page leads to the overview.
	wantStatus(t, admin.get("/admin/login"), http.StatusSeeOther)
}

func TestAdminWrongPasswordAndThrottle(t *testing.T) {
	a := newAdminApp(t)
	c := a.client()
	notice := func(res response) string {
		return strings.TrimSpace(res.doc(t).Find(".notice").Text())
	}
	wrong := c.login(adminEmail, "not the password")
	wantStatus(t, wrong, http.StatusUnauthorized)
	unknown := c.login("nobody@example.com", adminPassword)
	wantStatus(t, unknown, http.StatusUnauthorized)
	if notice(wrong) == "" || notice(wrong) != notice(unknown) {
		t.Errorf("wrong password says %q, unknown email says %q; want the same message", notice(wrong), notice(unknown))
	}
	if c.get("/admin").StatusCode != http.StatusSeeOther {
		t.Error("a failed sign-in reached the admin pages")
	}

	// An account gets five attempts in 15 minutes; the next is refused,
	// even with the right password, until the window ends.
	for range 4 {
		wantStatus(t, c.login(adminEmail, "wrong again"), http.StatusUnauthorized)
	}
	locked := c.login(adminEmail, adminPassword)
	wantStatus(t, locked, http.StatusTooManyRequests)
	if ra, _ := strconv.Atoi(locked.Header.Get("Retry-After")); ra < 14*60 || ra > 15*60 {
		t.Errorf("429 with Retry-After %q, want about 15 minutes", locked.Header.Get("Retry-After"))
	}
	if n := notice(locked); !strings.Contains(n, "15 minutes") {
		t.Errorf("429 says %q, want how long to wait", n)
	}
	// Another account from the same address is not locked out, and the
	// admin signing in from another address is not either: failures lock
	// an account out only for the address they came from.
	wantStatus(t, a.client().login("other@example.com", "a guess"), http.StatusUnauthorized)
	elsewhere := a.client()
	wantStatus(t, elsewhere.loginFrom("203.0.113.9", adminEmail, adminPassword), http.StatusSeeOther)
	a.clock.Advance(15 * time.Minute)
	wantStatus(t, c.login(adminEmail, adminPassword), http.StatusSeeOther)
}

// TestAdminSuccessesDoNotLockOut: only failures count against an account:
// an admin signing in and out all day is never refused.
func TestAdminSuccessesDoNotLockOut(t *testing.T) {
	a := newAdminApp(t)
	c := a.client()
	for i := range 12 {
		res := c.login(adminEmail, adminPassword)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in %d: status %d, want 303", i+1, res.StatusCode)
		}
		wantStatus(t, c.post("/admin/logout", url.Values{"_csrf": {c.adminCSRF()}}), http.StatusSeeOther)
	}
}

func TestAdminSessionRenewedAtSignInAndOut(t *testing.T) {
	a := newAdminApp(t)
	c := a.client()
	c.mustHold("A1") // a session from before the sign-in
	before := c.sessionToken()
	if before == "" {
		t.Fatal("a hold made no session")
	}
	c.mustLogin()
	signedIn := c.sessionToken()
	if signedIn == before {
		t.Error("the session token did not change at sign-in")
	}
	wantStatus(t, c.get("/admin"), http.StatusOK)

	// The token from before sign-in is worth nothing now.
	fixated := a.client()
	u, _ := url.Parse(a.srv.URL)
	fixated.http.Jar.SetCookies(u, []*http.Cookie{{Name: "boxoffice_session", Value: before}})
	wantStatus(t, fixated.get("/admin"), http.StatusSeeOther)

	res := c.post("/admin/logout", url.Values{"_csrf": {c.adminCSRF()}})
	wantStatus(t, res, http.StatusSeeOther)
	if after := c.sessionToken(); after == signedIn || after == "" {
		t.Errorf("session token after sign-out %q, want a new one", after)
	}
	wantStatus(t, c.get("/admin"), http.StatusSeeOther)
	old := a.client()
	old.http.Jar.SetCookies(u, []*http.Cookie{{Name: "boxoffice_session", Value: signedIn}})
	wantStatus(t, old.get("/admin"), http.StatusSeeOther)
}

func TestAdminFormsNeedCSRF(t *testing.T) {
	a := newAdminApp(t)
	c := a.client()
	c.get("/admin/login")
	wantStatus(t, c.post("/admin/login", url.Values{"email": {adminEmail}, "password": {adminPassword}}), http.StatusForbidden)
	c.mustLogin()
	wantStatus(t, c.post("/admin/logout", nil), http.StatusForbidden)
	wantStatus(t, c.post("/admin/bookings/x/refunded", url.Values{"_csrf": {"forged"}}), http.StatusForbidden)
	wantStatus(t, c.get("/admin"), http.StatusOK) // still signed in
}

func TestAdminCounts(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	check := func(when string, want counts) {
		t.Helper()
		row := admin.get("/admin").doc(t).Find(`tr[data-show-id="` + testShowID + `"]`)
		if got := countsIn(t, row); got != want {
			t.Errorf("%s: overview counts %+v, want %+v", when, got, want)
		}
		page := admin.get("/admin/shows/" + testShowID).doc(t)
		if got := countsIn(t, page.Find(".admin-counts")); got != want {
			t.Errorf("%s: show page counts %+v, want %+v", when, got, want)
		}
	}
	check("at first", counts{0, 0, 30})

	early := a.client()
	early.mustHold("A1", "A2")
	a.clock.Advance(10 * time.Minute)
	late := a.client()
	lateHold := late.mustHold("B1")
	a.book("C1", "C2", "C3")
	check("after holds and a booking", counts{3, 3, 24})

	// The show page says who holds what until when.
	page := admin.get("/admin/shows/" + testShowID).doc(t)
	exp, _ := page.Find(`[data-seat-id="B1"]`).Attr("data-expires-at")
	wantExpiry(t, "admin map B1", exp, a.clock.Now().Add(15*time.Minute))
	if st, _ := page.Find(`[data-seat-id="C1"]`).Attr("data-state"); st != "booked" {
		t.Errorf("C1 is %q on the admin map, want booked", st)
	}

	a.clock.Advance(5 * time.Minute) // A1, A2's hold lapses: 15 minutes old
	check("after the first hold expired", counts{3, 1, 26})

	wantStatus(t, late.post(lateHold+"/release", url.Values{"_csrf": {late.csrf()}}), http.StatusSeeOther)
	check("after release", counts{3, 0, 27})

	// Filters: another day has no shows; the show's own day and theatre list it.
	d := admin.get("/admin?date=2020-01-01").doc(t)
	if n := d.Find("tr[data-show-id]").Length(); n != 0 {
		t.Errorf("%d shows on 2020-01-01", n)
	}
	day := testShowStart.Format(time.DateOnly)
	if n := admin.get("/admin?date=" + day + "&theatre=t1").doc(t).Find("tr[data-show-id]").Length(); n != 1 {
		t.Errorf("%d shows on %s at t1, want 1", n, day)
	}
}

func TestAdminRefundsAndCallbackLog(t *testing.T) {
	a := newAdminApp(t)
	buyer := a.client()
	p := buyer.mustPay("A1")
	a.clock.Advance(16 * time.Minute) // the hold lapses…
	a.client().mustHold("A1")         // …and someone else takes the seat

	body := a.event(p, booking.EventPaymentSucceeded)
	wantStatus(t, a.callback(body, "t=1,v1=00"), http.StatusUnauthorized)
	a.clock.Advance(time.Second)
	wantStatus(t, a.deliver(body), http.StatusOK)
	a.clock.Advance(time.Second)
	wantStatus(t, a.deliver(body), http.StatusOK) // the provider retries
	if b := a.booking(p); b.State != booking.BookingRefundDue {
		t.Fatalf("booking %s, want refund_due", b.State)
	}

	admin := a.client()
	admin.mustLogin()
	pay := admin.get("/admin/payments/" + p.ID).doc(t)
	var got []string
	pay.Find("tr[data-callback-status]").Each(func(_ int, s *goquery.Selection) {
		st, _ := s.Attr("data-callback-status")
		out, _ := s.Attr("data-callback-outcome")
		if s.Find("[data-duplicate]").Length() > 0 {
			out += "+duplicate"
		}
		sig, _ := s.Find("[data-signature]").Attr("data-signature")
		got = append(got, st+" "+out+" "+sig)
	})
	// The badly signed one stored nothing (SPEC §12): it is only counted.
	// Newest first.
	want := []string{"200 refund_due+duplicate valid", "200 refund_due valid"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("callbacks of the payment %q, want %q", got, want)
	}
	if v := pay.Find(".admin-verdict").Text(); !strings.Contains(v, "refund is due") {
		t.Errorf("verdict %q does not say a refund is due", v)
	}
	// The show page lists the same callbacks and the refund queue.
	show := admin.get("/admin/shows/" + testShowID).doc(t)
	if n := show.Find("tr[data-callback-status]").Length(); n != 2 {
		t.Errorf("%d callbacks on the show page, want 2", n)
	}
	if n := show.Find(`[data-refund-due][data-booking-id="` + p.BookingID + `"]`).Length(); n != 1 {
		t.Fatalf("the booking is not in the refund queue")
	}
	if v, _ := admin.get("/admin").doc(t).Find(`tr[data-show-id="` + testShowID + `"] [data-refunds-due]`).Attr("data-refunds-due"); v != "1" {
		t.Errorf("overview refunds due %q, want 1", v)
	}

	if label := show.Find(`[data-refund-due] button`).Text(); !strings.Contains(label, "Refund (sandbox: simulated)") {
		t.Errorf("refund button %q does not say the sandbox simulates it", label)
	}
	res := admin.post("/admin/bookings/"+p.BookingID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, res, http.StatusSeeOther)
	b := a.booking(p)
	if b.State != booking.BookingRefunded || b.RefundedBy != adminEmail || !b.RefundedAt.Equal(a.clock.Now()) ||
		!strings.HasPrefix(b.RefundID, "sandbox_re_") {
		t.Errorf("after the refund: state %s, refund %q by %q at %v", b.State, b.RefundID, b.RefundedBy, b.RefundedAt)
	}
	if n := admin.get("/admin/shows/" + testShowID).doc(t).Find("[data-refund-due]").Length(); n != 0 {
		t.Errorf("%d bookings still in the refund queue", n)
	}
	// Pressed again (a second tab, a double click): nothing new.
	again := admin.post("/admin/bookings/"+p.BookingID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, again, http.StatusSeeOther)
	if b2 := a.booking(p); b2.RefundID != b.RefundID || !b2.RefundedAt.Equal(b.RefundedAt) {
		t.Errorf("a second refund changed it: %q at %v, was %q at %v", b2.RefundID, b2.RefundedAt, b.RefundID, b.RefundedAt)
	}
	if v := admin.get("/admin/payments/" + p.ID).doc(t).Find(".admin-verdict").Text(); !strings.Contains(v, "refunded ("+b.RefundID+")") {
		t.Errorf("verdict %q does not name the refund", v)
	}

	// An unsigned callback naming no payment at all is refused and
	// stored nowhere, not even under the payment it claims.
	stray := []byte(`{"id":"evt_stray","type":"payment.succeeded","created":1,"data":{"payment_id":"ghost","hold_id":"h","amount":1,"currency":"INR"}}`)
	wantStatus(t, a.callback(stray, ""), http.StatusUnauthorized)
	if n := admin.get("/admin/payments/ghost").doc(t).Find(`tr[data-callback-status]`).Length(); n != 0 {
		t.Errorf("the unsigned stray callback is listed under its claimed payment")
	}
}

func TestAdminBookingsCSV(t *testing.T) {
	a := newAdminApp(t)
	a.book("A1", "A2")
	admin := a.client()
	admin.mustLogin()
	res := admin.get("/admin/shows/" + testShowID + "/bookings.csv")
	wantStatus(t, res, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	lines := strings.Split(strings.TrimSpace(res.body), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "booking_id,state,channel,seats,amount,currency") || !strings.Contains(lines[1], ",confirmed,online,A1 A2,360.00,INR,") ||
		!strings.Contains(lines[1], ","+testEmail+",") {
		t.Errorf("CSV:\n%s", res.body)
	}
}

// lateLimiter is a Limiter whose backing one is set after the server starts
// (the store it counts in is opened with the server).
type lateLimiter struct{ web.Limiter }

// dbLimiter counts in the SQLite file at path, through a store of its own,
// as another process would.
func dbLimiter(t testing.TB, path string) web.Limiter {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	l, err := sqlite.NewRateLimiter(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// Sign-in attempts are counted in the database, so two processes share one
// count: an account's attempts spread over both are limited as on one.
func TestAdminSignInLimitAcrossProcesses(t *testing.T) {
	late := &lateLimiter{}
	a := newApp(t, func(o *web.Options) { o.AdminPasswordCost, o.Limiter = bcrypt.MinCost, late })
	late.Limiter = dbLimiter(t, a.path)
	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), adminEmail, adminPassword, booking.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	b := a.sibling(func(o *web.Options) { o.AdminPasswordCost, o.Limiter = bcrypt.MinCost, dbLimiter(t, a.path) })

	for _, p := range []*app{a, a, a, b, b} {
		wantStatus(t, p.client().login(adminEmail, "a guess"), http.StatusUnauthorized)
	}
	for _, p := range []*app{b, a} {
		res := p.client().login(adminEmail, adminPassword)
		wantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	}
}

// One address gets twenty attempts in 15 minutes, whichever accounts they
// name; the account a spraying address never reached stays open elsewhere.
func TestAdminSignInLimitPerAddress(t *testing.T) {
	a := newAdminApp(t)
	for i := range 20 {
		email := "guess" + strconv.Itoa(i) + "@example.com"
		wantStatus(t, a.client().login(email, "a guess"), http.StatusUnauthorized)
	}
	wantStatus(t, a.client().login(adminEmail, adminPassword), http.StatusTooManyRequests)
	// The same address behind a trusted proxy is another client.
	c := a.client()
	tok, _ := c.get("/admin/login").doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	res := c.post("/admin/login", url.Values{"_csrf": {tok}, "email": {adminEmail}, "password": {adminPassword}},
		"X-Forwarded-For", "198.51.100.7")
	wantStatus(t, res, http.StatusSeeOther)
}
