package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// bandNames are the names of the bands of the seat grid under sel.
func bandNames(d *goquery.Selection) []string {
	var out []string
	d.Find(".seatmap-grid .band .band-label").Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.Join(strings.Fields(s.Text()), " "))
	})
	return out
}

// previewLayout posts layout to the new-screen form of a new theatre
// with action=preview and returns the page.
func previewLayout(t *testing.T, a *app, admin *client, layout string) *goquery.Document {
	t.Helper()
	tok := admin.adminCSRF()
	wantStatus(t, admin.post("/admin/theatres", url.Values{"_csrf": {tok}, "name": {"Prince Charles"}, "city": {"London"},
		"time_zone": {"Europe/London"}, "currency": {"GBP"}}), http.StatusSeeOther)
	theatres, err := a.store.ListTheatres(context.Background())
	if err != nil || len(theatres) == 0 {
		t.Fatalf("theatres %v, %v", theatres, err)
	}
	res := admin.post("/admin/theatres/"+theatres[len(theatres)-1].ID+"/screens",
		url.Values{"_csrf": {tok}, "name": {"Screen 1"}, "layout": {layout}, "action": {"preview"}})
	wantStatus(t, res, http.StatusOK)
	return res.doc(t)
}

// TestLayoutPreviewIsTheMap (item 4 of issue 29): the layout editor's
// preview is the moviegoer's seat grid (one drawing), read-only: a band
// per category with its name, aisles as gaps, wheelchair spaces ♿ and
// companion seats +, said in words too, and a legend; no checkbox, and
// no price (each show sets them).
func TestLayoutPreviewIsTheMap(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	d := previewLayout(t, a, admin, catalogLayout)
	p := d.Find("[data-layout-preview]")
	if p.Find(`.seatmap-grid[role="grid"]`).Length() != 1 {
		t.Fatal("the preview is not the seat map's grid")
	}
	if diff := cmp.Diff([]string{"Classic", "Prime"}, bandNames(p)); diff != "" {
		t.Errorf("bands (-want +got):\n%s", diff)
	}
	if n := p.Find(`.seat[data-seat-id]`).Length(); n != 18 {
		t.Errorf("%d seats drawn, want 18", n)
	}
	if n := p.Find(`.row`).First().Find(".gap").Length(); n != 1 {
		t.Errorf("row A has %d aisles drawn, want 1", n)
	}
	w := p.Find(`.seat[data-seat-id="B1"]`)
	if k, _ := w.Attr("data-kind"); k != "wheelchair" || !strings.Contains(w.Find(".seat-box").Text(), "♿") || !strings.Contains(w.Text(), "wheelchair space") {
		t.Errorf("B1 is not drawn as a wheelchair space: kind %q, %q", k, w.Text())
	}
	c := p.Find(`.seat[data-seat-id="B2"]`)
	if k, _ := c.Attr("data-kind"); k != "companion" || !strings.Contains(c.Find(".seat-box").Text(), "+") || !strings.Contains(c.Text(), "companion seat") {
		t.Errorf("B2 is not drawn as a companion seat: kind %q, %q", k, c.Text())
	}
	if n := p.Find("input").Length(); n != 0 {
		t.Errorf("the preview has %d inputs, want none", n)
	}
	if got := strings.TrimSpace(p.Find(".band-price").Text()); got != "" {
		t.Errorf("the preview shows prices: %q", got)
	}
	legend := d.Find(".legend")
	var cats []string
	legend.Find("[data-category]").Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("data-category")
		cats = append(cats, v)
	})
	if diff := cmp.Diff([]string{"Classic", "Prime"}, cats); diff != "" || legend.Find(".legend-wheelchair").Length() != 1 || legend.Find(".legend-companion").Length() != 1 {
		t.Errorf("the preview's legend: categories (-want +got):\n%s\n%s", diff, legend.Text())
	}
}

// TestAdminShowMapIsTheMap (item 4 of issue 29): the admin show page
// draws the show's seats with the moviegoer's seat grid: bands with their
// prices, aisles, the wheelchair space ♿; in admin mode every seat is a
// checkbox of the reserve form, in the seat rule's state (held with its
// expiry, booked with its booking in its name), with its reserve marked.
func TestAdminShowMapIsTheMap(t *testing.T) {
	a := newAdminApp(t)
	b := a.book("E1")
	a.client().mustHold("C3")
	if err := a.svc.ReserveSeats(context.Background(), testShowID, []string{"A1"}, booking.ReserveHouse); err != nil {
		t.Fatal(err)
	}
	admin := a.client()
	admin.mustLogin()
	d := admin.get("/admin/shows/" + testShowID).doc(t)
	m := d.Find(`form[data-reserve-form] .admin-seatmap`)
	if m.Find(`.seatmap-grid[role="grid"]`).Length() != 1 {
		t.Fatal("the admin show map is not the seat map's grid inside the reserve form")
	}
	if diff := cmp.Diff([]string{"Classic₹180", "Prime₹250"}, bandNames(m)); diff != "" {
		t.Errorf("bands (-want +got):\n%s", diff)
	}
	if n := m.Find(`.seat input[type="checkbox"][name="seat"]:not([disabled])`).Length(); n != 30 {
		t.Errorf("%d seats can be ticked for a reserve, want 30", n)
	}
	if n := m.Find(".row").First().Find(".gap").Length(); n != 1 {
		t.Errorf("row A has %d aisles drawn, want 1", n)
	}
	if !strings.Contains(m.Find(`.seat[data-seat-id="D1"] .seat-box`).Text(), "♿") {
		t.Error("D1 is not drawn as a wheelchair space")
	}
	a1 := m.Find(`.seat[data-seat-id="A1"]`)
	if r, _ := a1.Attr("data-reserve"); r != "house" || strings.TrimSpace(a1.Find(".seat-reserve").Text()) != "H" {
		t.Errorf("A1's reserve: data-reserve %q, mark %q", r, a1.Find(".seat-reserve").Text())
	}
	if st, _ := a1.Attr("data-state"); st != "available" {
		t.Errorf("A1, house and free, has data-state %q, want available (the seat rule's)", st)
	}
	c3 := m.Find(`.seat[data-seat-id="C3"]`)
	if st, _ := c3.Attr("data-state"); st != "held" || c3.AttrOr("data-expires-at", "") == "" {
		t.Errorf("C3: data-state %q, data-expires-at %q", st, c3.AttrOr("data-expires-at", ""))
	}
	e1 := m.Find(`.seat[data-seat-id="E1"]`)
	if st, _ := e1.Attr("data-state"); st != "booked" || !strings.Contains(e1.Find("input").AttrOr("aria-label", ""), b.ID) {
		t.Errorf("E1: data-state %q, name %q", st, e1.Find("input").AttrOr("aria-label", ""))
	}
	if d.Find(".legend [data-category]").Length() != 2 {
		t.Error("the admin show map has no legend of its categories")
	}
}
