package web_test

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// reserve posts SPEC §20's reserve hook for the test show as c.
func (c *client) reserve(reserve string, seats ...string) response {
	c.t.Helper()
	return c.post("/admin/shows/"+testShowID+"/reserve", url.Values{"_csrf": {c.adminCSRF()}, "reserve": {reserve}, "seat": seats})
}

// setCutoff posts SPEC §20's online cut-off hook for the test show as c.
func (c *client) setCutoff(seats string) response {
	c.t.Helper()
	return c.post("/admin/shows/"+testShowID+"/cutoff", url.Values{"_csrf": {c.adminCSRF()}, "seats": {seats}})
}

// adminCounts are the [data-count] numbers of the show's admin page.
func adminCounts(t *testing.T, d *goquery.Document) map[string]int {
	t.Helper()
	out := map[string]int{}
	d.Find(".admin-counts [data-count]").Each(func(_ int, s *goquery.Selection) {
		k, _ := s.Attr("data-count")
		n, err := strconv.Atoi(strings.TrimSpace(s.Text()))
		if err != nil {
			t.Fatalf("data-count=%q is %q", k, s.Text())
		}
		out[k] = n
	})
	return out
}

// wantCountsAddUp checks that booked + held + available + reserved is the
// test show's 30 seats, and returns the counts.
func wantCountsAddUp(t *testing.T, admin *client) map[string]int {
	t.Helper()
	c := adminCounts(t, admin.get("/admin/shows/"+testShowID).doc(t))
	if _, ok := c["reserved"]; !ok {
		t.Fatal(`the admin show page has no [data-count="reserved"]`)
	}
	if sum := c["booked"] + c["held"] + c["available"] + c["reserved"]; sum != 30 {
		t.Errorf("counts %v add up to %d, want the show's 30 seats", c, sum)
	}
	return c
}

// TestReservedSeatsOnline runs SPEC §20's reserve and "reserved seats
// online" hooks: an admin marks A1 house and A2 blocked on the show's
// page; online they are unavailable without an expiry, a crafted hold of
// either is 409 and changes nothing, the counts add up; released, A1 is on
// sale again.
func TestReservedSeatsOnline(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	page := admin.get("/admin/shows/" + testShowID).doc(t)
	form := page.Find(`form[data-reserve-form][action="/admin/shows/` + testShowID + `/reserve"]`)
	if form.Find(`input[type="checkbox"][name="seat"][value="A1"]`).Length() != 1 ||
		form.Find(`input[type="radio"][name="reserve"]`).Length() != 3 {
		t.Fatal("the admin show page has no form to tick seats and reserve them")
	}

	res := admin.reserve("house", "A1")
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/shows/"+testShowID) {
		t.Fatalf("the hook sent to %q, want the show's admin page", loc)
	}
	wantStatus(t, admin.reserve("blocked", "A2"), http.StatusSeeOther)
	d := admin.get("/admin/shows/" + testShowID).doc(t)
	if r, _ := d.Find(`.admin-seatmap .seat[data-seat-id="A1"]`).Attr("data-reserve"); r != "house" {
		t.Errorf("the admin map's A1 has data-reserve %q, want house", r)
	}
	if c := wantCountsAddUp(t, admin); c["reserved"] != 2 || c["available"] != 28 {
		t.Errorf("counts %v, want 2 reserved and 28 available", c)
	}

	v := a.client()
	m := v.get("/shows/" + testShowID).doc(t)
	for _, id := range []string{"A1", "A2"} {
		seat := m.Find(`[data-seat-id="` + id + `"]`)
		if st, _ := seat.Attr("data-state"); st != "unavailable" {
			t.Errorf("online, %s is %q, want unavailable", id, st)
		}
		if _, has := seat.Attr("data-expires-at"); has {
			t.Errorf("online, %s has data-expires-at", id)
		}
	}
	if m.Find(`.legend [data-state="unavailable"]`).Length() != 1 || !strings.Contains(m.Find(".legend").Text(), "Not sold online") {
		t.Error("the legend does not name the unavailable seats")
	}
	wantStatus(t, v.hold("A1"), http.StatusConflict)
	wantStatus(t, v.hold("A2", "A3"), http.StatusConflict)
	wantStatus(t, v.hold("A1", "A3"), http.StatusConflict)
	if c := wantCountsAddUp(t, admin); c["held"] != 0 {
		t.Errorf("a refused hold held seats: %v", c)
	}
	v.mustHold("A3")
	if c := wantCountsAddUp(t, admin); c["held"] != 1 || c["reserved"] != 2 {
		t.Errorf("counts %v, want 1 held and 2 reserved", c)
	}

	wantStatus(t, admin.reserve("none", "A1"), http.StatusSeeOther)
	if st := seatStates(a.client().get("/shows/" + testShowID).doc(t))["A1"]; st != "available" {
		t.Errorf("released, A1 is %q online, want available", st)
	}
	a.client().mustHold("A1")
}

// TestReserveTakenSeats: reserving a sold seat or one held live is 409
// with data-conflict on it, and nothing changes; a bad reserve or seat is
// 422, staff 403.
func TestReserveTakenSeats(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	a.book("A1")
	a.client().mustHold("A2")
	admin := a.client()
	admin.mustLogin()
	before := wantCountsAddUp(t, admin)

	for _, tc := range []struct {
		seats    []string
		conflict []string
	}{
		{[]string{"A1", "A3"}, []string{"A1"}},
		{[]string{"A2"}, []string{"A2"}},
		{[]string{"A1", "A2", "A4"}, []string{"A1", "A2"}},
	} {
		res := admin.reserve("house", tc.seats...)
		wantStatus(t, res, http.StatusConflict)
		var got []string
		res.doc(t).Find(`[data-conflict][data-seat-id]`).Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("data-seat-id")
			got = append(got, id)
		})
		if strings.Join(got, ",") != strings.Join(tc.conflict, ",") {
			t.Errorf("reserving %v: data-conflict on %v, want %v", tc.seats, got, tc.conflict)
		}
	}
	if after := wantCountsAddUp(t, admin); after["reserved"] != 0 || after["available"] != before["available"] {
		t.Errorf("a refused reserve changed the counts: %v, before %v", after, before)
	}

	for _, tc := range []struct {
		name    string
		reserve string
		seats   []string
	}{
		{"unknown reserve", "vip", []string{"A3"}},
		{"no reserve", "", []string{"A3"}},
		{"unknown seat", "house", []string{"Z9"}},
		{"not a seat", "house", []string{"<b>"}},
		{"no seat", "house", nil},
	} {
		res := admin.reserve(tc.reserve, tc.seats...)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422", tc.name, res.StatusCode)
		}
	}
	staff := a.client()
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusSeeOther)
	res := staff.post("/admin/shows/"+testShowID+"/reserve", url.Values{"_csrf": {staff.adminCSRF()}, "reserve": {"house"}, "seat": {"A3"}})
	wantStatus(t, res, http.StatusForbidden)
	if c := wantCountsAddUp(t, admin); c["reserved"] != 0 {
		t.Errorf("refused reserves reserved seats: %v", c)
	}
}

// TestOnlineCutoff runs SPEC §20's online cut-off hook: with a cut-off of
// 27 of the show's 30 seats, a hold that would leave fewer available
// online is 410, one-step best hold included; while at most 27 are, the
// map has data-on-sale="false"; More time of a hold made before goes on;
// freed seats reopen it; 0 turns it off.
func TestOnlineCutoff(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	if admin.get("/admin/shows/"+testShowID).doc(t).Find(`form[data-cutoff-form] input[name="seats"]`).Length() != 1 {
		t.Fatal("the admin show page has no online cut-off form")
	}
	wantStatus(t, admin.setCutoff("27"), http.StatusSeeOther)

	first := a.client()
	firstHold := first.mustHold("A1", "A2") // 28 left
	if onSale, _, _ := mapHead(t, a, testShowID); onSale != "true" {
		t.Errorf("28 available online of a cut-off of 27: data-on-sale %q, want true", onSale)
	}
	v := a.client()
	wantStatus(t, v.hold("B1", "B2"), http.StatusGone)
	res := v.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {v.csrf()}, "best": {"2"}})
	wantStatus(t, res, http.StatusGone)
	v.mustHold("B1") // 27 left
	if onSale, _, _ := mapHead(t, a, testShowID); onSale != "false" {
		t.Errorf("27 available online of a cut-off of 27: data-on-sale %q, want false", onSale)
	}
	wantStatus(t, a.client().hold("C1"), http.StatusGone)
	if txt := admin.get("/admin/shows/" + testShowID).doc(t).Find("[data-online-cutoff]").Text(); !strings.Contains(txt, "stopped") {
		t.Errorf("the admin page's cut-off says %q, want that online sales stopped", txt)
	}

	// More time of a hold made before the cut-off closed sales goes on.
	res = first.post(firstHold+"/extend", url.Values{"_csrf": {first.csrf()}})
	if res.StatusCode >= 400 {
		t.Errorf("More time after the cut-off: status %d, want success", res.StatusCode)
	}

	// Back frees two seats: on sale again by itself.
	wantStatus(t, first.post(firstHold+"/release", url.Values{"_csrf": {first.csrf()}}), http.StatusSeeOther)
	if onSale, _, _ := mapHead(t, a, testShowID); onSale != "true" {
		t.Errorf("29 available online: data-on-sale %q, want true", onSale)
	}
	a.client().mustHold("C1")

	for _, bad := range []string{"-1", "two", ""} {
		if res := admin.setCutoff(bad); res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("cut-off %q: status %d, want 422", bad, res.StatusCode)
		}
	}
	wantStatus(t, admin.setCutoff("0"), http.StatusSeeOther)
	a.client().mustHold("C2", "C3")
}

// TestOnlineCutoffCounterSells: once the online cut-off (28 of the typed
// show's 30 seats) has stopped online sales, an online hold is 410 while
// the counter still holds and sells over HTTP: 303 to the hold, 303 to a
// confirmed box-office booking; and online holds stay 410 after it.
func TestOnlineCutoffCounterSells(t *testing.T) {
	a := newCounterApp(t)
	a.clock.Set(testShowStart.Add(-25 * time.Hour)) // online sales open (SALES_CLOSE -24h)
	admin := a.staffClient(adminEmail, adminPassword)
	res := admin.post("/admin/shows/"+typedShowID+"/cutoff", url.Values{"_csrf": {admin.adminCSRF()}, "seats": {"28"}})
	wantStatus(t, res, http.StatusSeeOther)
	onlineHold := func(c *client, seats ...string) response {
		t.Helper()
		return c.post("/shows/"+typedShowID+"/holds", url.Values{"_csrf": {webCSRF(t, c)}, "seat": seats})
	}
	wantStatus(t, onlineHold(a.client(), "A1", "A2"), http.StatusSeeOther) // 28 left
	if onSale, _, _ := mapHead(t, a, typedShowID); onSale != "false" {
		t.Fatalf("28 available online of a cut-off of 28: data-on-sale %q, want false", onSale)
	}
	wantStatus(t, onlineHold(a.client(), "B1"), http.StatusGone)

	staff := a.staffClient(staffEmail, staffPassword)
	holdPath := staff.mustCounterHold("B1", "B2")
	page := staff.mustSell(holdPath, url.Values{"method": {"cash"}, "type_B1": {"adult"}, "type_B2": {"adult"}})
	b := staff.get(page).doc(t).Find("[data-booking-id]")
	for name, want := range map[string]string{"data-state": "confirmed", "data-channel": "box_office", "data-method": "cash"} {
		if got, _ := b.Attr(name); got != want {
			t.Errorf("the counter's sale after the cut-off: %s = %q, want %q", name, got, want)
		}
	}
	states := seatStates(a.client().get("/shows/" + typedShowID).doc(t))
	if states["B1"] != "booked" || states["B2"] != "booked" {
		t.Errorf("online map after the counter's sale: B1 %s, B2 %s; want booked", states["B1"], states["B2"])
	}
	wantStatus(t, onlineHold(a.client(), "C1"), http.StatusGone)
}

// TestBestAvailableSkipsReserved: best available never suggests a seat
// with a reserve, and the one-step best hold never takes one: with the
// best block's seats kept for the counter, both give the next block.
func TestBestAvailableSkipsReserved(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	best := suggested(t, a.client().get("/shows/"+testShowID+"?best=3"))
	if len(best) != 3 {
		t.Fatalf("best available suggests %v, want 3 seats", best)
	}
	wantStatus(t, admin.reserve("house", best[1]), http.StatusSeeOther)
	next := suggested(t, a.client().get("/shows/"+testShowID+"?best=3"))
	if len(next) != 3 {
		t.Fatalf("with %s reserved, best available suggests %v, want 3 seats", best[1], next)
	}
	for _, id := range next {
		if id == best[1] {
			t.Errorf("best available suggests %v, with the house seat %s", next, id)
		}
	}
	v := a.client()
	res := v.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {v.csrf()}, "best": {"3"}})
	wantStatus(t, res, http.StatusSeeOther)
	held := seatStates(v.get("/shows/" + testShowID).doc(t))
	var mine []string
	for id, st := range held {
		if st == "mine" {
			mine = append(mine, id)
		}
	}
	sort.Strings(mine)
	want := append([]string(nil), next...)
	sort.Strings(want)
	if strings.Join(mine, ",") != strings.Join(want, ",") {
		t.Errorf("the one-step best hold took %v, want %v, the best block online", mine, want)
	}
}
