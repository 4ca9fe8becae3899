package web_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
)

// TestListingInHindiAndTamil (SPEC §19): the listing, with shows and for a
// date without any, its notices and its 400, in Hindi and Tamil show no
// English interface text; dates read with the language's month and
// weekday names, prices as in English (₹, Latin digits), and the hooks
// (data-show-id, data-availability, data-opens-at, data-date) do not change.
func TestListingInHindiAndTamil(t *testing.T) {
	p := testPolicy
	p.MaxSeats = 30
	a := newAppWith(t, p)
	a.clock.Set(on(14, 4, 0)) // Saturday 14 March, 09:30 in Kolkata
	addListed(t, a, listing{"plenty", "a", "t", "Chennai", kolkataZone, on(14, 12, 0)})
	addListed(t, a, listing{"few", "a", "t", "Chennai", kolkataZone, on(14, 13, 0)})
	addListed(t, a, listing{"full", "a", "t", "Chennai", kolkataZone, on(14, 14, 0)})
	var seats []string
	for _, row := range []string{"A", "B", "C", "D", "E"} {
		for i := 1; i <= 6; i++ {
			seats = append(seats, row+itoa(i))
		}
	}
	a.bookAt("few", seats[:27]...)
	a.bookAt("full", seats...)
	// A show whose sales open tomorrow at 18:30 in Kolkata.
	show, showSeats := testShow()
	show.ID, show.Movie.ID, show.Movie.Title = "later", "b", "Film b"
	show.Theatre = booking.Theatre{ID: "t", Name: "Theatre t", City: "Chennai", TimeZone: kolkataZone.String()}
	show.StartsAt = time.Date(2026, 3, 14, 20, 0, 0, 0, kolkataZone).UTC()
	show.SalesOpenAt = time.Date(2026, 3, 15, 18, 30, 0, 0, kolkataZone).UTC()
	for i := range showSeats {
		showSeats[i].ShowID = show.ID
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, showSeats); err != nil {
		t.Fatal(err)
	}

	showHooks := hooksOf("[data-show-id]", "data-show-id", "data-availability", "data-opens-at", "href")
	dateHooks := hooksOf("[data-date]", "data-date", "href")
	en := wantInLang(t, "the listing", a.client().get("/?lang=en"), http.StatusOK, i18n.English).Selection
	if enShows := hooks(en, showHooks); len(enShows) != 4 {
		t.Fatalf("the English listing has %d showtimes, want 4: %q", len(enShows), enShows)
	}
	enPrice := text(en.Find(`[data-show-id="plenty"] .time-price`))
	if enPrice != "₹180–₹250" {
		t.Errorf("English price range %q, want ₹180–₹250", enPrice)
	}

	want := map[i18n.Lang]struct{ today, strip, opens, sold, few, title, weekday string }{
		i18n.Hindi: {"आज, शनि 14 मार्च", "14 मार्च", "बुकिंग रवि 15 मार्च 18:30 IST से शुरू", "सब बिक गईं", "कुछ ही सीटें बचीं",
			"Chennai में अभी चल रही फ़िल्में", "सोम"},
		i18n.Tamil: {"இன்று, சனி 14 மார்.", "14 மார்.", "ஞாயி. 15 மார். 18:30 IST முதல் முன்பதிவு", "விற்றுத் தீர்ந்தது", "சில இருக்கைகளே உள்ளன",
			"Chennai நகரில் இப்போது திரையில்", "திங்."},
	}
	for _, lang := range translatedLangs {
		w := want[lang]
		c := a.inLang(lang)
		d := wantInLang(t, "the listing", c.get("/?city=Chennai"), http.StatusOK, lang).Selection
		wantSameHooks(t, "showtimes' hooks", lang, en, d, showHooks)
		wantSameHooks(t, "the date strip's hooks", lang, en, d, dateHooks)
		if got := text(d.Find("#listing-date")); got != w.today {
			t.Errorf("%s: the date shown reads %q, want %q", lang, got, w.today)
		}
		if got := text(d.Find(`nav.date-strip a[data-date="2026-03-14"] .date-short`)); got != w.strip {
			t.Errorf("%s: the strip's 14 March reads %q, want %q", lang, got, w.strip)
		}
		if got := text(d.Find(`nav.date-strip a[data-date="2026-03-16"] .date-day`)); got != w.weekday {
			t.Errorf("%s: the strip's Monday reads %q, want %q", lang, got, w.weekday)
		}
		if got := text(d.Find(`[data-show-id="later"] .time-left`)); got != w.opens {
			t.Errorf("%s: a showtime not on sale yet reads %q, want %q", lang, got, w.opens)
		}
		if got := text(d.Find(`[data-show-id="full"] .time-left`)); got != w.sold {
			t.Errorf("%s: sold out reads %q, want %q", lang, got, w.sold)
		}
		if got := text(d.Find(`[data-show-id="few"] .time-left`)); got != w.few {
			t.Errorf("%s: few left reads %q, want %q", lang, got, w.few)
		}
		if got := text(d.Find("h1")); got != w.title {
			t.Errorf("%s: the heading reads %q, want %q", lang, got, w.title)
		}
		if got := text(d.Find(`[data-show-id="plenty"] .time-price`)); got != enPrice {
			t.Errorf("%s: price range %q, want %q as in English", lang, got, enPrice)
		}

		// A date of the strip without shows.
		day := wantInLang(t, "the listing of a day without shows", c.get("/?date=2026-03-16"), http.StatusOK, lang)
		if got := text(day.Find(".listing .empty")); got != i18n.For(lang).T("home.nothing_on_date") {
			t.Errorf("%s: a day without shows says %q", lang, got)
		}

		// A date out of the strip without shows, and a city without any:
		// the notices, with the date's month in the language.
		notice := text(wantInLang(t, "the listing's notices", c.get("/?date=2026-01-01&city=Atlantis"), http.StatusOK, lang).Find(".notice"))
		if lang == i18n.Hindi && !strings.Contains(notice, "Atlantis में अभी कोई शो नहीं है") {
			t.Errorf("hi: a city without shows: notice %q", notice)
		}
		notice = text(c.get("/?date=2026-01-01&city=Chennai").doc(t).Find(".notice"))
		month := map[i18n.Lang]string{i18n.Hindi: "गुरु 1 जन॰ 2026", i18n.Tamil: "வியா. 1 ஜன. 2026"}[lang]
		if !strings.Contains(notice, month) || strings.Contains(notice, "Jan") {
			t.Errorf("%s: the notice for 1 January reads %q, want the date as %q", lang, notice, month)
		}

		// A ?date= that is not a date: a 400 in the language.
		res := c.get("/?date=tomorrow")
		wantInLang(t, "the listing's 400", res, http.StatusBadRequest, lang)
		if !strings.Contains(res.body, i18n.For(lang).F("home.bad_date", "Value", "tomorrow")) {
			t.Errorf("%s: the 400 does not say, in the language, how to write a date:\n%s", lang, res.body)
		}
	}

	// Nothing scheduled at all.
	empty := startApp(t, filepath.Join(t.TempDir(), "empty.sqlite"), booking.NewManualClock(testStart))
	for _, lang := range translatedLangs {
		d := wantInLang(t, "the empty listing", empty.inLang(lang).get("/"), http.StatusOK, lang)
		if got := text(d.Find(".listing .empty")); got != i18n.For(lang).T("home.nothing_scheduled") {
			t.Errorf("%s: an empty listing says %q", lang, got)
		}
	}
}

// TestFindBookingInHindiAndTamil: Find my booking's form and its answer in
// Hindi and Tamil.
func TestFindBookingInHindiAndTamil(t *testing.T) {
	a := newApp(t)
	for _, lang := range translatedLangs {
		c := a.inLang(lang)
		res := c.get("/bookings/find")
		wantStatus(t, res, http.StatusOK)
		i18ntest.Check(t, "find my booking", res.body, lang)
		d := res.doc(t)
		if got := text(d.Find(`label[for="find-code"]`)); got != i18n.For(lang).T("find.code") {
			t.Errorf("%s: the code's label reads %q", lang, got)
		}
		tok := d.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
		res = c.post("/bookings/find", url.Values{"_csrf": {tok}, "email": {testEmail}, "code": {"ZZZZ-ZZZZ"}})
		wantStatus(t, res, http.StatusOK)
		i18ntest.Check(t, "find my booking's answer", res.body, lang)
		if got := text(res.doc(t).Find("[data-find-sent]")); got != i18n.For(lang).T("find.sent") {
			t.Errorf("%s: the answer reads %q", lang, got)
		}
	}
}

// TestQueueInHindiAndTamil: the waiting room in each state it shows a
// visitor (before, open, waiting without and with a place, paused,
// admitted, open again after a passed turn, closed), its live fragment and
// a refused join, in Hindi and Tamil; data-queue-state, data-position,
// data-ahead, data-eta-seconds and data-opens-at are those of English.
func TestQueueInHindiAndTamil(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	id := admin.createOnSale(onSaleForm(1, "2m", testShowID))
	queueHooks := hooksOf("[data-queue-state]", "data-queue-state", "data-position", "data-ahead", "data-eta-seconds", "data-opens-at", "data-onsale-id")

	// page reads the visitor's queue page in lang and in English (the
	// cookie switched for one request each), checks the translation and
	// the hooks, and returns the page in lang.
	page := func(v *client, lang i18n.Lang, state string) *goquery.Selection {
		t.Helper()
		v.setCookie("lang", "en")
		en := v.get("/queue/" + id)
		v.setCookie("lang", string(lang))
		res := v.get("/queue/" + id)
		d := wantInLang(t, "the queue page ("+state+")", res, en.StatusCode, lang).Selection
		wantSameHooks(t, "the queue's hooks ("+state+")", lang, en.doc(t).Selection, d, queueHooks)
		if got := d.Find("[data-queue-state]").AttrOr("data-queue-state", ""); got != state {
			t.Fatalf("%s: queue state %q, want %q", lang, got, state)
		}
		return d
	}

	// Before: the gate and T0 in bold, with the month in the language.
	for _, lang := range translatedLangs {
		d := page(a.inLang(lang), lang, "before")
		month := map[i18n.Lang]string{i18n.Hindi: "मार्च", i18n.Tamil: "மார்."}[lang]
		strong := d.Find(".queue-status strong")
		if strong.Length() != 2 || !strings.Contains(text(strong.Eq(1)), month) || !strings.Contains(text(strong.Eq(1)), "13:00") {
			t.Errorf("%s: before, the times in bold read %q; want two, T0 with %q", lang, text(strong), month)
		}
		v := a.inLang(lang)
		tok := v.tokenFrom("/queue/" + id)
		res := v.post("/queue/"+id+"/join", url.Values{"_csrf": {tok}})
		wantStatus(t, res, http.StatusConflict)
		i18ntest.Check(t, "a join refused before the gate", res.body, lang)
		if !strings.Contains(res.body, i18n.For(lang).T("queue.not_open")) {
			t.Errorf("%s: the refused join does not say the queue is not open", lang)
		}
	}

	a.clock.Set(onSaleT0.Add(-10 * time.Minute))
	visitors := map[i18n.Lang][]*client{}
	for _, lang := range translatedLangs {
		d := page(a.inLang(lang), lang, "open")
		if got := text(d.Find("form button")); got != i18n.For(lang).T("queue.join") {
			t.Errorf("%s: the Join button reads %q", lang, got)
		}
		// The live region asked for again in the open state.
		res := a.inLang(lang).get("/queue/"+id+"/status", "HX-Request", "true")
		i18ntest.Check(t, "the queue's live region (open)", res.body, lang)
		if !strings.Contains(res.body, i18n.For(lang).T("queue.reload_to_join")) {
			t.Errorf("%s: the open live region does not ask to reload", lang)
		}
		for range 3 {
			v := a.inLang(lang)
			v.mustJoin(id)
			visitors[lang] = append(visitors[lang], v)
		}
		page(visitors[lang][0], lang, "waiting")
	}

	// After T0 each has a place: those ahead counted, the wait estimated.
	a.clock.Set(onSaleT0.Add(booking.SettlingMargin))
	first := map[i18n.Lang]*client{}
	for _, lang := range translatedLangs {
		for _, v := range visitors[lang] {
			d := page(v, lang, "waiting")
			live := d.Find("[data-queue-state]")
			p := queuePosition(t, live)
			if p == 0 {
				first[lang] = v
			}
			if got := text(live.Find("strong.queue-ahead")); got != live.AttrOr("data-ahead", "") {
				t.Errorf("%s: the count ahead in bold reads %q, data-ahead %q", lang, got, live.AttrOr("data-ahead", ""))
			}
			if p > 0 && !strings.Contains(text(live), i18n.For(lang).N("queue.ahead", p)) {
				t.Errorf("%s: at %d the page reads %q; want %q", lang, p, text(live), i18n.For(lang).N("queue.ahead", p))
			}
			if p >= 2 {
				wait := i18n.For(lang).F("queue.eta_about", "Wait", i18n.For(lang).N("queue.minutes", p))
				if !strings.Contains(text(live), wait) {
					t.Errorf("%s: at %d the wait reads %q; want %q", lang, p, text(live), wait)
				}
			}
		}
	}
	if first[i18n.Hindi] == nil && first[i18n.Tamil] == nil {
		t.Fatal("nobody is at place 0")
	}

	// Paused.
	admin.mustLogin()
	wantStatus(t, admin.post("/admin/onsales/"+id+"/pause", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	for _, lang := range translatedLangs {
		d := page(visitors[lang][0], lang, "waiting")
		if !strings.Contains(text(d), i18n.For(lang).T("queue.paused")) {
			t.Errorf("%s: paused, the page does not say so: %q", lang, text(d.Find("[data-queue-state]")))
		}
	}
	wantStatus(t, admin.post("/admin/onsales/"+id+"/resume", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)

	// Place 0's turn comes within a minute and a half.
	a.clock.Set(onSaleT0.Add(90 * time.Second))
	for lang, v := range first {
		d := page(v, lang, "admitted")
		link := d.Find(`a[data-show-id="` + testShowID + `"]`)
		if link.Length() != 1 || !strings.Contains(text(link), map[i18n.Lang]string{i18n.Hindi: "मार्च", i18n.Tamil: "மார்."}[lang]) {
			t.Errorf("%s: admitted, the show's link reads %q", lang, text(link))
		}
	}
	// Its turn passed: it may join again.
	a.clock.Set(onSaleT0.Add(10 * time.Minute))
	for lang, v := range first {
		d := page(v, lang, "open")
		if got := text(d.Find("form button")); got != i18n.For(lang).T("queue.join_again") {
			t.Errorf("%s: after a passed turn the button reads %q", lang, got)
		}
	}

	wantStatus(t, admin.post("/admin/onsales/"+id+"/close", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	for _, lang := range translatedLangs {
		page(visitors[lang][1], lang, "closed")
	}
}

// TestErrorPagesInHindiAndTamil: a 404 and a 422, as a page and as an
// htmx fragment, in Hindi and Tamil; data-status unchanged, English as it
// was.
func TestErrorPagesInHindiAndTamil(t *testing.T) {
	a := newApp(t)
	en := a.inLang(i18n.English).get("/no/such/page")
	wantStatus(t, en, http.StatusNotFound)
	if got := text(en.doc(t).Find("h1")); got != "We couldn't find that" {
		t.Errorf("the English 404 reads %q", got)
	}
	for _, lang := range translatedLangs {
		loc := i18n.For(lang)
		c := a.inLang(lang)
		res := c.get("/no/such/page")
		wantStatus(t, res, http.StatusNotFound)
		i18ntest.Check(t, "the 404 page", res.body, lang)
		d := res.doc(t)
		if d.Find(`[data-status="404"]`).Length() != 1 {
			t.Errorf("%s: the 404 page has no data-status=404", lang)
		}
		if got := text(d.Find("h1")); got != loc.T("error.not_found.heading") {
			t.Errorf("%s: the 404 heading reads %q", lang, got)
		}
		if got := text(d.Find(".error-page a.btn")); got != loc.T("error.see_showing") {
			t.Errorf("%s: the 404's link reads %q", lang, got)
		}

		res = c.get("/no/such/page", "HX-Request", "true")
		wantStatus(t, res, http.StatusNotFound)
		i18ntest.Check(t, "the 404 fragment", res.body, lang)

		// The sandbox's checkout without a choice: 422.
		res = c.post("/sandbox/checkout/nosuch", url.Values{"_csrf": {c.csrf()}, "outcome": {"maybe"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		i18ntest.Check(t, "the 422 page", res.body, lang)
		d = res.doc(t)
		if d.Find(`[data-status="422"]`).Length() != 1 {
			t.Errorf("%s: the 422 page has no data-status=422", lang)
		}
		if got := text(d.Find("h1")); got != loc.T("error.invalid.heading") {
			t.Errorf("%s: the 422 heading reads %q", lang, got)
		}
		if !strings.Contains(res.body, loc.T("error.invalid.next")) {
			t.Errorf("%s: the 422 does not say what to do next", lang)
		}
	}
}
