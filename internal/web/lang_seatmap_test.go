package web_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
)

// seatHooks are the data-* hooks of every seat of a map, by seat id: the
// same in every language (SPEC §19, §20).
func seatHooks(d *goquery.Document) map[string]string {
	out := map[string]string{}
	d.Find(".seat[data-seat-id], .seatlist-seat[data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		var b strings.Builder
		for _, a := range []string{"data-state", "data-kind", "data-price", "data-expires-at", "data-conflict", "data-suggested"} {
			b.WriteString(a + "=" + s.AttrOr(a, "") + " ")
		}
		out[s.AttrOr("data-seat-id", "")] = b.String()
	})
	return out
}

// TestSeatMapInHindiAndTamil (SPEC §19): the seat map page, its list
// view, its best-available suggestion and its fragment show no English
// interface text in Hindi or Tamil; a seat's accessible name is the
// language's; the seats' data-* hooks are the same as in English.
func TestSeatMapInHindiAndTamil(t *testing.T) {
	a := newApp(t)
	a.client().mustHold("A2") // held by someone else: data-expires-at and "may free at"
	a.book("E5", "E6")

	pages := map[string]string{
		"seat map page":  "/shows/" + testShowID,
		"seat list page": "/shows/" + testShowID + "?view=list",
		"best available": "/shows/" + testShowID + "?best=2",
		"fragment":       "/shows/" + testShowID + "/seats",
	}
	en := a.client()
	enHooks := map[string]map[string]string{}
	for name, path := range pages {
		res := en.get(path, "Accept-Language", "en")
		wantStatus(t, res, http.StatusOK)
		enHooks[name] = seatHooks(res.doc(t))
		if len(enHooks[name]) == 0 {
			t.Fatalf("%s: no seats", name)
		}
	}
	for _, lang := range []i18n.Lang{i18n.Hindi, i18n.Tamil} {
		c := a.client()
		wantStatus(t, c.get("/shows/"+testShowID+"?lang="+string(lang)), http.StatusOK) // sets the lang cookie
		for name, path := range pages {
			res := c.get(path)
			wantStatus(t, res, http.StatusOK)
			i18ntest.Check(t, name, res.body, lang)
			if got := seatHooks(res.doc(t)); !maps.Equal(got, enHooks[name]) {
				t.Errorf("%s in %s: the seats' data-* differ from English:\n got %v\nwant %v", name, lang, got, enHooks[name])
			}
		}
		page := c.get("/shows/" + testShowID).doc(t)
		for _, attr := range []string{"data-max-seats", "data-currency", "data-on-sale"} {
			want := en.get("/shows/"+testShowID, "Accept-Language", "en").doc(t).Find("#hold-form").AttrOr(attr, "?")
			if got := page.Find("#hold-form").AttrOr(attr, "!"); got != want {
				t.Errorf("%s: #hold-form %s=%q; English has %q", lang, attr, got, want)
			}
		}
	}

	// A seat's accessible name in Hindi, available and held.
	d := a.client().get("/shows/" + testShowID + "?lang=hi").doc(t)
	label := func(id string) string {
		return d.Find(`.seat[data-seat-id="`+id+`"] input`).AttrOr("aria-label", "")
	}
	if got, want := label("D1"), "पंक्ति D, सीट 1, व्हीलचेयर की जगह, Prime, ₹250, ख़ाली"; got != want {
		t.Errorf("D1's aria-label in Hindi = %q; want %q", got, want)
	}
	if got := label("A2"); !strings.HasPrefix(got, "पंक्ति A, सीट 2, Classic, ₹180, रोकी गई · ") || !strings.HasSuffix(got, " पर ख़ाली हो सकती है") {
		t.Errorf("A2 (held) aria-label in Hindi = %q", got)
	}
	if got, want := label("E5"), "पंक्ति E, सीट 5, Prime, ₹250, बिक चुकी"; got != want {
		t.Errorf("E5 (booked) aria-label in Hindi = %q; want %q", got, want)
	}
	if got := d.Find(".legend").AttrOr("aria-label", ""); got != "संकेत" {
		t.Errorf("the legend's aria-label in Hindi = %q", got)
	}
	if got := strings.TrimSpace(d.Find(".best-form button").Text()); got != "सीटें खोजें" {
		t.Errorf("the best-available button in Hindi = %q", got)
	}
	// The show's date in the header: weekday and month in Hindi.
	if got := d.Find(".show-when time").Text(); strings.ContainsAny(got, "abcdefghijklmnopqrstuvwxyz") {
		t.Errorf("the show's date in Hindi = %q: English names left", got)
	}
	if got := d.Find(".show-meta").Text(); !strings.Contains(got, "2 घं॰ 28 मि॰") {
		t.Errorf("the runtime in Hindi: %q", got)
	}
	// And in English, as it always was.
	ed := a.client().get("/shows/" + testShowID).doc(t)
	if got := ed.Find(`.seat[data-seat-id="D1"] input`).AttrOr("aria-label", ""); got != "Row D, seat 1, wheelchair space, Prime, ₹250, available" {
		t.Errorf("D1's aria-label in English = %q", got)
	}
	if got := ed.Find(".show-meta").Text(); !strings.Contains(got, "2h 28m") {
		t.Errorf("the runtime in English: %q", got)
	}
}

// TestHoldAnswersInHindi: the hold route's 409 (seats taken, page and
// htmx), 422 (a party too large, seat and best together) and the best-hold
// form say so in the page's language (SPEC §19: the domain's messages
// rendered from codes).
func TestHoldAnswersInHindi(t *testing.T) {
	a := newApp(t)
	a.client().mustHold("A1")
	c := a.client()
	wantStatus(t, c.get("/shows/"+testShowID+"?lang=hi"), http.StatusOK)
	holds := "/shows/" + testShowID + "/holds"

	res := c.post(holds, url.Values{"_csrf": {c.csrf()}, "seat": {"A1", "A2"}})
	wantStatus(t, res, http.StatusConflict)
	i18ntest.Check(t, "409 hold page", res.body, i18n.Hindi)
	for _, want := range []string{"सीट A1 अभी किसी और ने ले ली।", "आपकी बाक़ी पसंद अभी भी चुनी हुई है"} {
		if !strings.Contains(res.body, want) {
			t.Errorf("the 409 page in Hindi lacks %q", want)
		}
	}
	if got := res.doc(t).Find(`.seat[data-seat-id="A1"]`).AttrOr("data-conflict", ""); got != "true" {
		t.Errorf("A1 data-conflict=%q in Hindi; want true", got)
	}

	res = c.post(holds, url.Values{"_csrf": {c.csrf()}, "seat": {"A1", "A2"}}, "HX-Request", "true")
	wantStatus(t, res, http.StatusConflict)
	i18ntest.Check(t, "409 htmx answer", res.body, i18n.Hindi)
	if !strings.Contains(res.body, "सीट A1 अभी किसी और ने ले ली।") {
		t.Errorf("the htmx 409 in Hindi: %s", res.body)
	}

	res = c.post(holds, url.Values{"_csrf": {c.csrf()}, "best": {"99"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	i18ntest.Check(t, "422 best party", res.body, i18n.Hindi)
	if !strings.Contains(res.body, "1 से 4 सीटों तक चुनें।") {
		t.Errorf("the 422 of best=99 in Hindi lacks its message")
	}

	res = c.post(holds, url.Values{"_csrf": {c.csrf()}, "best": {"2"}, "seat": {"B1"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	i18ntest.Check(t, "422 best and seat", res.body, i18n.Hindi)

	res = c.post(holds, url.Values{"_csrf": {c.csrf()}, "seat": {"A2", "A3", "A4", "A5", "A6"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if !strings.Contains(res.body, "आप एक बार में ज़्यादा से ज़्यादा 4 सीटें रोक सकते हैं; आपने 5 चुनीं।") {
		t.Errorf("the 422 of five seats in Hindi lacks its message")
	}

	// Tamil, for the 409 too.
	ta := a.client()
	wantStatus(t, ta.get("/shows/"+testShowID+"?lang=ta"), http.StatusOK)
	res = ta.post(holds, url.Values{"_csrf": {ta.csrf()}, "seat": {"A1"}})
	wantStatus(t, res, http.StatusConflict)
	i18ntest.Check(t, "409 hold page", res.body, i18n.Tamil)
	if !strings.Contains(res.body, "இருக்கை A1-ஐ இப்போதுதான் வேறொருவர் எடுத்தார்.") {
		t.Errorf("the 409 page in Tamil lacks its message")
	}
}

// TestWatcherMapPerLanguage (SPEC §18): the watchers' shared fragment and
// its ETag are per show and language: two watchers of one show, in Hindi
// and English, get their own bodies and ETags, and a Hindi watcher sending
// the English ETag gets the Hindi fragment, not a 304.
func TestWatcherMapPerLanguage(t *testing.T) {
	a := newApp(t)
	path := "/shows/" + testShowID + "/seats"
	en, hi := a.client(), a.client()
	enRes := en.get(path + "?lang=en")
	hiRes := hi.get(path + "?lang=hi")
	wantStatus(t, enRes, http.StatusOK)
	wantStatus(t, hiRes, http.StatusOK)
	enTag, hiTag := enRes.Header.Get("ETag"), hiRes.Header.Get("ETag")
	if enTag == "" || enTag == hiTag {
		t.Fatalf("ETags: en %q, hi %q; want two of their own", enTag, hiTag)
	}
	if enRes.body == hiRes.body {
		t.Fatal("the Hindi and English watchers got the same fragment")
	}
	i18ntest.Check(t, "watchers' fragment", hiRes.body, i18n.Hindi)
	if !strings.Contains(hiRes.body, "पंक्ति A, सीट 1") || strings.Contains(enRes.body, "पंक्ति") {
		t.Errorf("the fragments are not each in their language")
	}

	// Polled again, in turn: each keeps its own.
	for range 2 {
		if res := en.get(path); res.Header.Get("ETag") != enTag || res.body != enRes.body {
			t.Errorf("the English watcher's next poll: ETag %q, same body %v", res.Header.Get("ETag"), res.body == enRes.body)
		}
		if res := hi.get(path); res.Header.Get("ETag") != hiTag || res.body != hiRes.body {
			t.Errorf("the Hindi watcher's next poll: ETag %q, same body %v", res.Header.Get("ETag"), res.body == hiRes.body)
		}
	}

	res := hi.get(path, "If-None-Match", enTag)
	wantStatus(t, res, http.StatusOK)
	if res.body != hiRes.body || res.Header.Get("ETag") != hiTag {
		t.Errorf("a Hindi watcher with the English ETag got another body or ETag %q", res.Header.Get("ETag"))
	}
	wantStatus(t, hi.get(path, "If-None-Match", hiTag), http.StatusNotModified)
	wantStatus(t, en.get(path, "If-None-Match", enTag), http.StatusNotModified)
	wantStatus(t, en.get(path, "If-None-Match", hiTag), http.StatusOK)
}

// TestSalesOpeningInHindi: before a show's sales opening, its map says
// when it opens in Hindi (the weekday and month in Hindi, SPEC §19) and a
// hold is 410 with that message in Hindi.
func TestSalesOpeningInHindi(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	opens := testStart.Add(time.Hour).Truncate(time.Second)
	wantStatus(t, admin.setOpening(testShowID, opens.Format(time.RFC3339)), http.StatusSeeOther)

	c := a.client()
	res := c.get("/shows/" + testShowID + "?lang=hi")
	wantStatus(t, res, http.StatusOK)
	i18ntest.Check(t, "seat map before sales open", res.body, i18n.Hindi)
	d := res.doc(t)
	if got := d.Find("#hold-form").AttrOr("data-opens-at", ""); got != opens.Format(time.RFC3339) {
		t.Errorf("data-opens-at in Hindi = %q; want %s", got, opens.Format(time.RFC3339))
	}
	notice := d.Find("#hold-form .notice").Text()
	if !strings.Contains(notice, "इस शो की बिक्री") || !strings.Contains(notice, "शनि 14 मार्च 2026") {
		t.Errorf("the map's notice in Hindi before sales open: %q", notice)
	}
	res = c.hold("A1")
	wantStatus(t, res, http.StatusGone)
	if !strings.Contains(res.body, "इस शो की बिक्री शनि 14 मार्च 2026") {
		t.Errorf("the 410 in Hindi does not say when sales open:\n%s", res.body)
	}
}
