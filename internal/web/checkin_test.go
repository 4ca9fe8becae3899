package web_test

import (
	"boxoffice/internal/booking"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// soonShow adds a copy of testShow starting at start, and returns its id.
func (a *app) soonShow(t *testing.T, id string, start time.Time) string {
	t.Helper()
	show, seats := testShow()
	show.ID, show.StartsAt = id, start
	for i := range seats {
		seats[i].ShowID = id
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	return id
}

// checkin reads the door's answer.
func checkin(t *testing.T, res response) (result, reason, admittedAt string) {
	t.Helper()
	sel := res.doc(t).Find("[data-checkin]")
	if sel.Length() != 1 {
		t.Fatalf("%d [data-checkin] elements, want 1; body:\n%s", sel.Length(), res.body)
	}
	result, _ = sel.Attr("data-checkin")
	reason, _ = sel.Attr("data-reason")
	admittedAt, _ = sel.Attr("data-admitted-at")
	return result, reason, admittedAt
}

func (c *client) admit(code, show string) response {
	c.t.Helper()
	return c.post("/admin/checkin", url.Values{"_csrf": {c.csrf()}, "code": {code}, "show": {show}})
}

// TestDoor: staff admit a ticket once, typed in any case and without its
// dash; the second scan says when it was admitted; other shows, cancelled
// shows and unknown codes are refused with their reason, and 200.
func TestDoor(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	soon := a.soonShow(t, "soon", testStart.Add(90*time.Minute))
	later := a.soonShow(t, "later", testStart.Add(5*time.Hour))
	b := a.bookAt(soon, "A1", "A2")
	other := a.bookAt(later, "B1")
	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)

	page := door.get("/admin/checkin")
	wantStatus(t, page, http.StatusOK)
	if pp := page.Header.Get("Permissions-Policy"); !strings.Contains(pp, "camera=(self)") {
		t.Errorf("the door's Permissions-Policy %q does not allow the camera", pp)
	}
	if pp := door.get("/").Header.Get("Permissions-Policy"); !strings.Contains(pp, "camera=()") {
		t.Errorf("other pages' Permissions-Policy %q allows the camera", pp)
	}
	d := page.doc(t)
	if v, _ := d.Find(`select[name="show"] option[selected]`).Attr("value"); v != soon {
		t.Errorf("the door admits to %q by default, want the show starting within two hours (%s)", v, soon)
	}
	if d.Find(`select[name="show"] option[value="later"]`).Length() != 0 || d.Find(`select[name="show"] option[value="`+testShowID+`"]`).Length() != 0 {
		t.Error("the door lists shows that start more than two hours from now")
	}
	if got := strings.TrimSpace(d.Find(`[data-count="admitted"]`).Text()); got != "0" {
		t.Errorf("admitted before any scan: %q", got)
	}

	// A look-up admits nothing.
	res := door.get("/admin/checkin?show=" + soon + "&code=" + url.QueryEscape(b.TicketCode))
	if r, _, _ := checkin(t, res); r != "valid" {
		t.Errorf("look-up: data-checkin %q, want valid", r)
	}
	typed := strings.ToLower(strings.ReplaceAll(b.TicketCode, "-", " "))
	res = door.admit(typed, soon)
	wantStatus(t, res, http.StatusOK)
	if r, _, _ := checkin(t, res); r != "admitted" {
		t.Fatalf("admit %q: data-checkin %q, want admitted", typed, r)
	}
	if got := strings.TrimSpace(res.doc(t).Find(`[data-count="admitted"]`).Text()); got != "2" {
		t.Errorf("admitted after one two-seat ticket: %q, want 2", got)
	}
	a.clock.Advance(3*time.Minute + 250*time.Millisecond)
	res = door.admit(b.TicketCode, soon)
	r, _, at := checkin(t, res)
	if r != "already" {
		t.Fatalf("second scan: %q, want already", r)
	}
	stored, _ := a.store.Booking(context.Background(), b.ID)
	if want := stored.AdmittedAt.UTC().Format("2006-01-02T15:04:05.000Z07:00"); at != want || stored.AdmittedBy != staffEmail {
		t.Errorf("second scan: data-admitted-at %q, want %q; admitted by %q", at, want, stored.AdmittedBy)
	}
	if _, err := time.Parse(time.RFC3339, at); err != nil || !strings.Contains(at, ".") {
		t.Errorf("data-admitted-at %q is not RFC 3339 with milliseconds", at)
	}

	for _, tc := range []struct {
		name, code, show, reason string
	}{
		{"another show", other.TicketCode, soon, "other_show"},
		{"unknown code", "ZZZZ-ZZZZ", soon, "unknown"},
		{"not a code", "hello", soon, "unknown"},
	} {
		res := door.admit(tc.code, tc.show)
		wantStatus(t, res, http.StatusOK)
		if r, why, _ := checkin(t, res); r != "refused" || why != tc.reason {
			t.Errorf("%s: %q %q, want refused %s", tc.name, r, why, tc.reason)
		}
	}
	// Without a show, a ticket of a show not at the door now is refused
	// not_today, and admitted once confirmed.
	if r, why, _ := checkin(t, door.admit(other.TicketCode, "")); r != "refused" || why != "not_today" {
		t.Errorf("any show, not today: %q %q, want refused not_today", r, why)
	}
	res = door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {other.TicketCode}, "confirm": {"1"}})
	if r, _, _ := checkin(t, res); r != "admitted" {
		t.Errorf("any show, confirmed: %q, want admitted", r)
	}
	wantStatus(t, door.admit("  ", soon), http.StatusUnprocessableEntity)
	wantStatus(t, door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {"ZZZZ-ZZZZ"}, "show": {"nope"}}), http.StatusUnprocessableEntity)
	wantStatus(t, door.post("/admin/checkin", url.Values{"code": {b.TicketCode}}), http.StatusForbidden)

	// Cancelled: refused with the reason.
	admin := a.client()
	admin.mustLogin()
	c := a.bookAt(soon, "C1")
	// The admin's show page counts the admitted seats.
	if got := strings.TrimSpace(admin.get("/admin/shows/" + soon).doc(t).Find(`[data-count="admitted"]`).Text()); got != "2" {
		t.Errorf("admin show page: admitted %q, want 2", got)
	}
	wantStatus(t, admin.post("/admin/shows/"+soon+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}}), http.StatusSeeOther)
	if r, why, _ := checkin(t, door.admit(c.TicketCode, soon)); r != "refused" || why != "cancelled" {
		t.Errorf("cancelled show: %q %q, want refused cancelled", r, why)
	}

	anonymous := a.client()
	wantStatus(t, anonymous.get("/admin/checkin"), http.StatusSeeOther)
}
