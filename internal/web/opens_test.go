package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// setOpening posts SPEC §20's sales opening hook for show as c.
func (c *client) setOpening(showID, at string) response {
	c.t.Helper()
	return c.post("/admin/shows/"+showID+"/opens", url.Values{"_csrf": {c.adminCSRF()}, "at": {at}})
}

// mapHead is the seat map's [data-on-sale] element, as a visitor sees it.
func mapHead(t *testing.T, a *app, showID string) (onSale, opensAt string, hasOpensAt bool) {
	t.Helper()
	res := a.client().get("/shows/" + showID)
	wantStatus(t, res, http.StatusOK)
	head := res.doc(t).Find("[data-on-sale]")
	onSale, _ = head.Attr("data-on-sale")
	opensAt, hasOpensAt = head.Attr("data-opens-at")
	return onSale, opensAt, hasOpensAt
}

// TestAdminSalesOpening runs SPEC §20's sales opening hook: an admin sets
// a show's opening on its page, the map says when it opens and an online
// hold is 410 until the clock passes it; empty clears it.
func TestAdminSalesOpening(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	page := admin.get("/admin/shows/" + testShowID).doc(t)
	if page.Find(`form[data-opens-form][action="/admin/shows/`+testShowID+`/opens"] input[name="at"][type="datetime-local"]`).Length() != 1 {
		t.Fatal("the admin show page has no sales opening form")
	}

	opens := testStart.Add(time.Hour).Truncate(time.Second)
	res := admin.setOpening(testShowID, opens.Format(time.RFC3339))
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/shows/"+testShowID) {
		t.Fatalf("the hook sent to %q, want the show's admin page", loc)
	}
	sec := admin.get(res.Header.Get("Location")).doc(t).Find("[data-sales-opening]")
	if at, _ := sec.Attr("data-opens-at"); at != opens.Format(time.RFC3339) || !strings.Contains(sec.Text(), "On sale from") {
		t.Errorf("the admin page's opening: data-opens-at %q, %q", at, sec.Text())
	}
	if onSale, at, _ := mapHead(t, a, testShowID); onSale != "false" || at != opens.Format(time.RFC3339) {
		t.Errorf("map before the opening: data-on-sale %q, data-opens-at %q; want false, %s", onSale, at, opens.Format(time.RFC3339))
	}
	v := a.client()
	res = v.hold("A1")
	wantStatus(t, res, http.StatusGone)
	if !strings.Contains(res.body, "on sale from") {
		t.Errorf("the 410 does not say when sales open:\n%s", res.body)
	}

	a.clock.Set(opens)
	v.mustHold("A1")
	if onSale, _, has := mapHead(t, a, testShowID); onSale != "true" || has {
		t.Errorf("map at the opening: data-on-sale %q, data-opens-at present %v; want true, absent", onSale, has)
	}

	// A later opening, then cleared: on sale again.
	admin.mustLogin() // an hour without a request ended the session
	wantStatus(t, admin.setOpening(testShowID, opens.Add(time.Hour).Format(time.RFC3339)), http.StatusSeeOther)
	wantStatus(t, a.client().hold("B1"), http.StatusGone)
	wantStatus(t, admin.setOpening(testShowID, ""), http.StatusSeeOther)
	if sh, _ := a.store.Show(context.Background(), testShowID); !sh.SalesOpenAt.IsZero() {
		t.Errorf("cleared, the show opens at %v", sh.SalesOpenAt)
	}
	if onSale, _, has := mapHead(t, a, testShowID); onSale != "true" || has {
		t.Errorf("map once cleared: data-on-sale %q, data-opens-at present %v; want true, absent", onSale, has)
	}
	a.client().mustHold("B1")
}

// TestAdminSalesOpeningZone: the form's datetime-local value is read in
// the show's theatre's zone, and the page shows it there.
func TestAdminSalesOpeningZone(t *testing.T) {
	a := newAdminApp(t)
	show, seats := testShow()
	show.ID, show.Theatre.TimeZone = "kolkata", "Asia/Kolkata"
	for i := range seats {
		seats[i].ShowID = show.ID
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	admin := a.client()
	admin.mustLogin()
	res := admin.setOpening(show.ID, "2026-03-14T18:30")
	wantStatus(t, res, http.StatusSeeOther)
	want := time.Date(2026, 3, 14, 13, 0, 0, 0, time.UTC) // 18:30 IST
	if sh, _ := a.store.Show(context.Background(), show.ID); !sh.SalesOpenAt.Equal(want) {
		t.Errorf("opens at %v, want %v (18:30 in Kolkata)", sh.SalesOpenAt, want)
	}
	d := admin.get("/admin/shows/" + show.ID).doc(t)
	if v, _ := d.Find(`form[data-opens-form] input[name="at"]`).Attr("value"); v != "2026-03-14T18:30" {
		t.Errorf("the form shows %q, want the opening in Kolkata's time", v)
	}
	if txt := d.Find("[data-sales-opening]").Text(); !strings.Contains(txt, "18:30 IST") {
		t.Errorf("the page says %q, want 18:30 IST", txt)
	}
}

// TestAdminSalesOpeningRefused: a malformed time is 422, staff 403, an
// unknown show 404, a cancelled show and one an open on-sale covers 409;
// none changes the opening.
func TestAdminSalesOpeningRefused(t *testing.T) {
	ctx := context.Background()
	a := newAdminApp(t)
	a.addStaff(t)
	a.secondShow("cancelled")
	a.secondShow("covered")
	admin := a.client()
	admin.mustLogin()
	opens := testStart.Add(2 * time.Hour).Format(time.RFC3339)

	for _, bad := range []string{"tomorrow", "2026-13-01T10:00", "2026-03-14 10:00:00Z"} {
		res := admin.setOpening(testShowID, bad)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if d.Find(`[data-field-error="at"]`).Length() != 1 || !strings.Contains(d.Text(), "RFC 3339") {
			t.Errorf("at=%q: 422 without the field's message:\n%s", bad, d.Find("main").Text())
		}
	}
	staff := a.client()
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusSeeOther)
	res := staff.post("/admin/shows/"+testShowID+"/opens", url.Values{"_csrf": {staff.tokenFrom("/admin/checkin")}, "at": {opens}})
	wantStatus(t, res, http.StatusForbidden)
	if sh, _ := a.store.Show(ctx, testShowID); !sh.SalesOpenAt.IsZero() {
		t.Errorf("a refused opening was stored: %v", sh.SalesOpenAt)
	}
	wantStatus(t, admin.setOpening("nosuchshow", opens), http.StatusNotFound)

	if _, _, err := a.svc.CancelShow(ctx, "cancelled"); err != nil {
		t.Fatal(err)
	}
	res = admin.setOpening("cancelled", opens)
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "cancelled") {
		t.Errorf("409 for a cancelled show without saying so:\n%s", res.body)
	}

	admin.createOnSale(onSaleForm(60, "15m", "covered"))
	res = admin.setOpening("covered", opens)
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "Monsoon Express pre-sale") {
		t.Errorf("409 for a covered show does not name the on-sale:\n%s", res.doc(t).Find("main").Text())
	}
	if sh, _ := a.store.Show(ctx, "covered"); !sh.SalesOpenAt.Equal(onSaleT0.Truncate(time.Second)) {
		t.Errorf("the covered show opens at %v, want the on-sale's T0 %v", sh.SalesOpenAt, onSaleT0)
	}
	if d := admin.get("/admin/shows/covered").doc(t); d.Find("form[data-opens-form]").Length() != 0 ||
		d.Find(`[data-sales-opening] a[href^="/admin/onsales/"]`).Length() != 1 {
		t.Error("the covered show's page offers the form instead of naming its on-sale")
	}
}

// TestHomeListsSalesOpening (SPEC §10): / lists a show whose opening is to
// come as on sale from then, in its theatre's zone, with data-opens-at on
// the showtime; once it has passed, as usual.
func TestHomeListsSalesOpening(t *testing.T) {
	a := newAdminApp(t)
	show, seats := testShow()
	show.ID, show.Theatre.TimeZone = "kolkata", "Asia/Kolkata"
	for i := range seats {
		seats[i].ShowID = show.ID
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	opens := time.Date(2026, 3, 14, 13, 0, 0, 0, time.UTC) // 18:30 IST, an hour after the clock
	if _, err := a.svc.SetSalesOpening(context.Background(), show.ID, opens); err != nil {
		t.Fatal(err)
	}
	el := a.client().get("/").doc(t).Find(`[data-show-id="kolkata"]`)
	if el.Length() != 1 {
		t.Fatal("the show is not listed")
	}
	if at, _ := el.Attr("data-opens-at"); at != opens.Format(time.RFC3339) {
		t.Errorf("data-opens-at %q, want %s", at, opens.Format(time.RFC3339))
	}
	if txt := strings.Join(strings.Fields(el.Text()), " "); !strings.Contains(txt, "On sale from Sat 14 Mar 18:30 IST") {
		t.Errorf("the showtime says %q, want On sale from Sat 14 Mar 18:30 IST", txt)
	}
	if other := a.client().get("/").doc(t).Find(`[data-show-id="` + testShowID + `"]`); other.AttrOr("data-opens-at", "") != "" ||
		strings.Contains(other.Text(), "On sale from") {
		t.Error("a show without an opening is listed as on sale from")
	}

	a.clock.Set(opens)
	el = a.client().get("/").doc(t).Find(`[data-show-id="kolkata"]`)
	if _, has := el.Attr("data-opens-at"); has || strings.Contains(el.Text(), "On sale from") {
		t.Errorf("once open, the showtime still says %q", el.Text())
	}
}
