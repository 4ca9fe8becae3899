package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// TestHeldSeatsPerAddress: one address with ten cookie jars cannot lock
// the hall: past the cap a hold is 429 with Retry-After and a message
// naming the cap, however many sessions it uses; another address still
// holds.
func TestHeldSeatsPerAddress(t *testing.T) {
	p := testPolicy
	p.SeatsPerAddress = 8
	a := newAppWith(t, p)
	const addr = "203.0.113.7"
	held := 0
	var refused response
	for i := range 10 {
		c := a.client()
		var seats []string // the hall's 30 seats, three a session
		for k := 3 * i; k < 3*i+3; k++ {
			seats = append(seats, string(rune('A'+k/6))+itoa(k%6+1))
		}
		res := c.post("/shows/"+testShowID+"/holds", formSeats(c.csrf(), seats...), "X-Forwarded-For", addr)
		switch res.StatusCode {
		case http.StatusSeeOther:
			held += len(seats)
		case http.StatusTooManyRequests:
			refused = res
		default:
			t.Fatalf("hold %d: status %d", i, res.StatusCode)
		}
	}
	if held != 6 {
		t.Errorf("%d seats held from one address with a cap of 8, want 6 (two holds of three)", held)
	}
	if refused.StatusCode != http.StatusTooManyRequests {
		t.Fatal("no hold was refused")
	}
	if ra, err := strconv.Atoi(refused.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 15*60 {
		t.Errorf("Retry-After %q, want the time until the oldest of the address's holds ends", refused.Header.Get("Retry-After"))
	}
	if !strings.Contains(refused.body, "At most 8 seats") {
		t.Errorf("the 429 does not name the cap:\n%s", refused.body)
	}
	other := a.client()
	wantStatus(t, other.post("/shows/"+testShowID+"/holds", formSeats(other.csrf(), "E5"), "X-Forwarded-For", "198.51.100.1"), http.StatusSeeOther)
	// The locks lapse: the address may hold again.
	a.clock.Advance(16 * time.Minute)
	c := a.client()
	wantStatus(t, c.post("/shows/"+testShowID+"/holds", formSeats(c.csrf(), "A1", "A2"), "X-Forwarded-For", addr), http.StatusSeeOther)
}

// skewedStore is a store whose database keeps its own time: 45 s behind
// this process, as if the host's clock ran fast.
type skewedStore struct {
	*sqlite.Store
	clock booking.Clock
}

func (s skewedStore) DatabaseTime(context.Context) (time.Time, error) {
	return s.clock.Now().Add(-45 * time.Second), nil
}

// TestReadyzWarnsOfClockSkew: /readyz stays 200 but says so, when the
// process's clock is far from the database's.
func TestReadyzWarnsOfClockSkew(t *testing.T) {
	a := newApp(t)
	svc := booking.NewService(skewedStore{a.store, a.clock}, a.clock, testPolicy)
	srv := web.New(svc, web.Options{Sessions: a.store.Sessions(), Logger: discardLogger()})
	res := serveOnce(t, srv.Handler(), "/readyz")
	if res.StatusCode != http.StatusOK || !strings.Contains(res.body, "45s ahead") {
		t.Errorf("/readyz = %d %q; want 200 saying the clock is 45s ahead", res.StatusCode, res.body)
	}
	// SQLite shares the process's clock: nothing to warn of.
	if got := a.client().get("/readyz"); got.StatusCode != http.StatusOK || strings.TrimSpace(got.body) != "ready" {
		t.Errorf("/readyz on SQLite = %d %q", got.StatusCode, got.body)
	}
}

func formSeats(csrf string, seats ...string) url.Values {
	return url.Values{"_csrf": {csrf}, "seat": seats}
}

// serveOnce asks h for path, as the loopback does.
func serveOnce(t *testing.T, h http.Handler, path string) response {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.RemoteAddr = "127.0.0.1:1234"
	h.ServeHTTP(rec, req)
	res := rec.Result()
	return response{Response: res, body: rec.Body.String()}
}

// TestCSRFTokenOwnsNothing: the CSRF token is in every page, so knowing it
// (and even holding the victim's CSRF cookie) gives no access to the
// victim's holds or bookings: those belong to a random visitor id that is
// never written into a page.
func TestCSRFTokenOwnsNothing(t *testing.T) {
	a := newApp(t)
	victim := a.client()
	holdPath := victim.mustHold("A1", "A2")
	u, _ := url.Parse(a.srv.URL)
	var csrf *http.Cookie
	for _, ck := range victim.http.Jar.Cookies(u) {
		if strings.HasSuffix(ck.Name, "boxoffice_csrf") {
			csrf = ck
		}
	}
	if csrf == nil {
		t.Fatal("the victim has no CSRF cookie")
	}
	attacker := a.client()
	attacker.http.Jar.SetCookies(u, []*http.Cookie{{Name: csrf.Name, Value: csrf.Value}})
	res := attacker.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {csrf.Value}})
	wantStatus(t, res, http.StatusUnprocessableEntity) // no seats: but now it has a session
	wantStatus(t, attacker.get(holdPath), http.StatusNotFound)
	wantStatus(t, attacker.post(holdPath+"/pay", url.Values{"_csrf": {csrf.Value}, "email": {"attacker@example.com"}}), http.StatusNotFound)
}
