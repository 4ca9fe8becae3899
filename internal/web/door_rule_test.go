package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// doorAnswer is what the door said: data-checkin and data-reason.
type doorAnswer struct{ result, reason string }

func (c *client) lookUp(code string, fields url.Values) doorAnswer {
	c.t.Helper()
	q := url.Values{"code": {code}}
	for k, v := range fields {
		q[k] = v
	}
	res := c.get("/admin/checkin?" + q.Encode())
	wantStatus(c.t, res, http.StatusOK)
	r, why, _ := checkin(c.t.(*testing.T), res)
	return doorAnswer{r, why}
}

func (c *client) admitWith(code string, fields url.Values) doorAnswer {
	c.t.Helper()
	f := url.Values{"_csrf": {c.csrf()}, "code": {code}}
	for k, v := range fields {
		f[k] = v
	}
	res := c.post("/admin/checkin", f)
	wantStatus(c.t, res, http.StatusOK)
	r, why, _ := checkin(c.t.(*testing.T), res)
	return doorAnswer{r, why}
}

// TestDoorLookUpAgreesWithAdmit (SPEC §11): for every reason, a look-up
// answers what an admission with the same fields does, valid where it
// admits; without a show a ticket of a show not at the door now is
// not_today, and confirm=1 admits it.
func TestDoorLookUpAgreesWithAdmit(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	ctx := context.Background()
	now := a.clock.Now()
	soon := a.soonShow(t, "soon", now.Add(90*time.Minute))
	tomorrow := a.soonShow(t, "tomorrow", now.Add(26*time.Hour))
	gone := a.soonShow(t, "gone", now.Add(time.Hour))

	code := func(showID string, seats ...string) string { return a.bookAt(showID, seats...).TicketCode }
	refunded := a.bookAt(soon, "A3")
	// A ticket whose booking was refunded, or never confirmed, while its
	// show runs: no step of the web makes one yet.
	a.exec(`UPDATE bookings SET state = 'refunded' WHERE id = ?`, []any{refunded.ID})
	unpaid := a.bookAt(soon, "A4")
	a.exec(`UPDATE bookings SET state = 'failed' WHERE id = ?`, []any{unpaid.ID})
	cancelled := code(gone, "A1")
	if _, _, err := a.svc.CancelShow(ctx, gone); err != nil {
		t.Fatal(err)
	}

	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)
	admittedBefore := code(soon, "B1")
	if got := door.admitWith(admittedBefore, url.Values{"show": {soon}}); got.result != "admitted" {
		t.Fatalf("admitting %s: %+v", admittedBefore, got)
	}

	none := url.Values{} // never changed: confirmed copies
	at := func(show string) url.Values { return url.Values{"show": {show}} }
	confirmed := func(v url.Values) url.Values {
		c := url.Values{"confirm": {"1"}}
		for k, vs := range v {
			c[k] = vs
		}
		return c
	}
	for _, tc := range []struct {
		name   string
		code   string
		fields url.Values
		want   doorAnswer // what the admission answers
	}{
		{"unknown", "ZZZZ-ZZZZ", none, doorAnswer{"refused", "unknown"}},
		{"not a code", "hello", at(soon), doorAnswer{"refused", "unknown"}},
		{"cancelled", cancelled, at(gone), doorAnswer{"refused", "cancelled"}},
		{"cancelled, any show", cancelled, none, doorAnswer{"refused", "cancelled"}},
		{"refunded", refunded.TicketCode, at(soon), doorAnswer{"refused", "refunded"}},
		{"refunded, at another show", refunded.TicketCode, at(tomorrow), doorAnswer{"refused", "refunded"}},
		{"not confirmed", unpaid.TicketCode, at(soon), doorAnswer{"refused", "not_confirmed"}},
		{"not confirmed, at another show", unpaid.TicketCode, at(tomorrow), doorAnswer{"refused", "not_confirmed"}},
		{"other show", code(tomorrow, "C1"), at(soon), doorAnswer{"refused", "other_show"}},
		{"other show, confirmed", code(tomorrow, "C2"), confirmed(at(soon)), doorAnswer{"refused", "other_show"}},
		{"not today, any show", code(tomorrow, "C3"), none, doorAnswer{"refused", "not_today"}},
		{"not today, show given as empty", code(tomorrow, "C4"), at(""), doorAnswer{"refused", "not_today"}},
		{"not today, confirmed", code(tomorrow, "C5"), confirmed(none), doorAnswer{"admitted", ""}},
		{"tomorrow's show chosen", code(tomorrow, "C6"), at(tomorrow), doorAnswer{"admitted", ""}},
		{"already", admittedBefore, at(soon), doorAnswer{"already", ""}},
		{"already, any show", admittedBefore, none, doorAnswer{"already", ""}},
		{"valid, any show", code(soon, "D2"), none, doorAnswer{"admitted", ""}},
		{"valid, its show", code(soon, "D3"), at(soon), doorAnswer{"admitted", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantLookUp := tc.want
			if wantLookUp.result == "admitted" {
				wantLookUp.result = "valid"
			}
			if got := door.lookUp(tc.code, tc.fields); got != wantLookUp {
				t.Errorf("look-up: %+v, want %+v", got, wantLookUp)
			}
			if got := door.admitWith(tc.code, tc.fields); got != tc.want {
				t.Errorf("admit: %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestDoorNotTodayOffersAdmitAnyway: a ticket refused not_today offers
// "Admit anyway" with confirm=1 and the show it was checked against; a
// valid look-up's Admit posts the same show it was looked up at, so the
// two cannot disagree.
func TestDoorNotTodayOffersAdmitAnyway(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	now := a.clock.Now()
	a.soonShow(t, "soon", now.Add(30*time.Minute))
	tomorrow := a.soonShow(t, "tomorrow", now.Add(26*time.Hour))
	b := a.bookAt(tomorrow, "A1")
	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)

	// The door offers "soon" by default; a look-up without show checks
	// none, and its Admit asks the same.
	d := door.get("/admin/checkin?code=" + url.QueryEscape(b.TicketCode)).doc(t)
	form := d.Find(`[data-checkin] form[action="/admin/checkin"]`)
	if form.Length() != 1 {
		t.Fatalf("a not_today answer offers %d admit forms, want 1", form.Length())
	}
	if v, _ := form.Find(`input[name="confirm"]`).Attr("value"); v != "1" {
		t.Errorf("its form's confirm is %q, want 1", v)
	}
	if v, _ := form.Find(`input[name="show"]`).Attr("value"); v != "" {
		t.Errorf("its form admits to show %q, want any (as looked up)", v)
	}
	if !strings.Contains(form.Text(), "Admit anyway") {
		t.Errorf("its button says %q, want Admit anyway", strings.TrimSpace(form.Text()))
	}

	d = door.get("/admin/checkin?show=" + tomorrow + "&code=" + url.QueryEscape(b.TicketCode)).doc(t)
	form = d.Find(`[data-checkin="valid"] form`)
	if v, _ := form.Find(`input[name="show"]`).Attr("value"); v != tomorrow {
		t.Errorf("a valid look-up at %s offers Admit to %q", tomorrow, v)
	}
	if form.Find(`input[name="confirm"]`).Length() != 0 {
		t.Error("a valid look-up's Admit carries confirm")
	}
	if ids := d.Find(`[data-checkin] [data-seat-id]`); ids.Length() != 1 || ids.AttrOr("data-seat-id", "") != "A1" {
		t.Errorf("the answer lists seats %d, want A1 (data-seat-id)", ids.Length())
	}
	if d.Find(`[data-door-rules]`).Length() != 1 || !strings.Contains(d.Find(`[data-door-rules]`).Text(), "same rule") {
		t.Error("the door page does not explain its rule")
	}
}

// TestDoorLimitsGuesses (SPEC §12): a session's unknown codes are limited
// to 30 a minute, look-ups and admissions alike; the 31st is 429 with
// Retry-After, known codes still answer then, and known codes never count.
func TestDoorLimitsGuesses(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	soon := a.soonShow(t, "soon", a.clock.Now().Add(30*time.Minute))
	known := a.bookAt(soon, "A1")
	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)
	lookUp := func(code string) response {
		return door.get("/admin/checkin?show=" + soon + "&code=" + url.QueryEscape(code))
	}

	// A busy door: 100 known look-ups, then 30 unknown codes, all answered.
	for i := range 100 {
		if res := lookUp(known.TicketCode); res.StatusCode != http.StatusOK {
			t.Fatalf("known look-up %d: status %d", i+1, res.StatusCode)
		}
	}
	for i := range 30 {
		code := fmt.Sprintf("ZZZZ-%04d", i)
		var res response
		if i%2 == 0 {
			res = lookUp(code)
		} else {
			res = door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {code}, "show": {soon}})
		}
		wantStatus(t, res, http.StatusOK)
		if r, why, _ := checkin(t, res); r != "refused" || why != "unknown" {
			t.Fatalf("unknown code %d: %q %q", i+1, r, why)
		}
	}
	for _, res := range []response{
		lookUp("ZZZZ-9999"),
		door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {"hello"}, "show": {soon}}),
	} {
		wantStatus(t, res, http.StatusTooManyRequests)
		if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
			t.Errorf("Retry-After %q, want 1 to 60 seconds", res.Header.Get("Retry-After"))
		}
		if res.doc(t).Find(`[data-field-error="code"]`).Length() == 0 {
			t.Errorf("the 429 does not say why on the door page:\n%s", res.body)
		}
	}
	// Known codes still answer, and are admitted.
	if r, _, _ := checkin(t, lookUp(known.TicketCode)); r != "valid" {
		t.Errorf("a known look-up after the limit: %q, want valid", r)
	}
	if r, _, _ := checkin(t, door.admit(known.TicketCode, soon)); r != "admitted" {
		t.Errorf("a known admission after the limit: %q, want admitted", r)
	}
	// Another session has its own budget; a minute later this one has too.
	other := a.client()
	wantStatus(t, other.login(staffEmail, staffPassword), http.StatusSeeOther)
	wantStatus(t, other.get("/admin/checkin?code=ZZZZ-0000"), http.StatusOK)
	a.clock.Advance(time.Minute)
	wantStatus(t, lookUp("ZZZZ-0000"), http.StatusOK)
}

// TestDoorNotTodaySaysTheDay (issue 29, item 7): a ticket for tomorrow's
// show is never answered "Admitted" without confirmation; the refusal says
// in words what day the ticket is for, and offers "Admit anyway", a submit
// button of a form that posts confirm=1; once confirmed the answer says it
// was admitted for another day. A show chosen that is not at the door now
// is named as such next to the chooser.
func TestDoorNotTodaySaysTheDay(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	now := a.clock.Now()
	a.soonShow(t, "soon", now.Add(30*time.Minute))
	tomorrow := a.soonShow(t, "tomorrow", now.Add(26*time.Hour))
	b := a.bookAt(tomorrow, "A1")
	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)
	day := now.Add(26 * time.Hour).In(time.Local).Format("Monday 2 January")

	for _, res := range []response{
		door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {b.TicketCode}, "show": {""}}),
		door.get("/admin/checkin?show=&code=" + url.QueryEscape(b.TicketCode)),
	} {
		wantStatus(t, res, http.StatusOK)
		d := res.doc(t)
		ans := d.Find("[data-checkin]")
		if r, _ := ans.Attr("data-checkin"); r != "refused" {
			t.Fatalf("a ticket for tomorrow answered %q without confirmation", r)
		}
		text := strings.Join(strings.Fields(ans.Text()), " ")
		if strings.Contains(text, "Admitted") {
			t.Errorf("the refusal reads %q, which says Admitted", text)
		}
		if !strings.Contains(text, "tomorrow") || !strings.Contains(text, day) {
			t.Errorf("the refusal reads %q, want it to say the ticket is for tomorrow, %s", text, day)
		}
		btn := ans.Find(`form[method="post"][action="/admin/checkin"] button[type="submit"][data-door-confirm]`)
		if btn.Length() != 1 || strings.TrimSpace(btn.Text()) != "Admit anyway" {
			t.Fatalf("the refusal offers %d Admit anyway buttons (%q)", btn.Length(), btn.Text())
		}
		if v, _ := btn.Closest("form").Find(`input[name="confirm"]`).Attr("value"); v != "1" {
			t.Errorf("Admit anyway posts confirm=%q, want 1", v)
		}
	}

	res := door.post("/admin/checkin", url.Values{"_csrf": {door.csrf()}, "code": {b.TicketCode}, "show": {""}, "confirm": {"1"}})
	ans := res.doc(t).Find("[data-checkin]")
	if r, _ := ans.Attr("data-checkin"); r != "admitted" {
		t.Fatalf("confirmed: %q, want admitted", r)
	}
	if text := strings.Join(strings.Fields(ans.Text()), " "); !strings.Contains(text, "tomorrow") || !strings.Contains(text, "confirmed") {
		t.Errorf("the confirmed admission reads %q, want it to say it was for tomorrow, confirmed", text)
	}

	// Chosen by address although not at the door now: the page says so.
	d := door.get("/admin/checkin?show=" + tomorrow).doc(t)
	note := strings.Join(strings.Fields(d.Find("[data-door-show-note]").Text()), " ")
	if !strings.Contains(note, "not at the door now") || !strings.Contains(note, day) {
		t.Errorf("a chosen show of tomorrow is noted %q, want it named not at the door now, %s", note, day)
	}
	if n := door.get("/admin/checkin").doc(t).Find("[data-door-show-note]").Length(); n != 0 {
		t.Errorf("the show at the door now carries %d notes, want none", n)
	}
}
