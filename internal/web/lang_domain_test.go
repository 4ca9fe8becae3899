package web_test

import (
	"net/http"
	"strings"
	"testing"

	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
)

// TestDomainRefusalsInHindiAndTamil: the domain's refusals that reach the
// error page, a hold that is not there and the per-address cap, read in
// the page's language (SPEC §19: passed as codes with arguments), and the
// same English as before in English.
func TestDomainRefusalsInHindiAndTamil(t *testing.T) {
	p := testPolicy
	p.SeatsPerAddress = 2
	a := newAppWith(t, p)
	for i, tc := range []struct {
		lang     i18n.Lang
		notFound string
		capped   string
	}{
		{i18n.English, "There is no such hold.", "At most 2 seats of a show can be held at once from one address"},
		{i18n.Hindi, i18n.For(i18n.Hindi).T("checkout.err_hold_not_found"), "ज़्यादा से ज़्यादा 2 सीटें"},
		{i18n.Tamil, i18n.For(i18n.Tamil).T("checkout.err_hold_not_found"), "அதிகபட்சம் 2 இருக்கைகளை"},
	} {
		c := a.client()
		res := c.get("/holds/no-such-hold?lang=" + string(tc.lang))
		wantStatus(t, res, http.StatusNotFound)
		if !strings.Contains(res.body, tc.notFound) {
			t.Errorf("%s: a hold that is not there does not say %q: %s", tc.lang, tc.notFound, res.doc(t).Find("main").Text())
		}
		if tc.lang != i18n.English {
			i18ntest.Check(t, "hold not found", res.body, tc.lang)
		}

		addr := "203.0.113." + itoa(10+i) // an address of its own per language
		first := a.client()
		first.get("/?lang=" + string(tc.lang))
		if res := first.post("/shows/"+testShowID+"/holds", formSeats(first.csrf(), "E"+itoa(2*i+1), "E"+itoa(2*i+2)), "X-Forwarded-For", addr); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: the first hold from the address: %d", tc.lang, res.StatusCode)
		}
		second := a.client()
		second.get("/?lang=" + string(tc.lang))
		res = second.post("/shows/"+testShowID+"/holds", formSeats(second.csrf(), "D"+itoa(i+1)), "X-Forwarded-For", addr)
		wantStatus(t, res, http.StatusTooManyRequests)
		if !strings.Contains(res.body, tc.capped) {
			t.Errorf("%s: the per-address cap's 429 does not say %q", tc.lang, tc.capped)
		}
		if tc.lang != i18n.English {
			i18ntest.Check(t, "per-address cap", res.body, tc.lang)
		}
	}
}
