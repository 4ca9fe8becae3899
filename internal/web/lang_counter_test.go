package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// The admin sign-in, the door and the box office speak Hindi and Tamil
// (SPEC §19); the other admin pages stay English. Each page below is
// rendered in both languages and checked for English interface text
// (i18ntest.Check), for a few of its translated texts, for <html lang>,
// and for SPEC §20's hooks, which never change with the language.

var counterLangs = []i18n.Lang{i18n.Hindi, i18n.Tamil}

// literal is the longest part of message id in lang between its
// arguments: what a page saying it with any arguments contains.
func literal(lang i18n.Lang, id string) string {
	text, _ := i18n.MustLoad().Text(lang, id)
	longest := ""
	for _, part := range regexp.MustCompile(`\{\{[^}]*\}\}`).Split(text, -1) {
		if part = strings.TrimSpace(part); len(part) > len(longest) {
			longest = part
		}
	}
	return longest
}

// TestLoginLanguages: the admin sign-in, its refusal and its notices in
// Hindi and Tamil.
func TestLoginLanguages(t *testing.T) {
	for _, lang := range counterLangs {
		t.Run(string(lang), func(t *testing.T) {
			loc := i18n.For(lang)
			a := newAdminApp(t)
			c := a.client()
			wantInLang(t, "sign-in", c.get("/admin/login?lang="+string(lang)), http.StatusOK, lang,
				loc.T("login.lede"), loc.T("login.password"))
			wantInLang(t, "sign-in, wrong password", c.login(adminEmail, "not the password"), http.StatusUnauthorized, lang,
				loc.T("login.bad_credentials"))
			wantInLang(t, "sign-in after idle", c.get("/admin/login?ended=idle"), http.StatusOK, lang,
				loc.F("login.ended_idle", "Wait", loc.N("login.minutes", 30)))
			wantInLang(t, "sign-in after a change", c.get("/admin/login?ended=changed"), http.StatusOK, lang,
				loc.T("login.ended_changed"))
			var res response
			for range 6 { // the sixth failure in a row from one address waits
				res = c.login(adminEmail, "not the password")
			}
			wantInLang(t, "sign-in, too many attempts", res, http.StatusTooManyRequests, lang, literal(lang, "login.too_many"))
		})
	}
}

// TestDoorLanguages: the door and each of its answers (valid, admitted
// with a door check, already, and refused for each reason the page can
// show here) in Hindi and Tamil, with SPEC §11's and §20's hooks.
func TestDoorLanguages(t *testing.T) {
	for _, lang := range counterLangs {
		t.Run(string(lang), func(t *testing.T) {
			loc := i18n.For(lang)
			a := newCounterApp(t)
			later := a.soonShow(t, "later", testShowStart.Add(3*24*time.Hour))
			b := a.bookTypedAt(typedShowID, booking.TypeChoice{"A1": "senior", "A2": "adult"}, "A1", "A2")
			other := a.bookAt(later, "B1")
			a.clock.Set(testShowStart.Add(-30 * time.Minute)) // online sales have closed: booked before
			door := a.staffClient(staffEmail, staffPassword)

			d := wantInLang(t, "door", door.get("/admin/checkin?lang="+string(lang)), http.StatusOK, lang,
				loc.T("door.rules.title"), loc.T("door.rules.outro"), loc.T("door.headline.not_today"),
				loc.T("adminbar.door"), loc.T("adminbar.sign_out"), loc.F("door.count", "Booked", 2))
			if v := d.Find(`select[name="show"] option[selected]`).AttrOr("value", ""); v != typedShowID {
				t.Errorf("the door admits to %q, want %s", v, typedShowID)
			}
			seats := func(d *goquery.Document) string {
				var ids []string
				d.Find("[data-checkin] [data-seat-id]").Each(func(_ int, s *goquery.Selection) {
					ids = append(ids, s.AttrOr("data-seat-id", ""))
				})
				return strings.Join(ids, ",")
			}
			answer := func(name string, res response, texts ...string) *goquery.Document {
				t.Helper()
				return wantInLang(t, name, res, http.StatusOK, lang, texts...)
			}
			admit := func(code string, f url.Values) response {
				t.Helper()
				f.Set("_csrf", door.csrf())
				f.Set("code", code)
				return door.post("/admin/checkin", f)
			}
			check := loc.F("door.check", "Types", "1 × Senior (ID needed)")

			res := door.get("/admin/checkin?show=" + typedShowID + "&code=" + url.QueryEscape(b.TicketCode))
			if r, _, _ := checkin(t, res); r != "valid" {
				t.Fatalf("look-up: %q, want valid", r)
			}
			d = answer("valid look-up", res, loc.T("door.headline.valid"), loc.T("door.admit_this"), check, loc.N("door.seats", 2))
			if d.Find(`[data-checkin][data-door-check="true"]`).Length() != 1 || seats(d) != "A1,A2" {
				t.Errorf("the valid look-up: data-door-check %q, seats %q; want true, A1,A2",
					d.Find("[data-checkin]").AttrOr("data-door-check", ""), seats(d))
			}

			res = admit(b.TicketCode, url.Values{"show": {typedShowID}})
			if r, why, _ := checkin(t, res); r != "admitted" {
				t.Fatalf("admit: %q (%s), want admitted", r, why)
			}
			d = answer("admitted", res, loc.T("door.headline.admitted"), check)
			if d.Find(`[data-checkin][data-door-check="true"]`).Length() != 1 || seats(d) != "A1,A2" {
				t.Errorf("the admission: data-door-check %q, seats %q; want true, A1,A2",
					d.Find("[data-checkin]").AttrOr("data-door-check", ""), seats(d))
			}
			if n := d.Find(`[data-count="admitted"]`).Text(); n != "2" {
				t.Errorf("admitted count %q after the admission, want 2", n)
			}

			admittedAt := testShowStart.Add(-30 * time.Minute)
			a.clock.Advance(time.Minute)
			res = admit(b.TicketCode, url.Values{"show": {typedShowID}})
			r, _, at := checkin(t, res)
			if r != "already" || at == "" {
				t.Fatalf("second scan: %q at %q, want already with its time", r, at)
			}
			if when, err := time.Parse(time.RFC3339, at); err != nil || !when.Equal(admittedAt.Truncate(time.Millisecond)) {
				t.Errorf("data-admitted-at %q, want %s in RFC 3339 whatever the language", at, admittedAt.Format(time.RFC3339))
			}
			answer("already", res, loc.T("door.headline.already"),
				loc.F("door.detail.already", "At", loc.Date(admittedAt, "15:04 MST, Mon 2 Jan"), "By", staffEmail))

			res = admit("ZZZZ-ZZZZ", url.Values{"show": {typedShowID}})
			if r, why, _ := checkin(t, res); r != "refused" || why != "unknown" {
				t.Errorf("unknown code: %q (%s)", r, why)
			}
			answer("unknown", res, loc.T("door.headline.unknown"), loc.T("door.detail.unknown"))

			res = admit(other.TicketCode, url.Values{"show": {typedShowID}})
			if r, why, _ := checkin(t, res); r != "refused" || why != "other_show" {
				t.Errorf("another show's ticket: %q (%s)", r, why)
			}
			answer("other show", res, loc.T("door.headline.other_show"), loc.T("door.detail.other_show"))

			res = admit(other.TicketCode, url.Values{"show": {""}})
			if r, why, _ := checkin(t, res); r != "refused" || why != "not_today" {
				t.Errorf("a ticket for later, any show: %q (%s)", r, why)
			}
			start := testShowStart.Add(3 * 24 * time.Hour)
			days := loc.N("door.day.ahead", 3, "Date", loc.Date(start, "Monday 2 January"), "At", start.Format("15:04"))
			d = answer("not today", res, loc.T("door.headline.not_today"), loc.F("door.detail.not_today", "When", days),
				loc.T("door.detail.not_today_confirm"), loc.T("door.admit_anyway"))
			if d.Find(`[data-door-confirm]`).Length() != 1 || d.Find(`input[name="confirm"][value="1"]`).Length() != 1 {
				t.Error("the not_today refusal offers no Admit anyway with confirm=1")
			}

			res = admit(other.TicketCode, url.Values{"show": {""}, "confirm": {"1"}})
			if r, why, _ := checkin(t, res); r != "admitted" {
				t.Errorf("confirmed: %q (%s), want admitted", r, why)
			}
			answer("admitted, confirmed", res, loc.F("door.detail.admitted_confirmed", "When", days))

			res = admit("", url.Values{"show": {typedShowID}})
			wantInLang(t, "no code", res, http.StatusUnprocessableEntity, lang, loc.T("door.code_missing"))

			// More than 30 unknown codes in a minute: 429, in the language.
			for i := 0; i < 40 && res.StatusCode != http.StatusTooManyRequests; i++ {
				res = admit("ZZZZ-ZZZ"+itoa(i%10), url.Values{"show": {typedShowID}})
			}
			wantInLang(t, "too many unknown codes", res, http.StatusTooManyRequests, lang, literal(lang, "door.too_many"))
		})
	}
}

// TestCounterLanguages: the box office's pages (the show choice, a
// search, the hold, the sale's answer, its refund and the cash-up) in
// Hindi and Tamil, with SPEC §20's hooks; the cash-up's CSV stays
// English, and the other admin pages stay English (<html lang="en">).
func TestCounterLanguages(t *testing.T) {
	for _, lang := range counterLangs {
		t.Run(string(lang), func(t *testing.T) {
			loc := i18n.For(lang)
			a := newCounterApp(t)
			a.clock.Set(testShowStart.Add(-2 * time.Hour))
			staff := a.staffClient(staffEmail, staffPassword)

			d := wantInLang(t, "box office", staff.get("/admin/boxoffice?lang="+string(lang)), http.StatusOK, lang,
				loc.T("counter.title"), loc.T("counter.find"), loc.T("counter.hold"),
				loc.F("counter.tick_hint", "Max", 4), loc.T("adminbar.boxoffice"), loc.T("adminbar.signed_in_as"))
			if v := d.Find(`select[name="show"] option[selected]`).AttrOr("value", ""); v != typedShowID {
				t.Errorf("the counter's show is %q, want %s", v, typedShowID)
			}
			if day := loc.Date(testShowStart, "Mon 2 Jan"); !strings.Contains(d.Find(`select[name="show"] option[selected]`).Text(), day) {
				t.Errorf("the show choice reads %q, want its day %q", d.Find(`select[name="show"] option[selected]`).Text(), day)
			}
			if d.Find(`.counter-map[data-show-id="`+typedShowID+`"]`).Length() != 1 {
				t.Error("the counter's map has no data-show-id")
			}
			wantInLang(t, "box office, nothing found", staff.get("/admin/boxoffice?find=nobody%40example.com"), http.StatusOK, lang,
				loc.T("counter.found.title"), loc.T("counter.found.none"))

			wantInLang(t, "box office, bad search", staff.get("/admin/boxoffice?find=nobody%40"), http.StatusUnprocessableEntity, lang,
				loc.F("counter.err.find_not_email", "Query", `"nobody@"`))
			wantInLang(t, "box office, empty search", staff.get("/admin/boxoffice?find=+"), http.StatusUnprocessableEntity, lang,
				loc.T("counter.err.find_empty"))

			holdPath := staff.mustCounterHold("A1", "A2")
			d = wantInLang(t, "counter hold", staff.get(holdPath), http.StatusOK, lang,
				loc.F("counter.sell.heading", "Title", "Monsoon Express"), loc.T("counter.sell.payment"), loc.T("counter.sell.comp"),
				loc.T("counter.sell.update"), loc.T("counter.sell.back_to_map"))
			if v := d.Find("[data-hold-id]").AttrOr("data-amount", ""); v != "36000" {
				t.Errorf("the hold's data-amount %q, want 36000 (two adults) in minor units", v)
			}
			form := url.Values{"_csrf": {staff.counterCSRF()}, "method": {"cash"}, "tendered": {"1000"},
				"type_A1": {"senior"}, "type_A2": {"adult"}}
			d = wantInLang(t, "counter hold, total", staff.post(holdPath+"/total", form), http.StatusOK, lang,
				loc.T("counter.sell.change"), loc.Money(100000-30600, "INR"))
			if v := d.Find("[data-hold-id]").AttrOr("data-amount", ""); v != "30600" {
				t.Errorf("the hold's data-amount %q after the types, want 30600", v)
			}

			comp := url.Values{"method": {"comp"}, "type_A1": {"senior"}, "type_A2": {"adult"}}
			d = wantInLang(t, "sale refused", staff.sell(holdPath, comp), http.StatusUnprocessableEntity, lang,
				loc.T("counter.err.reason_required"))
			if d.Find(`[data-rule="reason"]`).Length() != 1 {
				t.Error("a comp without a reason is not marked data-rule=reason")
			}

			delete(form, "_csrf")
			page := staff.mustSell(holdPath, form)
			d = wantInLang(t, "sale", staff.get(page), http.StatusOK, lang,
				loc.F("counter.sale.sold", "Total", loc.Money(30600, "INR")), loc.T("counter.sale.ticket_code"),
				loc.T("counter.print"), loc.T("counter.sale.next"), loc.F("counter.sale.sold_by", "By", staffEmail),
				loc.T("counter.method.cash"), loc.Money(100000-30600, "INR"))
			sale := d.Find("[data-booking-id]")
			// The sale remembers the counter page's language: its mails
			// go out in it (SPEC §19).
			if sold, err := a.store.Booking(context.Background(), sale.AttrOr("data-booking-id", "")); err != nil || sold.Lang != string(lang) {
				t.Errorf("the counter sale's booking has lang %q (%v); want %s, the counter page's", sold.Lang, err, lang)
			}
			for k, want := range map[string]string{"data-state": "confirmed", "data-channel": "box_office", "data-method": "cash", "data-amount": "30600"} {
				if v := sale.AttrOr(k, ""); v != want {
					t.Errorf("the sale's %s = %q, want %q", k, v, want)
				}
			}
			for _, seat := range []struct{ id, typ, price string }{{"A1", "senior", "12600"}, {"A2", "adult", "18000"}} {
				s := d.Find(`[data-seat-id="` + seat.id + `"][data-ticket-type]`)
				if s.AttrOr("data-ticket-type", "") != seat.typ || s.AttrOr("data-price", "") != seat.price {
					t.Errorf("seat %s: data-ticket-type %q data-price %q, want %s %s", seat.id,
						s.AttrOr("data-ticket-type", ""), s.AttrOr("data-price", ""), seat.typ, seat.price)
				}
			}
			code := strings.TrimSpace(d.Find("[data-ticket-code]").First().Text())
			if l := d.Find(".counter-qr [aria-label]").AttrOr("aria-label", ""); l != loc.F("counter.sale.qr", "Code", code) {
				t.Errorf("the QR code's name %q, want %q", l, loc.F("counter.sale.qr", "Code", code))
			}

			d = wantInLang(t, "box office, found", staff.get("/admin/boxoffice?find="+url.QueryEscape(code)), http.StatusOK, lang,
				loc.T("counter.state.confirmed"), loc.T("counter.channel.box_office"), loc.T("counter.found.open"))
			if d.Find(`[data-found-booking][data-state="confirmed"][data-channel="box_office"]`).Length() != 1 {
				t.Error("the search lists no confirmed box-office booking with its hooks")
			}

			d = wantInLang(t, "box office, seat taken", staff.counterHold("A1"), http.StatusConflict, lang,
				loc.N("counter.err.taken", 1, "Seats", "A1"))
			if d.Find(`[data-seat-id="A1"][data-conflict]`).Length() == 0 {
				t.Error("the counter's map does not mark the taken seat A1 data-conflict")
			}

			salePath := "/admin/boxoffice/bookings/" + bookingIDOf(page)
			res := staff.post(salePath+"/refund", url.Values{"_csrf": {staff.counterCSRF()}, "method": {"cash"}})
			wantStatus(t, res, http.StatusSeeOther)
			d = wantInLang(t, "refunded sale", staff.get(salePath), http.StatusOK, lang,
				loc.F("counter.sale.refunded", "Total", loc.Money(30600, "INR")), loc.T("counter.sale.refunded_label"),
				loc.F("counter.sale.refunded_by", "By", staffEmail))
			if v := d.Find("[data-booking-id]").AttrOr("data-state", ""); v != "refunded" {
				t.Errorf("after the refund data-state %q, want refunded", v)
			}
			wantInLang(t, "refund refused", staff.post(salePath+"/refund", url.Values{"_csrf": {staff.counterCSRF()}, "method": {"cash"}}),
				http.StatusConflict, lang, loc.T("counter.err.already_refunded"))

			day := testShowStart.Add(-2 * time.Hour).Format(time.DateOnly)
			d = wantInLang(t, "cash-up", staff.get("/admin/boxoffice/cashup?date="+day), http.StatusOK, lang,
				loc.T("counter.cashup.title"), loc.T("counter.cashup.net"), loc.T("counter.cashup.csv"),
				loc.Date(testShowStart.Add(-2*time.Hour), "Monday 2 January 2006"))
			row := d.Find(`[data-staff="` + staffEmail + `"]`)
			for col, want := range map[string]string{"sales": "1", "seats": "2", "cash": "30600", "cash_refunds": "30600", "net": "0"} {
				if v := row.Find(`[data-col="`+col+`"]`).AttrOr("data-value", ""); v != want {
					t.Errorf("cash-up %s: data-value %q, want %s", col, v, want)
				}
			}
			if cash := strings.TrimSpace(row.Find(`[data-col="cash"]`).Text()); cash != loc.Money(30600, "INR") {
				t.Errorf("the cash-up's cash reads %q, want %q", cash, loc.Money(30600, "INR"))
			}
			csv := staff.get("/admin/boxoffice/cashup?date=" + day + "&format=csv")
			wantStatus(t, csv, http.StatusOK)
			if !strings.HasPrefix(csv.body, "date,theatre,staff,currency,sales,seats,cash,card,comp,cash_refunds,card_refunds,net\n") {
				t.Errorf("the cash-up's CSV starts %q; want its English header", strings.SplitN(csv.body, "\n", 2)[0])
			}

			// The other admin pages stay English, the admin bar too.
			admin := a.client()
			admin.mustLogin()
			admin.get("/admin/boxoffice?lang=" + string(lang))
			en := admin.get("/admin")
			wantStatus(t, en, http.StatusOK)
			ed := en.doc(t)
			if got := ed.Find("html").AttrOr("lang", ""); got != "en" {
				t.Errorf("/admin with the lang cookie %s: <html lang=%q>, want en", lang, got)
			}
			if bar := ed.Find("nav.admin-bar").Text(); !strings.Contains(bar, "All shows") || !strings.Contains(bar, "Signed in as") {
				t.Errorf("/admin's admin bar is not English: %q", strings.Join(strings.Fields(bar), " "))
			}
			if d := wantInLang(t, "box office (admin)", admin.get("/admin/boxoffice"), http.StatusOK, lang, loc.T("adminbar.all_shows")); d.Find("nav.admin-bar").AttrOr("aria-label", "") != loc.T("adminbar.label") {
				t.Errorf("the counter's admin bar is not named in %s", lang)
			}
		})
	}
}
