package web_test

import (
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/payment"
	"boxoffice/internal/web"
)

// madeUpToken is a well-formed token the server never signed: what a
// client without a session can invent.
func madeUpToken(t *testing.T) string {
	t.Helper()
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// postRoutes lists the state-changing routes of the server's route table,
// their parameters filled in.
func postRoutes(t *testing.T, a *app) []string {
	t.Helper()
	e, ok := a.srv.Config.Handler.(*echo.Echo)
	if !ok {
		t.Fatalf("the server's handler is %T, not Echo", a.srv.Config.Handler)
	}
	var paths []string
	for _, r := range e.Routes() {
		if r.Method != http.MethodPost {
			continue
		}
		parts := strings.Split(r.Path, "/")
		for i, p := range parts {
			if strings.HasPrefix(p, ":") || p == "*" {
				parts[i] = "x"
			}
		}
		paths = append(paths, strings.Join(parts, "/"))
	}
	if len(paths) < 20 {
		t.Fatalf("only %d POST routes in the table: %v", len(paths), paths)
	}
	return paths
}

// TestMadeUpCSRFPairRefused (SPEC §12): a client without a session that
// invents a token and sends it as both the CSRF cookie and the form field
// (or header) is 403 on every state-changing route of the table; only the
// signed payment callbacks take no token.
func TestMadeUpCSRFPairRefused(t *testing.T) {
	a := newApp(t)
	exempt := map[string]bool{payment.CallbackPath: true, payment.StripeWebhookPath: true}
	for _, path := range postRoutes(t, a) {
		if exempt[path] {
			continue
		}
		tok := madeUpToken(t)
		c := a.client()
		wantStatus(t, c.post(path, url.Values{"_csrf": {tok}, "seat": {"A1"}}, "Cookie", "boxoffice_csrf="+tok), http.StatusForbidden)
		wantStatus(t, c.post(path, url.Values{"seat": {"A1"}}, "Cookie", "boxoffice_csrf="+tok, "X-CSRF-Token", tok), http.StatusForbidden)
	}
	// A token signed for one browser works for that browser; its cookie
	// with a forged token does not.
	c := a.client()
	tok := c.csrf()
	forged := madeUpToken(t)
	wantStatus(t, c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {forged}, "seat": {"A1"}}), http.StatusForbidden)
	wantStatus(t, c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {"A1"}}), http.StatusSeeOther)
	if n := a.count(`SELECT count(*) FROM holds`); n != 1 {
		t.Errorf("%d holds, want the one with a signed token", n)
	}
}

// TestCrossOriginRefused: a state-changing request a browser marks as
// coming from another site, or whose Origin is another site's, is 403
// even with the visitor's own token; the same from our origin passes, and
// the payment callbacks are not browsers' and are not refused for it.
func TestCrossOriginRefused(t *testing.T) {
	a := newApp(t)
	c := a.client()
	tok := c.csrf()
	holds := "/shows/" + testShowID + "/holds"
	tests := []struct {
		name string
		hdr  []string
		seat string
		want int
	}{
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, "A1", http.StatusForbidden},
		{"same-site fetch (a sibling subdomain)", []string{"Sec-Fetch-Site", "same-site"}, "A1", http.StatusForbidden},
		{"another origin", []string{"Origin", "http://evil.example"}, "A1", http.StatusForbidden},
		{"origin null", []string{"Origin", "null"}, "A1", http.StatusForbidden},
		{"same-origin fetch", []string{"Sec-Fetch-Site", "same-origin"}, "A2", http.StatusSeeOther},
		{"our origin", []string{"Origin", a.srv.URL}, "A3", http.StatusSeeOther},
		{"typed by the user", []string{"Sec-Fetch-Site", "none"}, "A4", http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantStatus(t, c.post(holds, url.Values{"_csrf": {tok}, "seat": {tt.seat}}, tt.hdr...), tt.want)
		})
	}
	res := a.client().post(payment.CallbackPath, url.Values{}, "Sec-Fetch-Site", "cross-site", "Origin", "http://evil.example")
	if res.StatusCode == http.StatusForbidden {
		t.Errorf("the payment callback is refused as cross-origin: %d", res.StatusCode)
	}
}

// TestPlantedCookiesOwnNothing (SPEC §12): cookies an attacker got from
// the server for itself and planted in a victim's browser (over plain
// http, where the __Host- prefix does not apply) give the attacker none of
// the victim's holds: the owner of a hold is minted on the server at the
// first hold and kept in the session alone.
func TestPlantedCookiesOwnNothing(t *testing.T) {
	a := newApp(t)
	u, _ := url.Parse(a.srv.URL)
	attacker := a.client()
	atok := attacker.csrf()
	planted := attacker.http.Jar.Cookies(u)
	if len(planted) == 0 {
		t.Fatal("the attacker's first page set no cookie")
	}

	victim := a.client()
	victim.http.Jar.SetCookies(u, planted)
	holdPath := victim.mustHold("A1", "A2")
	wantStatus(t, victim.get(holdPath), http.StatusOK)

	// The attacker, with the same cookies and no session yet.
	wantStatus(t, attacker.get(holdPath), http.StatusNotFound)
	wantStatus(t, attacker.post(holdPath+"/release", url.Values{"_csrf": {atok}}), http.StatusNotFound)
	wantStatus(t, attacker.post(holdPath+"/pay", url.Values{"_csrf": {atok}, "email": {"attacker@example.com"}}), http.StatusNotFound)
	// With a session of its own, made by a hold of its own.
	attacker.mustHold("C1")
	wantStatus(t, attacker.get(holdPath), http.StatusNotFound)
	wantStatus(t, attacker.post(holdPath+"/release", url.Values{"_csrf": {attacker.csrf()}}), http.StatusNotFound)
	// The victim's hold is untouched.
	wantStatus(t, victim.get(holdPath), http.StatusOK)
	if got := seatStates(victim.get("/shows/" + testShowID).doc(t)); got["A1"] != "mine" || got["A2"] != "mine" {
		t.Errorf("the victim's seats are %q and %q, want mine", got["A1"], got["A2"])
	}
}

// TestCookiesCopiedBeforePayOwnNothingAfter (SPEC §12): whatever a copy
// of a visitor's cookies owned before Pay, it owns nothing after: Pay
// moves the session on to a new token, and no cookie names an owner.
func TestCookiesCopiedBeforePayOwnNothingAfter(t *testing.T) {
	a := newApp(t)
	u, _ := url.Parse(a.srv.URL)
	victim := a.client()
	holdPath := victim.mustHold("B1", "B2")
	thief := a.client()
	thief.http.Jar.SetCookies(u, victim.http.Jar.Cookies(u))
	wantStatus(t, thief.get(holdPath), http.StatusOK) // the same session, before Pay

	pay := victim.post(holdPath+"/pay", url.Values{"_csrf": {victim.csrf()}, "email": {testEmail}})
	wantStatus(t, pay, http.StatusSeeOther)
	wantStatus(t, victim.get(holdPath), http.StatusOK)

	wantStatus(t, thief.get(holdPath), http.StatusNotFound)
	// Nor once the copy has a session again, made by a hold of its own.
	thief.mustHold("C1")
	wantStatus(t, thief.get(holdPath), http.StatusNotFound)
	wantStatus(t, thief.post(holdPath+"/pay", url.Values{"_csrf": {thief.csrf()}, "email": {"thief@example.com"}}), http.StatusNotFound)
	wantStatus(t, thief.post(holdPath+"/release", url.Values{"_csrf": {thief.csrf()}}), http.StatusNotFound)
	var email string
	if err := a.db(t).QueryRow(`SELECT email FROM bookings`).Scan(&email); err != nil {
		t.Fatal(err)
	}
	if email != testEmail {
		t.Errorf("the booking's email is %q, want the victim's %q", email, testEmail)
	}
}

// TestRefusedHoldsWriteNothing (SPEC §12): holds refused for any reason
// (a made-up token 403, invalid seats 422, over the rate 429) from
// clients without a session store no session and leave every table's row
// count as it was; a hold the store refuses (409, an unknown seat) adds at
// most its counts in the rate limiter, and no session either.
func TestRefusedHoldsWriteNothing(t *testing.T) {
	a := newApp(t, func(o *web.Options) { o.HoldRate = 2 })
	a.book("A1")
	holds := "/shows/" + testShowID + "/holds"
	c := a.client()
	tok := c.csrf()
	// Within the rate: refused by the store.
	wantStatus(t, c.post(holds, url.Values{"_csrf": {tok}, "seat": {"A1"}}), http.StatusConflict)
	wantStatus(t, c.post(holds, url.Values{"_csrf": {tok}, "seat": {"Z9"}}), http.StatusUnprocessableEntity)
	if n := a.count(`SELECT count(*) FROM sessions`); n != 0 {
		t.Fatalf("%d sessions after holds the store refused, want 0", n)
	}
	before := a.rowCounts(t)
	for i := range 25 {
		forged := madeUpToken(t)
		wantStatus(t, a.client().post(holds, url.Values{"_csrf": {forged}, "seat": {"B" + itoa(i%6+1)}}, "Cookie", "boxoffice_csrf="+forged), http.StatusForbidden)
	}
	invalid := []url.Values{
		{"_csrf": {tok}},
		{"_csrf": {tok}, "seat": {"B1", "B2", "B3", "B4", "B5"}},
		{"_csrf": {tok}, "seat": {"B1", "B1"}},
		{"_csrf": {tok}, "seat": {"not a seat!"}},
		{"_csrf": {tok}, "seat": {strings.Repeat("B", 100)}},
	}
	for i := range 25 {
		wantStatus(t, c.post(holds, invalid[i%len(invalid)]), http.StatusUnprocessableEntity)
	}
	for range 50 {
		res := c.post(holds, url.Values{"_csrf": {tok}, "seat": {"B1"}})
		wantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
	if after := a.rowCounts(t); after != before {
		t.Errorf("row counts went from %v to %v after 100 refused holds, want no change", before, after)
	}
	if n := a.count(`SELECT count(*) FROM sessions`); n != 0 {
		t.Errorf("%d sessions after refused holds, want 0", n)
	}
}

// rowCounts is the number of rows of each table of the app's database.
func (a *app) rowCounts(t *testing.T) string {
	t.Helper()
	db := a.db(t)
	rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	var b strings.Builder
	for _, n := range names {
		var count int
		if err := db.QueryRow(`SELECT count(*) FROM "` + n + `"`).Scan(&count); err != nil {
			t.Fatal(err)
		}
		b.WriteString(n + "=" + itoa(count) + " ")
	}
	return b.String()
}

// db opens the app's database file for the test to read; it closes with
// the test.
func (a *app) db(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
