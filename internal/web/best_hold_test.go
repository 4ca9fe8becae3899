package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestHoldBestInOneStep (SPEC §18, hook "best in one step"): POST
// /shows/{id}/holds with best=N holds the best block free at that moment
// and goes to its checkout; the map offers it beside a suggestion as a
// plain form; best with seat, a party outside 1 to MAX_SEATS and an unknown
// category are 422, and no block is 409 with a message.
func TestHoldBestInOneStep(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holds := "/shows/" + testShowID + "/holds"

	// The suggestion's page carries the one-step form.
	page := c.get("/shows/" + testShowID + "?best=3")
	form := page.doc(t).Find("form[data-best-hold]")
	if action, _ := form.Attr("action"); action != holds {
		t.Fatalf("the one-step form posts to %q, want %s", action, holds)
	}
	if v, _ := form.Find(`input[name="best"]`).Attr("value"); v != "3" {
		t.Errorf("the one-step form asks for best=%q, want 3", v)
	}
	tok, _ := form.Find(`input[name="_csrf"]`).Attr("value")
	if tok == "" || !strings.Contains(form.Text(), "Hold best seats") {
		t.Fatalf("the one-step form has no token or no button: %q", form.Text())
	}
	if n := c.get("/shows/" + testShowID).doc(t).Find("form[data-best-hold]").Length(); n != 0 {
		t.Errorf("the map without a suggestion offers %d one-step forms, want none", n)
	}

	// Someone takes D5 of the suggested D4-D6 meanwhile: the step takes the
	// best block free then, the one the map suggests now.
	a.book("D5")
	now := strings.Join(suggested(t, a.client().get("/shows/"+testShowID+"?best=3")), ",")
	if now == "" || strings.Contains(now, "D5") {
		t.Fatalf("the suggestion after D5 was sold: %q", now)
	}
	res := c.post(holds, url.Values{"_csrf": {tok}, "best": {"3"}})
	wantStatus(t, res, http.StatusSeeOther)
	checkout := c.get(res.Header.Get("Location"))
	wantStatus(t, checkout, http.StatusOK)
	var got []string
	for _, n := range checkout.doc(t).Find("[data-seat-id]").Nodes {
		for _, at := range n.Attr {
			if at.Key == "data-seat-id" {
				got = append(got, at.Val)
			}
		}
	}
	if strings.Join(got, ",") != now {
		t.Errorf("the one-step hold took %v, want %s, the best free when it ran", got, now)
	}

	other := a.client()
	otok := other.csrf()
	for _, tc := range []struct {
		name string
		form url.Values
		want int
	}{
		{"best with seats", url.Values{"best": {"2"}, "seat": {"A1"}}, http.StatusUnprocessableEntity},
		{"party of none", url.Values{"best": {"0"}}, http.StatusUnprocessableEntity},
		{"party over MAX_SEATS", url.Values{"best": {"5"}}, http.StatusUnprocessableEntity},
		{"not a number", url.Values{"best": {"two"}}, http.StatusUnprocessableEntity},
		{"unknown category", url.Values{"best": {"2"}, "category": {"Balcony"}}, http.StatusUnprocessableEntity},
		{"wheelchair with too many", url.Values{"best": {"4"}, "wheelchair": {"1"}, "category": {"Prime"}}, http.StatusConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.form.Set("_csrf", otok)
			wantStatus(t, other.post(holds, tc.form), tc.want)
		})
	}
	// No two Prime seats together are left: 409, and the page says so.
	a.book("D2", "D3")
	a.book("D4", "D6", "E1")
	a.book("E3", "E5")
	before := a.count(`SELECT count(*) FROM holds`)
	res = other.post(holds, url.Values{"_csrf": {otok}, "best": {"2"}, "category": {"Prime"}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "no longer 2 seats together free in Prime") {
		t.Errorf("the 409 does not say why:\n%s", res.body)
	}
	if n := a.count(`SELECT count(*) FROM holds`); n != before {
		t.Errorf("%d holds after a refused one-step hold, want %d", n, before)
	}
}

// TestHoldBestWithHTMX: the map's one-step form posts with htmx into
// #seatmap-answer; a hold goes to its checkout by HX-Redirect, no block is
// 409 with the message alone (no map drawn for a sold-out show's crowd),
// and invalid input answers the map, retargeted to replace the map.
func TestHoldBestWithHTMX(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holds := "/shows/" + testShowID + "/holds"
	form := c.get("/shows/" + testShowID + "?best=2").doc(t).Find("form[data-best-hold]")
	if post, _ := form.Attr("hx-post"); post != holds {
		t.Fatalf("the one-step form's hx-post is %q, want %s", post, holds)
	}
	if target, _ := form.Attr("hx-target"); target != "#seatmap-answer" {
		t.Errorf("the one-step form's hx-target is %q, want #seatmap-answer", target)
	}
	tok, _ := form.Find(`input[name="_csrf"]`).Attr("value")

	a.book("D2", "D3")
	a.book("D4", "D6", "E1")
	a.book("E3", "E5")
	other := a.client()
	otok := other.csrf()
	res := other.post(holds, url.Values{"_csrf": {otok}, "best": {"2"}, "category": {"Prime"}}, "HX-Request", "true")
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "no longer 2 seats together free in Prime") {
		t.Errorf("the 409 does not say why:\n%s", res.body)
	}
	if strings.Contains(res.body, "data-seat-id") || strings.Contains(res.body, "still selected") {
		t.Errorf("the htmx 409 of a one-step hold draws seats or speaks of a choice:\n%s", res.body)
	}
	if rt := res.Header.Get("HX-Retarget"); rt != "" {
		t.Errorf("the 409 retargets to %q; the form's own target holds the message", rt)
	}

	res = c.post(holds, url.Values{"_csrf": {tok}, "best": {"2"}}, "HX-Request", "true")
	if res.StatusCode >= 400 || !strings.HasPrefix(res.Header.Get("HX-Redirect"), "/holds/") {
		t.Fatalf("an htmx one-step hold: %d, HX-Redirect %q; want the checkout", res.StatusCode, res.Header.Get("HX-Redirect"))
	}

	res = other.post(holds, url.Values{"_csrf": {otok}, "best": {"0"}}, "HX-Request", "true")
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.Header.Get("HX-Retarget") != "#seatmap" || res.Header.Get("HX-Reswap") != "outerHTML" {
		t.Errorf("a 422 answers the map into %q (%q), want #seatmap outerHTML", res.Header.Get("HX-Retarget"), res.Header.Get("HX-Reswap"))
	}
}
