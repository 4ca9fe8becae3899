package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// listed are the seat ids of the list's checkboxes, in order.
func listed(d *goquery.Document) []string {
	var ids []string
	d.Find(`#seatlist [data-seat-id] input[name="seat"]`).Each(func(_ int, s *goquery.Selection) {
		ids = append(ids, s.AttrOr("value", ""))
	})
	return ids
}

// TestSeatList: ?view=list is the seats as a list for screen readers
// (SPEC §13): a group per band and per row, with the row's free count, a
// checkbox per seat that can be chosen and nothing else; it posts the same
// hold form, and a refused hold comes back as the list. The map links to it
// and it links back.
func TestSeatList(t *testing.T) {
	a := newApp(t)
	a.book("A1", "A2")
	a.client().mustHold("B2")
	c := a.client()

	m := c.get("/shows/" + testShowID).doc(t)
	if href := m.Find(`a.seatmap-switch`).AttrOr("href", ""); href != "/shows/"+testShowID+"?view=list" {
		t.Errorf("the map links to %q for the list", href)
	}
	res := c.get("/shows/" + testShowID + "?view=list")
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	if d.Find("#seatmap").Length() != 0 || d.Find(`[role="grid"]`).Length() != 0 {
		t.Error("the list page has the map too")
	}
	if href := d.Find(`a.seatmap-switch`).AttrOr("href", ""); href != "/shows/"+testShowID {
		t.Errorf("the list links to %q for the map", href)
	}
	var legends []string
	d.Find("#seatlist legend").Each(func(_ int, s *goquery.Selection) { legends = append(legends, strings.TrimSpace(s.Text())) })
	want := []string{"Classic, ₹180", "Row A: 4 free", "Row B: 5 free", "Row C: 6 free", "Prime, ₹250", "Row D: 6 free", "Row E: 6 free"}
	if !slices.Equal(legends, want) {
		t.Errorf("legends %q, want %q", legends, want)
	}
	ids := listed(d)
	if len(ids) != 27 || slices.Contains(ids, "A1") || slices.Contains(ids, "B2") || ids[0] != "A3" {
		t.Errorf("the list offers %v: want the 27 free seats from A3, without A1, A2 or B2", ids)
	}
	if got := strings.Join(strings.Fields(d.Find(`#seatlist [data-seat-id="D1"]`).Text()), " "); got != "Seat 1, wheelchair space" {
		t.Errorf("D1 reads %q", got)
	}
	if d.Find(`#hold-form[hx-post]`).Length() != 0 || d.Find(`#hold-form input[name="view"][value="list"]`).Length() != 1 {
		t.Error("the list's form is not a plain form that says it came from the list")
	}
	if d.Find(`.best-form input[name="view"][value="list"]`).Length() != 1 {
		t.Error("best available from the list does not come back to the list")
	}

	// Best available in the list ticks the block there.
	best := c.get("/shows/" + testShowID + "?view=list&best=3").doc(t)
	var ticked []string
	best.Find(`#seatlist [data-suggested] input:checked`).Each(func(_ int, s *goquery.Selection) { ticked = append(ticked, s.AttrOr("value", "")) })
	if strings.Join(ticked, ",") != "D4,D5,D6" {
		t.Errorf("best 3 in the list ticks %v", ticked)
	}

	// A conflict from the list answers with the list, the lost seat marked.
	tok := d.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
	a.client().mustHold("C1")
	res = c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {"C1", "C2"}, "view": {"list"}})
	wantStatus(t, res, http.StatusConflict)
	d = res.doc(t)
	lost := d.Find(`#seatlist [data-seat-id="C1"][data-conflict]`)
	if lost.Length() != 1 || lost.Find("input[disabled]").Length() != 1 || !strings.Contains(lost.Text(), "just taken") {
		t.Errorf("the 409 list does not mark C1 as lost:\n%s", res.body)
	}
	if d.Find(`#seatlist [data-seat-id="C2"] input:checked`).Length() != 1 {
		t.Error("the 409 list does not keep C2 ticked")
	}
	// And a hold from the list goes through.
	res = c.post("/shows/"+testShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {"C2", "C3"}, "view": {"list"}})
	wantStatus(t, res, http.StatusSeeOther)
}
