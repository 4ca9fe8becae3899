package web_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
)

const (
	staffEmail    = "door@example.com"
	staffPassword = "tear here please"
)

// addStaff gives the app a door account.
func (a *app) addStaff(t *testing.T) booking.Admin {
	t.Helper()
	adm, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), staffEmail, staffPassword, booking.RoleStaff)
	if err != nil {
		t.Fatalf("Ensure staff: %v", err)
	}
	return adm
}

// adminPages are the admin-only pages, GET and POST, that staff may not use.
var adminPages = []struct{ method, path string }{
	{http.MethodGet, "/admin"},
	{http.MethodGet, "/admin/shows/" + testShowID},
	{http.MethodGet, "/admin/shows/" + testShowID + "/bookings.csv"},
	{http.MethodPost, "/admin/shows/" + testShowID + "/cancel"},
	{http.MethodGet, "/admin/catalog"},
	{http.MethodGet, "/admin/onsales"},
	{http.MethodGet, "/admin/reports/films"},
	{http.MethodGet, "/admin/refunds"},
	{http.MethodPost, "/admin/onsales"},
	{http.MethodGet, "/admin/theatres/new"},
	{http.MethodGet, "/admin/theatres/t1/types"},
	{http.MethodPost, "/admin/theatres/t1/types"},
	{http.MethodPost, "/admin/theatres/t1/types/adult/delete"},
	{http.MethodGet, "/admin/theatres/t1/cards"},
	{http.MethodPost, "/admin/theatres/t1/cards"},
	{http.MethodGet, "/admin/cards/c1"},
	{http.MethodPost, "/admin/cards/c1/delete"},
	{http.MethodPost, "/admin/shows/" + testShowID + "/prices"},
	{http.MethodPost, "/admin/movies"},
	{http.MethodGet, "/admin/accounts"},
	{http.MethodPost, "/admin/accounts"},
	{http.MethodGet, "/admin/payments/nope"},
}

func (c *client) call(method, path string) response {
	c.t.Helper()
	if method == http.MethodGet {
		return c.get(path)
	}
	return c.post(path, url.Values{"_csrf": {c.csrf()}})
}

// TestRoles: staff sign in to the door and get 403 everywhere else;
// anonymous visitors are sent to sign in; admins reach everything.
func TestRoles(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)

	staff := a.client()
	res := staff.login(staffEmail, staffPassword)
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/admin/checkin" {
		t.Fatalf("staff sign-in sent to %q, want /admin/checkin", loc)
	}
	if loc := staff.get("/admin/login").Header.Get("Location"); loc != "/admin/checkin" {
		t.Errorf("the sign-in page of signed-in staff sends to %q, want /admin/checkin", loc)
	}
	door := staff.get("/admin/checkin")
	wantStatus(t, door, http.StatusOK)
	bar := door.doc(t).Find(".admin-bar")
	if bar.Find(`a[href="/admin/catalog"]`).Length() != 0 || bar.Find(`a[href="/admin/checkin"]`).Length() != 1 {
		t.Errorf("staff's admin bar links %q; want the door only", bar.Text())
	}
	anonymous := a.client()
	admin := a.client()
	admin.mustLogin()
	for _, p := range adminPages {
		res := staff.call(p.method, p.path)
		wantStatus(t, res, http.StatusForbidden)
		if p.method == http.MethodGet {
			d := res.doc(t)
			if d.Find(`a[href="/admin/checkin"]`).Length() == 0 || !strings.Contains(d.Text(), "for admins") {
				t.Errorf("%s %s as staff: the 403 page does not lead to the door: %q", p.method, p.path, d.Find("main").Text())
			}
		}
		res = anonymous.call(p.method, p.path)
		wantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/admin/login" {
			t.Errorf("%s %s anonymous: Location %q, want /admin/login", p.method, p.path, loc)
		}
		// Pages of things the test app does not have are 404 to admins.
		if p.method == http.MethodGet && p.path != "/admin/payments/nope" && !strings.Contains(p.path, "/t1/") && p.path != "/admin/cards/c1" {
			wantStatus(t, admin.get(p.path), http.StatusOK)
		}
	}
	wantStatus(t, admin.get("/admin/checkin"), http.StatusOK)
	// Nothing was cancelled by staff's POST.
	if sh, err := a.store.Show(context.Background(), testShowID); err != nil || !sh.CancelledAt.IsZero() {
		t.Errorf("show after staff's cancel: %+v, %v", sh.CancelledAt, err)
	}
}

// TestAccountsPage: an admin adds a staff account, changes its role and
// password, and deletes it; bad input names its field and saves nothing.
func TestAccountsPage(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()
	ctx := context.Background()

	list := admin.get("/admin/accounts")
	wantStatus(t, list, http.StatusOK)
	if n := list.doc(t).Find(`[data-account="` + adminEmail + `"][data-role="admin"]`).Length(); n != 1 {
		t.Errorf("the accounts list has %d rows of the admin", n)
	}

	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		field  string
	}{
		{"bad email", url.Values{"email": {"not-an-email"}, "password": {staffPassword}, "role": {"staff"}}, 422, "email"},
		{"short password", url.Values{"email": {staffEmail}, "password": {"short"}, "role": {"staff"}}, 422, "password"},
		{"unknown role", url.Values{"email": {staffEmail}, "password": {staffPassword}, "role": {"owner"}}, 422, "role"},
		{"email in use", url.Values{"email": {strings.ToUpper(adminEmail)}, "password": {staffPassword}, "role": {"staff"}}, 409, "email"},
	} {
		tc.form.Set("_csrf", tok)
		res := admin.post("/admin/accounts", tc.form)
		wantStatus(t, res, tc.status)
		if res.doc(t).Find(`[data-field-error="`+tc.field+`"]`).Length() != 1 {
			t.Errorf("%s: no error on field %s", tc.name, tc.field)
		}
	}
	if list, _ := a.store.ListAdmins(ctx); len(list) != 1 {
		t.Fatalf("refused forms saved accounts: %+v", list)
	}

	res := admin.post("/admin/accounts", url.Values{"_csrf": {tok}, "email": {staffEmail}, "password": {staffPassword}, "role": {"staff"}})
	wantStatus(t, res, http.StatusSeeOther)
	staffAcct, err := a.store.AdminByEmail(ctx, staffEmail)
	if err != nil || staffAcct.Role != booking.RoleStaff {
		t.Fatalf("new account %+v, %v; want staff", staffAcct, err)
	}
	page := "/admin/accounts/" + staffAcct.ID
	wantStatus(t, admin.get(page), http.StatusOK)

	// A staff session, then the admin changes the role: that session ends.
	staff := a.client()
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusSeeOther)
	wantStatus(t, staff.get("/admin/checkin"), http.StatusOK)
	wantStatus(t, admin.post(page, url.Values{"_csrf": {tok}, "role": {"admin"}, "password": {""}}), http.StatusSeeOther)
	res = staff.get("/admin/checkin")
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/admin/login?ended=changed" {
		t.Errorf("a session of a changed account: Location %q, want /admin/login?ended=changed", loc)
	}
	if !strings.Contains(staff.get("/admin/login?ended=changed").doc(t).Find(".notice").Text(), "changed") {
		t.Error("the sign-in page does not say why the session ended")
	}
	// Signed in again (now an admin) and then a new password: the old
	// password no longer works, and that session ends too.
	res = staff.login(staffEmail, staffPassword)
	if loc := res.Header.Get("Location"); loc != "/admin" {
		t.Fatalf("a promoted account signs in to %q, want /admin", loc)
	}
	wantStatus(t, staff.get("/admin"), http.StatusOK)
	wantStatus(t, admin.post(page, url.Values{"_csrf": {tok}, "role": {"admin"}, "password": {"a brand new one"}}), http.StatusSeeOther)
	wantStatus(t, staff.get("/admin"), http.StatusSeeOther)
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusUnauthorized)
	wantStatus(t, staff.login(staffEmail, "a brand new one"), http.StatusSeeOther)
	// The admin changing nothing ends no session.
	wantStatus(t, admin.post(page, url.Values{"_csrf": {tok}, "role": {"admin"}}), http.StatusSeeOther)
	wantStatus(t, staff.get("/admin"), http.StatusOK)

	// Deleting: not oneself; another account, yes, and its session ends.
	me, _ := a.store.AdminByEmail(ctx, adminEmail)
	res = admin.post("/admin/accounts/"+me.ID+"/delete", url.Values{"_csrf": {tok}})
	wantStatus(t, res, http.StatusConflict)
	wantStatus(t, admin.post(page+"/delete", url.Values{"_csrf": {tok}}), http.StatusSeeOther)
	if _, err := a.store.AdminByID(ctx, staffAcct.ID); err == nil {
		t.Error("the deleted account is still there")
	}
	wantStatus(t, staff.get("/admin"), http.StatusSeeOther)
	wantStatus(t, admin.get(page), http.StatusNotFound)
}

// TestOwnAccount: an admin changing their own password stays signed in
// here and is signed out elsewhere; the last admin cannot stop being one;
// demoting oneself (with another admin left) leads to the door.
func TestOwnAccount(t *testing.T) {
	a := newAdminApp(t)
	here, elsewhere := a.client(), a.client()
	here.mustLogin()
	elsewhere.mustLogin()
	tok := here.adminCSRF()
	me, _ := a.store.AdminByEmail(context.Background(), adminEmail)
	page := "/admin/accounts/" + me.ID

	res := here.post(page, url.Values{"_csrf": {tok}, "role": {"staff"}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.doc(t).Find(".notice").Text(), "must stay an admin") {
		t.Errorf("demoting the last admin: notice %q", res.doc(t).Find(".notice").Text())
	}
	wantStatus(t, here.post(page, url.Values{"_csrf": {tok}, "role": {"admin"}, "password": {"my own new password"}}), http.StatusSeeOther)
	wantStatus(t, here.get("/admin"), http.StatusOK)
	wantStatus(t, elsewhere.get("/admin"), http.StatusSeeOther)

	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), "second@example.com", "second admin pw", booking.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	res = here.post(page, url.Values{"_csrf": {here.adminCSRF()}, "role": {"staff"}})
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/admin/checkin" {
		t.Errorf("demoting oneself: Location %q, want /admin/checkin", loc)
	}
	wantStatus(t, here.get("/admin/checkin"), http.StatusOK)
	wantStatus(t, here.get("/admin"), http.StatusForbidden)
}

// TestAdminIdle: a session with no request for ADMIN_IDLE is signed out;
// requests keep it alive, though the session is written at most once a
// minute for that.
func TestAdminIdle(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	for range 3 {
		a.clock.Advance(20 * time.Minute)
		wantStatus(t, admin.get("/admin"), http.StatusOK)
	}
	// Requests within a minute do not write the session.
	before := a.sessionRow(t, admin.sessionToken())
	a.clock.Advance(30 * time.Second)
	wantStatus(t, admin.get("/admin"), http.StatusOK)
	if after := a.sessionRow(t, admin.sessionToken()); after != before {
		t.Error("a request within a minute of the last rewrote the session")
	}
	a.clock.Advance(30*time.Minute + time.Second)
	res := admin.get("/admin")
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/admin/login?ended=idle" {
		t.Errorf("an idle session: Location %q, want /admin/login?ended=idle", loc)
	}
	if !strings.Contains(admin.get("/admin/login?ended=idle").doc(t).Find(".notice").Text(), "30 minutes without activity") {
		t.Error("the sign-in page does not say the session went idle")
	}
	wantStatus(t, admin.get("/admin"), http.StatusSeeOther)
	admin.mustLogin()
	wantStatus(t, admin.get("/admin"), http.StatusOK)
}

// sessionRow is the stored data of the session with token, in hex.
func (a *app) sessionRow(t *testing.T, token string) string {
	t.Helper()
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var data string
	if err := db.QueryRow(`SELECT hex(data) FROM sessions WHERE token = ?`, token).Scan(&data); err != nil {
		t.Fatalf("session %q: %v", token, err)
	}
	return data
}
