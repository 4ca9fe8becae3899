package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/web"
)

type webOptions = web.Options

func TestHoldAndCheckout(t *testing.T) {
	a := newApp(t)
	c := a.client()
	res := c.hold("A2", "D3")
	wantStatus(t, res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/holds/") || len(loc) < len("/holds/")+26 {
		t.Fatalf("Location %q, want /holds/{id} with an unguessable id", loc)
	}

	page := c.get(loc)
	wantStatus(t, page, http.StatusOK)
	d := page.doc(t)
	var seats []string
	d.Find(".checkout [data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		seats = append(seats, s.AttrOr("data-seat-id", ""))
	})
	if strings.Join(seats, ",") != "A2,D3" {
		t.Errorf("checkout seats %v, want [A2 D3]", seats)
	}
	if got := d.Find("[data-amount]").AttrOr("data-amount", ""); got != "43000" {
		t.Errorf("data-amount %q, want 43000", got)
	}
	if !strings.Contains(d.Find("[data-amount]").Text(), "₹430") {
		t.Errorf("total shown as %q", d.Find("[data-amount]").Text())
	}
	exp := d.Find("[data-expires-at]").AttrOr("data-expires-at", "")
	wantExpiry(t, "checkout", exp, testStart.Add(15*time.Minute))
	id := strings.TrimPrefix(loc, "/holds/")
	for _, action := range []string{"/holds/" + id + "/release", "/holds/" + id + "/pay"} {
		f := d.Find(`form[method="post"][action="` + action + `"]`)
		if f.Length() != 1 || f.Find(`input[name="_csrf"]`).AttrOr("value", "") == "" {
			t.Errorf("no form posting to %s with _csrf", action)
		}
	}

	// Both seats now show as the viewer's on the map.
	states := seatStates(c.get("/shows/" + testShowID).doc(t))
	if states["A2"] != "mine" || states["D3"] != "mine" {
		t.Errorf("after the hold: A2=%s D3=%s, want mine", states["A2"], states["D3"])
	}
}

func TestHoldHTMXRedirect(t *testing.T) {
	a := newApp(t)
	c := a.client()
	tok := c.csrf()
	res := c.post("/shows/"+testShowID+"/holds", url.Values{"seat": {"A1"}}, "HX-Request", "true", "X-CSRF-Token", tok)
	// 204: htmx follows HX-Redirect whatever the status, and there is no
	// body to swap.
	wantStatus(t, res, http.StatusNoContent)
	if res.body != "" {
		t.Errorf("body %q, want none", res.body)
	}
	if got := res.Header.Get("HX-Redirect"); !strings.HasPrefix(got, "/holds/") {
		t.Errorf("HX-Redirect %q, want /holds/{id}", got)
	}
}

func TestHoldConflict(t *testing.T) {
	a := newApp(t)
	a.client().mustHold("A2")
	c := a.client()

	for _, htmx := range []bool{false, true} {
		var res response
		if htmx {
			res = c.post("/shows/"+testShowID+"/holds", url.Values{"seat": {"A1", "A2", "A3"}, "_csrf": {c.csrf()}}, "HX-Request", "true")
		} else {
			res = c.hold("A1", "A2", "A3")
		}
		wantStatus(t, res, http.StatusConflict)
		if htmx == strings.Contains(res.body, "<html") {
			t.Errorf("htmx=%v: whole page = %v", htmx, !htmx)
		}
		d := res.doc(t)
		conflicts := d.Find("[data-conflict]")
		if conflicts.Length() != 1 || conflicts.AttrOr("data-seat-id", "") != "A2" {
			t.Errorf("htmx=%v: data-conflict on %d seats, want A2 only", htmx, conflicts.Length())
		}
		if msg := d.Find(`[role="alert"]`).Text(); !strings.Contains(msg, "A2") {
			t.Errorf("htmx=%v: message %q does not name A2", htmx, msg)
		}
		if htmx {
			// The page has the map: the answer names the lost seat only
			// (seatmap.js marks it; TestBrowser sees that done).
			if res.Header.Get("HX-Retarget") != "#seatmap-answer" || res.Header.Get("HX-Reswap") != "innerHTML" {
				t.Errorf("htmx: HX-Retarget %q, HX-Reswap %q", res.Header.Get("HX-Retarget"), res.Header.Get("HX-Reswap"))
			}
			if n := d.Find("[data-seat-id]").Length(); n != 1 || len(res.body) > 1000 {
				t.Errorf("htmx: the answer has %d seats in %d bytes, want the lost one in a few hundred", n, len(res.body))
			}
			continue
		}
		for _, id := range []string{"A1", "A3"} {
			if _, ok := d.Find(`input[value="` + id + `"]`).Attr("checked"); !ok {
				t.Errorf("htmx=%v: %s is no longer selected", htmx, id)
			}
		}
		if _, ok := d.Find(`input[value="A2"]`).Attr("disabled"); !ok {
			t.Errorf("htmx=%v: lost seat A2 is still selectable", htmx)
		}
	}
	// Nothing changed: A1 and A3 are still free.
	states := seatStates(a.client().get("/shows/" + testShowID).doc(t))
	if states["A1"] != "available" || states["A3"] != "available" {
		t.Errorf("after the conflict A1=%s A3=%s, want available", states["A1"], states["A3"])
	}
}

func TestHoldInvalid(t *testing.T) {
	a := newApp(t) // MaxSeats 4
	tests := []struct {
		name  string
		seats []string
		say   string
	}{
		{"none", nil, "at least one seat"},
		{"too many", []string{"A1", "A2", "A3", "A4", "A5"}, "at most 4"},
		{"duplicate", []string{"A1", "A1"}, "twice"},
		{"unknown seat", []string{"Z9"}, "Z9"},
		{"not a seat", []string{"<script>"}, "is not a seat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := a.client().hold(tt.seats...)
			wantStatus(t, res, http.StatusUnprocessableEntity)
			msg := res.doc(t).Find(`[role="alert"]`).Text()
			if !strings.Contains(msg, tt.say) {
				t.Errorf("message %q does not say %q", msg, tt.say)
			}
			if strings.Contains(res.body, "<script>\"") {
				t.Error("input echoed unescaped")
			}
		})
	}
	if st := seatStates(a.client().get("/shows/" + testShowID).doc(t)); st["A1"] != "available" {
		t.Errorf("A1 %s after invalid holds, want available", st["A1"])
	}
}

func TestHoldOfAnotherSession(t *testing.T) {
	a := newApp(t)
	loc := a.client().mustHold("A1")
	stranger := a.client()
	wantStatus(t, stranger.get(loc), http.StatusNotFound)
	res := stranger.post(loc+"/release", url.Values{"_csrf": {stranger.csrf()}})
	wantStatus(t, res, http.StatusNotFound)
	if st := seatStates(stranger.get("/shows/" + testShowID).doc(t)); st["A1"] != "held" {
		t.Errorf("A1 is %s after a stranger's release, want held", st["A1"])
	}
}

func TestRelease(t *testing.T) {
	a := newApp(t)
	c := a.client()
	loc := c.mustHold("A1", "A2")
	res := c.post(loc+"/release", url.Values{"_csrf": {c.csrf()}})
	wantStatus(t, res, http.StatusSeeOther)
	if got := res.Header.Get("Location"); got != "/shows/"+testShowID+"?released=1&seat=A1&seat=A2" {
		t.Errorf("Location %q, want the seat map with the released seats", got)
	}
	states := seatStates(a.client().get("/shows/" + testShowID).doc(t))
	if states["A1"] != "available" || states["A2"] != "available" {
		t.Errorf("after release A1=%s A2=%s, want available", states["A1"], states["A2"])
	}
	// Idempotent, and the hold's page now says it has ended.
	wantStatus(t, c.post(loc+"/release", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
	gone := c.get(loc)
	wantStatus(t, gone, http.StatusGone)
	if !strings.Contains(gone.body, "released") {
		t.Errorf("released hold's page does not say so:\n%s", gone.body)
	}
}

func TestExpiredHold(t *testing.T) {
	a := newApp(t)
	c := a.client()
	loc := c.mustHold("A1")
	a.clock.Advance(15 * time.Minute)
	wantStatus(t, c.get(loc), http.StatusGone)
	if st := seatStates(a.client().get("/shows/" + testShowID).doc(t)); st["A1"] != "available" {
		t.Errorf("A1 after the TTL: %s, want available", st["A1"])
	}
}

func TestHoldRateLimit(t *testing.T) {
	a := newApp(t, func(o *webOptions) { o.HoldRate = 2 })
	c := a.client()
	c.mustHold("A1")
	c.mustHold("A2")
	res := c.hold("A3")
	wantStatus(t, res, http.StatusTooManyRequests)
	if res.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	// Another session is not affected.
	a.client().mustHold("B1")
}
