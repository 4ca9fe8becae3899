package web_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// countingSessions counts the session writes of the store it wraps.
type countingSessions struct {
	*sqlite.SessionStore
	commits atomic.Int64
}

func (s *countingSessions) Commit(token string, b []byte, expiry time.Time) error {
	s.commits.Add(1)
	return s.SessionStore.Commit(token, b, expiry)
}

func (s *countingSessions) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	s.commits.Add(1)
	return s.SessionStore.CommitCtx(ctx, token, b, expiry)
}

// newCountingApp is newApp with its session writes counted.
func newCountingApp(t *testing.T) (*app, *countingSessions) {
	t.Helper()
	var cs *countingSessions
	a := newApp(t, func(o *web.Options) {
		cs = &countingSessions{SessionStore: o.Sessions.(*sqlite.SessionStore)}
		o.Sessions = cs
	})
	return a, cs
}

// A seat-map poll that overlaps a session's first hold must not write back
// the session as it was before the hold, taking the visitor's own hold away.
func TestPollDuringFirstHoldKeepsTheHold(t *testing.T) {
	a := newApp(t)
	seats := []string{"A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B4", "B5", "B6",
		"C1", "C2", "C3", "C4", "C5", "C6", "D2", "D3", "D4", "D5", "D6",
		"E1", "E2", "E3", "E4", "E5", "E6", "D1"}
	for i, seat := range seats {
		c := a.client()
		tok := c.csrf()
		var wg sync.WaitGroup
		var hold response
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.get("/shows/" + testShowID + "/seats")
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			hold = c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {seat}})
		}()
		wg.Wait()
		wantStatus(t, hold, http.StatusSeeOther)
		if res := c.get(hold.Header.Get("Location")); res.StatusCode != http.StatusOK {
			t.Fatalf("trial %d: own hold page: status %d, want 200", i, res.StatusCode)
		}
	}
}

// Requests without a session cookie that end in an error page leave no
// session behind: scanners must not fill the sessions table.
func TestCookielessErrorsCreateNoSession(t *testing.T) {
	a, cs := newCountingApp(t)
	for i := range 20 {
		c := a.client()
		res := c.get("/no/such/page/" + itoa(i))
		wantStatus(t, res, http.StatusNotFound)
		if sc := res.Header.Get("Set-Cookie"); sc != "" {
			t.Fatalf("404 sets a cookie: %s", sc)
		}
	}
	c := a.client()
	wantStatus(t, c.get("/holds/x/release"), http.StatusMethodNotAllowed)
	wantStatus(t, c.do(http.MethodDelete, "/", nil, nil), http.StatusForbidden)
	wantStatus(t, c.post("/shows/"+testShowID+"/holds", url.Values{"seat": {"A1"}}), http.StatusForbidden)
	if n := a.count(`SELECT COUNT(*) FROM sessions`); n != 0 {
		t.Errorf("%d session rows after cookieless error requests, want 0", n)
	}
	if n := cs.commits.Load(); n != 0 {
		t.Errorf("%d session writes after cookieless error requests, want 0", n)
	}
}

// Reading pages with a session that needs nothing new writes nothing and
// sets no cookie: polls must not turn into database writes.
func TestPollsDoNotWriteTheSession(t *testing.T) {
	a, cs := newCountingApp(t)
	c := a.client()
	c.csrf() // the first page keeps its token in a cookie, not a session
	if n := cs.commits.Load(); n != 0 {
		t.Fatalf("%d session writes for the first page, want 0", n)
	}
	c.mustHold("A1")
	before := cs.commits.Load()
	for _, path := range []string{"/shows/" + testShowID + "/seats", "/shows/" + testShowID, "/", "/nope"} {
		res := c.get(path)
		if sc := res.Header.Get("Set-Cookie"); sc != "" {
			t.Errorf("GET %s sets a cookie: %s", path, sc)
		}
	}
	if n := cs.commits.Load() - before; n != 0 {
		t.Errorf("%d session writes for reads, want 0", n)
	}
}

// TestUndecodableSessionStartsAfresh: a session row another version wrote,
// or a damaged one, gives its visitor a new session, not an error page on
// every request until the cookie expires.
func TestUndecodableSessionStartsAfresh(t *testing.T) {
	a := newApp(t)
	c := a.client()
	c.mustHold("A1") // a hold saves a session
	if n := a.count(`SELECT count(*) FROM sessions`); n != 1 {
		t.Fatalf("%d sessions after the first hold, want 1", n)
	}
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE sessions SET data = x'ff00ff00'`); err != nil {
		t.Fatal(err)
	}
	res := c.get("/shows/" + testShowID)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("seat map with an undecodable session: %d, want 200", res.StatusCode)
	}
	if tok := c.csrf(); tok == "" {
		t.Fatal("no CSRF token in the new session")
	}
	if got := c.hold("A2"); got.StatusCode != http.StatusSeeOther {
		t.Errorf("a hold in the new session: %d, want 303", got.StatusCode)
	}
	if n := a.count(`SELECT count(*) FROM sessions WHERE data <> x'ff00ff00'`); n != 1 {
		t.Errorf("%d new sessions saved, want 1", n)
	}
}

// TestCookielessPagesStoreNoSession (SPEC §12): reading any page without a
// session writes nothing to the database; the page's CSRF token lives in a
// cookie until there is something to keep. The first hold, through the
// page's own token, stores one session, which adopts the cookie's token so
// that a page opened before it still works; a sign-in works the same way.
func TestCookielessPagesStoreNoSession(t *testing.T) {
	a := newAdminApp(t)
	var cs *countingSessions
	a = a.sibling(func(o *web.Options) {
		o.AdminPasswordCost = 4
		cs = &countingSessions{SessionStore: o.Sessions.(*sqlite.SessionStore)}
		o.Sessions = cs
	})
	show := "/shows/" + testShowID
	for i := range 50 {
		for _, tc := range []struct {
			path   string
			header []string
			want   int
		}{
			{"/", nil, http.StatusOK},
			{show, nil, http.StatusOK},
			{show + "/seats", nil, http.StatusOK},
			{show + "/seats", []string{"HX-Request", "true"}, http.StatusOK},
			{"/admin/login", nil, http.StatusOK},
			{"/bookings/find", nil, http.StatusOK},
			{"/admin", nil, http.StatusSeeOther},
			{"/holds/" + itoa(i), nil, http.StatusNotFound},
			{"/shows/nope", nil, http.StatusNotFound},
		} {
			wantStatus(t, a.client().get(tc.path, tc.header...), tc.want)
		}
	}
	if n := a.count(`SELECT count(*) FROM sessions`); n != 0 {
		t.Fatalf("%d session rows after cookieless GETs, want 0", n)
	}
	if n := cs.commits.Load(); n != 0 {
		t.Fatalf("%d session writes after cookieless GETs, want 0", n)
	}

	c := a.client()
	page := c.get(show)
	if !hasCookie(page, "boxoffice_csrf") || hasCookie(page, "boxoffice_session") {
		t.Errorf("the seat map sets cookies %v, want boxoffice_csrf only", page.Cookies())
	}
	opened, _ := page.doc(t).Find(`form input[name="_csrf"]`).Attr("value")
	tok, _ := c.get(show).doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	hold := c.post(show+"/holds", url.Values{"_csrf": {tok}, "seat": {"A1"}})
	wantStatus(t, hold, http.StatusSeeOther)
	if !hasCookie(hold, "boxoffice_session") {
		t.Error("the first hold set no session cookie")
	}
	if n := a.count(`SELECT count(*) FROM sessions`); n != 1 {
		t.Fatalf("%d session rows after the first hold, want 1", n)
	}
	// The page opened before the session existed still works.
	wantStatus(t, c.post(show+"/holds", url.Values{"_csrf": {opened}, "seat": {"A2"}}), http.StatusSeeOther)
	if n := a.count(`SELECT count(*) FROM sessions`); n != 1 {
		t.Errorf("%d session rows after a second hold, want 1", n)
	}
	// The same visitor: the second hold replaced the first.
	wantStatus(t, c.get(hold.Header.Get("Location")), http.StatusGone)

	admin := a.client()
	admin.mustLogin()
	wantStatus(t, admin.get("/admin"), http.StatusOK)
	if n := a.count(`SELECT count(*) FROM sessions`); n != 2 {
		t.Errorf("%d session rows after a sign-in, want 2", n)
	}
}

func hasCookie(res response, name string) bool {
	for _, ck := range res.Cookies() {
		if ck.Name == name {
			return true
		}
	}
	return false
}
