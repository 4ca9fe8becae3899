package web_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// onSaleT0 is the tests' on-sales' opening: an hour after the clock starts.
var onSaleT0 = testStart.Add(time.Hour)

// tokenFrom is the CSRF token of the page at path.
func (c *client) tokenFrom(path string) string {
	c.t.Helper()
	res := c.get(path)
	tok, _ := res.doc(c.t).Find(`meta[name="csrf-token"]`).Attr("content")
	if tok == "" {
		c.t.Fatalf("no csrf-token meta on %s (status %d)", path, res.StatusCode)
	}
	return tok
}

// createOnSale creates an on-sale through the admin's form (SPEC §20's
// on-sale hook) and returns its id.
func (c *client) createOnSale(form url.Values) string {
	c.t.Helper()
	form.Set("_csrf", c.adminCSRF())
	res := c.post("/admin/onsales", form)
	wantStatus(c.t, res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/admin/onsales/") {
		c.t.Fatalf("created on-sale at %q", loc)
	}
	return strings.TrimPrefix(loc, "/admin/onsales/")
}

func onSaleForm(rate int, ttl string, shows ...string) url.Values {
	return url.Values{
		"name": {"Monsoon Express pre-sale"}, "opens_at": {onSaleT0.Format(time.RFC3339)},
		"show": shows, "rate": {strconv.Itoa(rate)}, "pass_ttl": {ttl},
	}
}

// queue reads the visitor's queue page: its live region.
func (c *client) queue(id string, kv ...string) (response, *goquery.Selection) {
	c.t.Helper()
	res := c.get("/queue/"+id, kv...)
	return res, res.doc(c.t).Find("[data-queue-state]")
}

func queueState(s *goquery.Selection) string { v, _ := s.Attr("data-queue-state"); return v }

func queuePosition(t testing.TB, s *goquery.Selection) int {
	t.Helper()
	v, ok := s.Attr("data-position")
	if !ok {
		t.Fatal("no data-position")
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// join joins on-sale id's queue with the queue page's token.
func (c *client) join(id string, kv ...string) response {
	c.t.Helper()
	return c.post("/queue/"+id+"/join", url.Values{"_csrf": {c.tokenFrom("/queue/" + id)}}, kv...)
}

func (c *client) mustJoin(id string, kv ...string) {
	c.t.Helper()
	res := c.join(id, kv...)
	wantStatus(c.t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/queue/"+id {
		c.t.Fatalf("join went to %q", loc)
	}
}

// admitted reads the queue page until it says admitted.
func (c *client) mustBeAdmitted(id string) {
	c.t.Helper()
	res, live := c.queue(id)
	if queueState(live) != "admitted" {
		c.t.Fatalf("queue state %q, want admitted:\n%s", queueState(live), res.body)
	}
}

// cookie is the value of the client's cookie name.
func (c *client) cookie(name string) string {
	u, _ := url.Parse(c.app.srv.URL)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

func (c *client) setCookie(name, value string) {
	u, _ := url.Parse(c.app.srv.URL)
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// secondShow stores another show like testShow, with id.
func (a *app) secondShow(id string) {
	a.t.Helper()
	show, seats := testShow()
	show.ID = id
	for i := range seats {
		seats[i].ShowID = id
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		a.t.Fatal(err)
	}
}

// TestOnSaleHooks runs SPEC §20's on-sale and queue hooks end to end: an
// admin creates an on-sale by its form, the covered show's map says when
// it opens, from 30 minutes before T0 the map and holds go to the queue,
// a visitor joins, waits without a place until T0 has settled, is
// admitted by the rate, gets the pass and holds.
func TestOnSaleHooks(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(60, "15m", testShowID))

	v := a.client()
	// More than 30 minutes before T0: no gate; the map says when sales open.
	res := v.get("/shows/" + testShowID)
	wantStatus(t, res, http.StatusOK)
	head := res.doc(t).Find("[data-on-sale]")
	if on, _ := head.Attr("data-on-sale"); on != "false" {
		t.Errorf("data-on-sale %q before T0, want false", on)
	}
	if at, _ := head.Attr("data-opens-at"); at != onSaleT0.Format(time.RFC3339) {
		t.Errorf("data-opens-at %q, want T0 %s", at, onSaleT0.Format(time.RFC3339))
	}
	if _, live := v.queue(id); queueState(live) != "before" {
		t.Errorf("queue state %q an hour before T0, want before", queueState(live))
	}

	a.clock.Set(onSaleT0.Add(-20 * time.Minute))
	a.clock.Advance(3 * time.Second) // past the snapshot's age
	res = v.get("/shows/" + testShowID)
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/queue/"+id {
		t.Fatalf("the map sent to %q, want the queue", loc)
	}
	_, live := v.queue(id)
	if queueState(live) != "open" || live.Find(`form[action="/queue/`+id+`/join"] input[name="_csrf"]`).Length() != 1 {
		t.Fatalf("queue state %q, want open with a Join form", queueState(live))
	}
	v.mustJoin(id)
	_, live = v.queue(id)
	if _, has := live.Attr("data-position"); queueState(live) != "waiting" || has {
		t.Errorf("before T0: state %q with a position %v; want waiting without one", queueState(live), has)
	}
	wantStatus(t, v.post("/shows/"+testShowID+"/holds", formSeats(v.tokenFrom("/queue/"+id), "A1")), http.StatusSeeOther)

	// At T0 the positions of earlier joiners are not known yet; after
	// the settling margin they are, and the rate admits the first at
	// T0+1s.
	a.clock.Set(onSaleT0.Add(2 * time.Second))
	if _, live = v.queue(id); queueState(live) != "waiting" {
		t.Errorf("within the settling margin: %q, want waiting", queueState(live))
	}
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	v.mustBeAdmitted(id)
	if v.cookie("boxoffice_pass_"+id) == "" {
		t.Fatal("admitted without a pass cookie")
	}
	_, live = v.queue(id)
	if queuePosition(t, live) != 0 || live.Find(`a[data-show-id="`+testShowID+`"]`).Length() != 1 {
		t.Errorf("admitted page: position %v, link to the show %d", live.AttrOr("data-position", ""), live.Find("a[data-show-id]").Length())
	}
	wantStatus(t, v.get("/shows/"+testShowID), http.StatusOK)
	holdPath := v.mustHold("A1", "A2")

	// The admin's page counts the queue (the admin signs in again: an
	// hour without a request ended the session).
	admin.mustLogin()
	d := admin.get("/admin/onsales/" + id).doc(t)
	if j, _ := d.Find(`[data-col="joined"]`).Attr("data-value"); j != "1" {
		t.Errorf("joined %q, want 1", j)
	}
	// Pause, rate, resume and close, each 303 back to the page.
	for _, action := range []string{"pause", "resume", "close"} {
		wantStatus(t, admin.post("/admin/onsales/"+id+"/"+action, url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	}
	wantStatus(t, v.get(holdPath), http.StatusOK)
}

// TestOnSaleGate: without a pass, a covered show's map, fragment and holds
// go to the queue (htmx: HX-Redirect); admins pass; another show is
// untouched; a hold made with a pass can be paid after the pass ended.
func TestOnSaleGate(t *testing.T) {
	a := newAdminApp(t)
	a.secondShow("show2")
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(600, "2m", testShowID))
	a.clock.Set(onSaleT0.Add(-10 * time.Minute))

	v := a.client()
	tok := v.tokenFrom("/shows/show2")
	for _, r := range []struct {
		name string
		res  response
	}{
		{"map", v.get("/shows/" + testShowID)},
		{"fragment", v.get("/shows/" + testShowID + "/seats")},
		{"hold", v.post("/shows/"+testShowID+"/holds", formSeats(tok, "A1"))},
		{"best hold", v.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "best": {"2"}})},
	} {
		if r.res.StatusCode != http.StatusSeeOther || r.res.Header.Get("Location") != "/queue/"+id {
			t.Errorf("%s without a pass: %d to %q, want 303 to the queue", r.name, r.res.StatusCode, r.res.Header.Get("Location"))
		}
	}
	hx := v.get("/shows/"+testShowID+"/seats", "HX-Request", "true")
	if hx.StatusCode/100 != 2 || hx.Header.Get("HX-Redirect") != "/queue/"+id {
		t.Errorf("htmx fragment: %d with HX-Redirect %q, want 2xx to the queue", hx.StatusCode, hx.Header.Get("HX-Redirect"))
	}
	wantStatus(t, v.get("/shows/show2"), http.StatusOK)
	wantStatus(t, v.get("/shows/show2/seats"), http.StatusOK)
	admin.mustLogin() // the clock moved past ADMIN_IDLE
	wantStatus(t, admin.get("/shows/"+testShowID), http.StatusOK)
	wantStatus(t, admin.get("/shows/"+testShowID+"/seats"), http.StatusOK)

	// Admitted: map and hold; after the pass ends checkout still works.
	v.mustJoin(id)
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	// No detour: the map itself gives the pass to a visitor whose turn came.
	wantStatus(t, v.get("/shows/"+testShowID), http.StatusOK)
	if v.cookie("boxoffice_pass_"+id) == "" {
		t.Fatal("the map gave no pass to an admitted visitor")
	}
	holdPath := v.mustHold("B1", "B2")
	a.clock.Advance(3 * time.Minute) // the pass (2m) has ended, the hold (15m) has not
	res := v.get("/shows/" + testShowID)
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("map after the pass ended: %d, want 303 to the queue", res.StatusCode)
	}
	wantStatus(t, v.post(holdPath+"/extend", url.Values{"_csrf": {v.tokenFrom(holdPath)}}), http.StatusSeeOther)
	pay := v.post(holdPath+"/pay", url.Values{"_csrf": {v.tokenFrom(holdPath)}, "email": {testEmail}})
	wantStatus(t, pay, http.StatusSeeOther)
	// Back there: the turn passed more than a pass lifetime ago.
	if _, live := v.queue(id); queueState(live) != "open" || live.Find("button").Text() == "" || !strings.Contains(live.Text(), "join the queue again") {
		t.Errorf("queue after the pass: %q, want open offering Join again:\n%s", queueState(live), live.Text())
	}
}

// TestOnSaleFalsePasses: a made-up pass, one signed with another key, an
// expired one, and another on-sale's pass are no pass.
func TestOnSaleFalsePasses(t *testing.T) {
	a := newAdminApp(t)
	a.secondShow("show2")
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(600, "2m", testShowID))
	other := admin.createOnSale(onSaleForm(600, "2m", "show2"))
	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	v := a.client()
	v.mustJoin(other)
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	v.mustBeAdmitted(other)
	good := v.cookie("boxoffice_pass_" + other)
	if good == "" {
		t.Fatal("no pass")
	}
	wantStatus(t, v.get("/shows/show2"), http.StatusOK)

	// A pass for this on-sale that lasts a year, signed with no key, with
	// the good pass's signature, and with a key of the forger's own.
	forged := []byte("p1|" + id + "|0|" + strconv.FormatInt(onSaleT0.Add(365*24*time.Hour).UnixNano(), 10))
	payload := base64.RawURLEncoding.EncodeToString(forged)
	_, sig, _ := strings.Cut(good, ".")
	mac := hmac.New(sha256.New, []byte("the forger's own key"))
	mac.Write(forged)
	for name, value := range map[string]string{
		"unsigned":            payload,
		"another's signature": payload + "." + sig,
		"another key":         payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)),
		"another on-sale's":   good,
	} {
		c := a.client()
		c.setCookie("boxoffice_pass_"+id, value)
		if res := c.get("/shows/" + testShowID); res.StatusCode != http.StatusSeeOther {
			t.Errorf("%s pass: %d, want 303 to the queue", name, res.StatusCode)
		}
	}
	a.clock.Advance(2*time.Minute + time.Second)
	c := a.client()
	c.setCookie("boxoffice_pass_"+other, good)
	if res := c.get("/shows/show2"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("expired pass: %d, want 303 to the queue", res.StatusCode)
	}
}

// TestOnSaleClosedAndInvalid: a join after the close is 410 and says
// closed; a rate of 0 or less is 422; an unknown on-sale is 404; the
// shows of a closed on-sale need no pass.
func TestOnSaleClosedAndInvalid(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	for _, rate := range []string{"0", "-3", "x"} {
		f := onSaleForm(0, "15m", testShowID)
		f.Set("rate", rate)
		f.Set("_csrf", admin.adminCSRF())
		res := admin.post("/admin/onsales", f)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if res.doc(t).Find(`[data-field-error="rate"]`).Length() != 1 {
			t.Errorf("rate %s: no error on the rate field", rate)
		}
	}
	id := admin.createOnSale(onSaleForm(60, "15m", testShowID))
	// The show is covered: another on-sale of it is 422 naming it.
	f := onSaleForm(60, "15m", testShowID)
	f.Set("_csrf", admin.adminCSRF())
	if res := admin.post("/admin/onsales", f); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(res.body, "Monsoon Express") {
		t.Errorf("a show covered twice: %d, want 422 naming the show", res.StatusCode)
	}
	for _, rate := range []string{"0", "-1"} {
		wantStatus(t, admin.post("/admin/onsales/"+id+"/rate", url.Values{"_csrf": {admin.adminCSRF()}, "rate": {rate}}), http.StatusUnprocessableEntity)
	}
	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	v := a.client()
	tok := v.tokenFrom("/queue/" + id)
	admin.mustLogin() // the clock moved past ADMIN_IDLE
	wantStatus(t, admin.post("/admin/onsales/"+id+"/close", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	res := v.post("/queue/"+id+"/join", url.Values{"_csrf": {tok}})
	wantStatus(t, res, http.StatusGone)
	if st := queueState(res.doc(t).Find("[data-queue-state]")); st != "closed" || !strings.Contains(res.body, "closed") {
		t.Errorf("join after the close: state %q, want closed and saying so", st)
	}
	if n, _ := a.store.CountQueue(context.Background(), id); n != 0 {
		t.Errorf("%d queue rows after a refused join", n)
	}
	wantStatus(t, v.get("/shows/"+testShowID), http.StatusOK)
	wantStatus(t, v.get("/queue/"+booking.NewID()), http.StatusNotFound)
	wantStatus(t, v.get("/queue/nosuch"), http.StatusNotFound)
}

// TestOnSaleKeepsPlaceAndRejoins: a browser that comes back with its
// cookie has its place; one whose turn passed more than a pass lifetime
// ago joins again, at the back.
func TestOnSaleKeepsPlaceAndRejoins(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(1, "2m", testShowID))
	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	visitors := make([]*client, 4)
	for i := range visitors {
		visitors[i] = a.client()
		visitors[i].mustJoin(id)
		visitors[i].mustJoin(id) // once per browser: no second row
	}
	if n, _ := a.store.CountQueue(context.Background(), id); n != len(visitors) {
		t.Fatalf("%d rows for %d browsers", n, len(visitors))
	}
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	positions := map[int]bool{}
	var last *client
	var lastPos int
	for _, v := range visitors {
		_, live := v.queue(id)
		p := queuePosition(t, live)
		positions[p] = true
		if ahead, _ := live.Attr("data-ahead"); ahead != strconv.Itoa(p) {
			t.Errorf("position %d with %s ahead, want %d (none admitted yet at 1 a minute)", p, ahead, p)
		}
		if eta, _ := live.Attr("data-eta-seconds"); eta != strconv.Itoa(p*60) {
			t.Errorf("position %d: eta %s s, want %d", p, eta, p*60)
		}
		// The tab closed: the same cookies in a new jar.
		again := a.client()
		u, _ := url.Parse(a.srv.URL)
		again.http.Jar.SetCookies(u, v.http.Jar.Cookies(u))
		if _, l := again.queue(id); queuePosition(t, l) != p {
			t.Errorf("came back at %d, want %d", queuePosition(t, l), p)
		}
		if p == 0 {
			last = v
		}
		lastPos = max(lastPos, p)
	}
	if len(positions) != len(visitors) {
		t.Fatalf("positions %v, want all different", positions)
	}
	// Pausing stops the estimate.
	admin.mustLogin() // the clock moved past ADMIN_IDLE
	wantStatus(t, admin.post("/admin/onsales/"+id+"/pause", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	_, live := visitors[0].queue(id)
	if _, has := live.Attr("data-eta-seconds"); has || !strings.Contains(live.Text(), "paused") {
		t.Errorf("paused: eta present %v; want none and the page saying paused", has)
	}
	wantStatus(t, admin.post("/admin/onsales/"+id+"/resume", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)

	// Position 0's turn comes at about T0+1m (T0+1m plus the pause); it
	// does not come back for more than the pass lifetime.
	a.clock.Set(onSaleT0.Add(10 * time.Minute))
	res, live := last.queue(id)
	if queueState(live) != "open" || !strings.Contains(res.body, "Join again") {
		t.Fatalf("back after its turn passed: %q, want open with Join again", queueState(live))
	}
	last.mustJoin(id)
	_, live = last.queue(id)
	if _, has := live.Attr("data-position"); has || queueState(live) != "waiting" {
		t.Errorf("just joined after T0: state %q with a position %v; want waiting without one until the joins before it are in", queueState(live), has)
	}
	if d, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(live.AttrOr("hx-trigger", ""), "load delay:"), "s")); d < int(booking.SettlingMargin/time.Second) || d > 10 {
		t.Errorf("a place being counted is asked for again after %q, want just after the settling margin", live.AttrOr("hx-trigger", ""))
	}
	if !strings.Contains(live.Text(), "being counted") {
		t.Errorf("a place being counted: %q, want the page saying so", live.Text())
	}
	a.clock.Advance(booking.SettlingMargin)
	_, live = last.queue(id)
	if p := queuePosition(t, live); p <= lastPos {
		t.Errorf("joined again at %d, want at the back (after %d)", p, lastPos)
	}
}

// countingStore counts the on-sale reads of the store it wraps.
type countingStore struct {
	*sqlite.Store
	reads atomic.Int64
}

func (s *countingStore) OnSale(ctx context.Context, id string) (booking.OnSale, error) {
	s.reads.Add(1)
	return s.Store.OnSale(ctx, id)
}

func (s *countingStore) OpenOnSales(ctx context.Context, now time.Time) ([]booking.OnSale, error) {
	s.reads.Add(1)
	return s.Store.OpenOnSales(ctx, now)
}

func (s *countingStore) QueuePosition(ctx context.Context, onSaleID, joinID string) (int, bool, error) {
	s.reads.Add(1)
	return s.Store.QueuePosition(ctx, onSaleID, joinID)
}

func (s *countingStore) Show(ctx context.Context, id string) (booking.Show, error) {
	s.reads.Add(1)
	return s.Store.Show(ctx, id)
}

// countingFinds counts the session reads of the store it wraps.
type countingFinds struct {
	*sqlite.SessionStore
	finds atomic.Int64
}

func (s *countingFinds) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	s.finds.Add(1)
	return s.SessionStore.FindCtx(ctx, token)
}

func (s *countingFinds) Find(token string) ([]byte, bool, error) {
	s.finds.Add(1)
	return s.SessionStore.Find(token)
}

// TestQueuePageReadsNothing: once a visitor's place is known, its queue
// page and the status it refreshes read nothing from the database, while
// the process's snapshot of the on-sales is fresh.
func TestQueuePageReadsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	a := startApp(t, path, booking.NewManualClock(testStart))
	show, seats := testShow()
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	st := &countingStore{Store: a.store}
	svc := booking.NewService(st, a.clock, testPolicy)
	o, err := svc.CreateOnSale(context.Background(), booking.OnSaleRequest{Name: "Counted", OpensAt: onSaleT0, Rate: 1, ShowIDs: []string{testShowID}})
	if err != nil {
		t.Fatal(err)
	}
	sessions := &countingFinds{SessionStore: a.store.Sessions().WithClock(a.clock.Now)}
	a.srv.Config.Handler = web.New(svc, web.Options{Sessions: sessions, Location: time.UTC, Logger: discardLogger()}).Handler()

	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	ahead := a.client()
	ahead.mustJoin(o.ID)
	v := a.client()
	v.mustJoin(o.ID)
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	_, live := v.queue(o.ID)
	if queueState(live) != "waiting" {
		t.Fatalf("state %q, want waiting", queueState(live))
	}
	queuePosition(t, live)
	ahead.queue(o.ID)
	reads, finds := st.reads.Load(), sessions.finds.Load()
	for range 5 {
		_, live = v.queue(o.ID)
		if _, has := live.Attr("data-position"); !has {
			t.Fatal("the page lost the position")
		}
		res := v.get("/queue/"+o.ID+"/status", "HX-Request", "true")
		wantStatus(t, res, http.StatusOK)
		if trig, _ := res.doc(t).Find("[hx-trigger]").Attr("hx-trigger"); !strings.HasPrefix(trig, "load delay:") {
			t.Errorf("the status does not refresh itself: hx-trigger %q", trig)
		}
	}
	if n, f := st.reads.Load()-reads, sessions.finds.Load()-finds; n != 0 || f != 0 {
		t.Errorf("%d store reads and %d session reads for a visitor whose place is known, want none", n, f)
	}
	// The snapshot is read again once it is two seconds old: one read for
	// every visitor.
	a.clock.Advance(2 * time.Second)
	v.queue(o.ID)
	ahead.queue(o.ID)
	if n := st.reads.Load() - reads; n != 1 {
		t.Errorf("%d reads after the snapshot aged, want 1 (the open on-sales)", n)
	}
}

// TestOnSaleCarrierNAT (SPEC §12): from one address, with
// HOLD_SEATS_PER_ADDRESS at MAX_SEATS and a small HOLD_RATE, many browsers
// with passes each hold seats of a covered show; without passes, on a
// show not covered, the same address meets the cap (429).
func TestOnSaleCarrierNAT(t *testing.T) {
	p := testPolicy
	p.MaxSeats, p.SeatsPerAddress = 10, 10
	a := newAppWith(t, p, func(o *web.Options) { o.HoldRate = 1 })
	a.secondShow("show2")
	ctx := context.Background()
	if _, err := a.svc.CreateOnSale(ctx, booking.OnSaleRequest{Name: "NAT", OpensAt: onSaleT0, Rate: 600, ShowIDs: []string{testShowID}}); err != nil {
		t.Fatal(err)
	}
	list, _ := a.svc.ListOnSales(ctx)
	id := list[0].ID
	const addr = "198.51.100.20"
	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	visitors := make([]*client, 12)
	for i := range visitors {
		visitors[i] = a.client()
		visitors[i].mustJoin(id, "X-Forwarded-For", addr)
	}
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	for i, v := range visitors {
		// Two seats each: 24 from one address, over the cap of 10 and
		// the address's 10 holds a minute.
		seats := []string{string(rune('A'+i/3)) + itoa(2*(i%3)+1), string(rune('A'+i/3)) + itoa(2*(i%3)+2)}
		res := v.post("/shows/"+testShowID+"/holds", formSeats(v.tokenFrom("/shows/"+testShowID), seats...), "X-Forwarded-For", addr)
		wantStatus(t, res, http.StatusSeeOther)
	}
	refused := false
	for i := range 6 {
		c := a.client()
		seats := []string{string(rune('A'+i/3)) + itoa(2*(i%3)+1), string(rune('A'+i/3)) + itoa(2*(i%3)+2)}
		res := c.post("/shows/show2/holds", formSeats(c.tokenFrom("/shows/show2"), seats...), "X-Forwarded-For", addr)
		if res.StatusCode == http.StatusTooManyRequests {
			refused = true
			break
		}
		wantStatus(t, res, http.StatusSeeOther)
	}
	if !refused {
		t.Error("without passes one address held 12 seats with a cap of 10")
	}
}

// TestQueueWaitsUntilNumbered (SPEC §18): positions are numbered in
// batches by the requests that need one; a visitor with more entries
// ahead than booking.QueueNumberSteps batches number stays waiting without
// a position, and gets it on a later request, with no place given twice.
func TestQueueWaitsUntilNumbered(t *testing.T) {
	ctx := context.Background()
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(1, "2m", testShowID))
	o, err := a.store.OnSale(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	ahead := booking.QueueNumberSteps*booking.QueueNumberBatch + 500
	for i := range ahead {
		e := booking.NewQueueEntry(o, booking.NewID(), o.OpensAt.Add(-10*time.Minute+time.Duration(i)*time.Microsecond))
		if err := a.store.JoinQueue(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	a.clock.Set(o.OpensAt.Add(time.Second))
	v := a.client()
	v.mustJoin(id)
	a.clock.Set(o.OpensAt.Add(time.Second + booking.SettlingMargin))
	_, live := v.queue(id)
	if _, has := live.Attr("data-position"); has || queueState(live) != "waiting" {
		t.Errorf("behind %d unnumbered: state %q, position shown %v; want waiting without one", ahead, queueState(live), has)
	}
	_, live = v.queue(id)
	if p := queuePosition(t, live); p != ahead || queueState(live) != "waiting" {
		t.Errorf("asked again: %q at %d, want waiting at %d", queueState(live), p, ahead)
	}
}
