package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
)

// TestBackKeepsChoice (SPEC §5): Back returns to the map with the
// released seats still ticked, as the browser's own Back does, the party
// size kept, and a message (role=status) that the hold was released; a
// seat taken meanwhile is not ticked, and the message names it. Without
// JavaScript the hold bar shows the ticked seats and their total; with
// htmx, Back redirects to the same map.
func TestBackKeepsChoice(t *testing.T) {
	a := newApp(t)
	c := a.client()
	loc := c.mustHold("A1", "A2", "A3")
	res := c.post(loc+"/release", url.Values{"_csrf": {c.csrf()}})
	wantStatus(t, res, http.StatusSeeOther)
	back := res.Header.Get("Location")
	if want := "/shows/" + testShowID + "?released=1&seat=A1&seat=A2&seat=A3"; back != want {
		t.Fatalf("Back went to %q, want %q", back, want)
	}
	a.client().mustHold("A3") // someone else, meanwhile

	d := c.get(back).doc(t)
	var ticked []string
	d.Find(`#seatmap [data-seat-id] input[name="seat"][checked]`).Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("value")
		ticked = append(ticked, v)
	})
	if diff := cmp.Diff([]string{"A1", "A2"}, ticked); diff != "" {
		t.Errorf("seats ticked after Back (-want +got):\n%s", diff)
	}
	msg := d.Find(`#seatmap-answer [data-released] [role="status"]`)
	text := strings.Join(strings.Fields(msg.Text()), " ")
	for _, want := range []string{"Your hold was released.", "A1, A2 are still ticked", "A3 was taken by someone else meanwhile"} {
		if !strings.Contains(text, want) {
			t.Errorf("the message after Back does not say %q: %q", want, text)
		}
	}
	if v, _ := d.Find(`#best-party option[selected]`).Attr("value"); v != "3" {
		t.Errorf("party size after Back %q, want 3", v)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-count").Text()); got != "2 seats: A1, A2" {
		t.Errorf("hold bar count %q", got)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-total").Text()); got != "₹360" {
		t.Errorf("hold bar total %q, want ₹360", got)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-button").Text()); got != "Hold 2 seats" {
		t.Errorf("Hold button %q", got)
	}

	// With htmx: the same map, by HX-Redirect.
	loc = c.mustHold("B1")
	res = c.post(loc+"/release", url.Values{"_csrf": {c.csrf()}}, "HX-Request", "true")
	if got := res.Header.Get("HX-Redirect"); got != "/shows/"+testShowID+"?released=1&seat=B1" {
		t.Errorf("htmx Back: HX-Redirect %q", got)
	}
	// A plain map has no message and nothing ticked.
	plain := c.get("/shows/" + testShowID).doc(t)
	if plain.Find("[data-released]").Length() != 0 || plain.Find(`#seatmap input[checked]`).Length() != 0 {
		t.Error("the plain seat map says a hold was released, or ticks seats")
	}
}
