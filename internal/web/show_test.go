package web_test

import (
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func TestSeatMapPage(t *testing.T) {
	a := newApp(t)
	a.book("C1", "C2")
	other := a.client()
	other.mustHold("B2")
	viewer := a.client()
	viewer.mustHold("A1")
	a.clock.Advance(time.Minute)

	res := viewer.get("/shows/" + testShowID)
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)

	if got := d.Find("[data-seat-id]").Length(); got != 30 {
		t.Errorf("%d seat elements, want 30", got)
	}
	states := seatStates(d)
	want := map[string]string{"A1": "mine", "A2": "available", "B2": "held", "C1": "booked", "C2": "booked", "D1": "available"}
	for id, st := range want {
		if states[id] != st {
			t.Errorf("seat %s: data-state %q, want %q", id, states[id], st)
		}
	}
	for id, st := range states {
		switch st {
		case "available", "held", "booked", "mine":
		default:
			t.Errorf("seat %s: data-state %q is not one of SPEC §5's", id, st)
		}
	}

	held := d.Find(`[data-seat-id="B2"]`)
	exp, ok := held.Attr("data-expires-at")
	if !ok {
		t.Fatal("held seat B2 has no data-expires-at")
	}
	wantExpiry(t, "held seat B2", exp, testStart.Add(15*time.Minute))
	if _, ok := d.Find(`[data-seat-id="A2"]`).Attr("data-expires-at"); ok {
		t.Error("available seat A2 has data-expires-at")
	}

	// The form works without JavaScript: labelled checkboxes named seat.
	form := d.Find(`form[method="post"][action="/shows/` + testShowID + `/holds"]`)
	if form.Length() != 1 {
		t.Fatal("no hold form posting to /shows/{id}/holds")
	}
	if v, _ := form.Find(`input[name="_csrf"]`).Attr("value"); v == "" {
		t.Error("hold form has no _csrf field")
	}
	checks := []struct {
		seat            string
		checked, disabl bool
		label           string
	}{
		{"A1", true, false, "Row A, seat 1, Classic, ₹180, held for you"},
		{"A2", false, false, "Row A, seat 2, Classic, ₹180, available"},
		{"B2", false, true, "Row B, seat 2, Classic, ₹180, held · may free at 12:15"},
		{"C1", false, true, "Row C, seat 1, Classic, ₹180, sold"},
		{"D1", false, false, "Row D, seat 1, wheelchair space, Prime, ₹250, available"},
	}
	for _, c := range checks {
		el := form.Find(`[data-seat-id="` + c.seat + `"]`)
		in := el.Find(`input[type="checkbox"][name="seat"][value="` + c.seat + `"]`)
		if in.Length() != 1 {
			t.Errorf("seat %s: no checkbox", c.seat)
			continue
		}
		_, checked := in.Attr("checked")
		_, disabled := in.Attr("disabled")
		if checked != c.checked || disabled != c.disabl {
			t.Errorf("seat %s: checked=%v disabled=%v, want %v %v", c.seat, checked, disabled, c.checked, c.disabl)
		}
		if got := in.AttrOr("aria-label", ""); got != c.label {
			t.Errorf("seat %s: accessible name %q, want %q", c.seat, got, c.label)
		}
	}
	// An ARIA grid: two bands (row groups) of rows of cells, a seat a cell.
	grid := d.Find(`#seatmap [role="grid"]`)
	if n := grid.Find(`[role="rowgroup"] > [role="row"]`).Length(); n != 5 {
		t.Errorf("the grid has %d rows in row groups, want 5", n)
	}
	if n := grid.Find(`[role="row"] > [role="gridcell"][data-seat-id] > input[name="seat"]`).Length(); n != 30 {
		t.Errorf("the grid has %d seats in cells, want 30", n)
	}
	rowA := grid.Find(`[role="row"]`).First()
	if rowA.Find(".gap").Length() != 1 || rowA.Find(`[data-seat-id="A1"]`).Length() != 1 {
		t.Error("row A is not the first row, with one aisle gap")
	}
	if got := d.Find(".band-head").Length(); got != 2 {
		t.Errorf("%d category bands, want 2", got)
	}
	if d.Find(`a[href^="/holds/"]`).Length() == 0 {
		t.Error("no link back to the viewer's hold")
	}
}

func TestSeatMapFragmentGolden(t *testing.T) {
	a := newApp(t)
	a.book("C1", "C2")
	a.client().mustHold("B2", "B3")
	a.clock.Advance(time.Minute)

	res := a.client().get("/shows/"+testShowID+"/seats", "HX-Request", "true")
	wantStatus(t, res, http.StatusOK)
	if strings.Contains(res.body, "<html") {
		t.Error("the fragment is a whole page")
	}
	compareGolden(t, "seatmap_fragment.golden.html", res.body)
}

func TestSeatMapETag(t *testing.T) {
	a := newApp(t)
	c := a.client()
	path := "/shows/" + testShowID + "/seats"

	first := c.get(path)
	wantStatus(t, first, http.StatusOK)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("fragment has no ETag")
	}
	if cc := first.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
		t.Errorf("Cache-Control %q: the browser must revalidate", cc)
	}
	if d := first.doc(t); d.Find(`#seatmap[data-etag]`).AttrOr("data-etag", "") != etag {
		t.Error("fragment's data-etag differs from its ETag")
	}

	same := c.get(path, "If-None-Match", etag)
	wantStatus(t, same, http.StatusNotModified)
	if same.body != "" {
		t.Error("304 has a body")
	}

	a.client().mustHold("A1")
	a.clock.Advance(time.Second) // a watcher's map may be a second old (SPEC §18)
	changed := c.get(path, "If-None-Match", etag)
	wantStatus(t, changed, http.StatusOK)
	if changed.Header.Get("ETag") == etag {
		t.Error("ETag unchanged after a seat was held")
	}

	// When the hold lapses the map changes again, with nobody writing.
	etag = changed.Header.Get("ETag")
	a.clock.Advance(15 * time.Minute)
	lapsed := c.get(path, "If-None-Match", etag)
	wantStatus(t, lapsed, http.StatusOK)
	if st := seatStates(lapsed.doc(t))["A1"]; st != "available" {
		t.Errorf("A1 after the TTL: %q, want available", st)
	}
}

func TestUnknownShow(t *testing.T) {
	a := newApp(t)
	c := a.client()
	for _, path := range []string{"/shows/nope", "/shows/nope/seats", "/holds/nope", "/no/such/page"} {
		res := c.get(path)
		wantStatus(t, res, http.StatusNotFound)
		d := res.doc(t)
		if d.Find("h1").Length() == 0 || !strings.Contains(res.body, "See what") {
			t.Errorf("%s: 404 page says nothing useful:\n%s", path, res.body)
		}
		if _, ok := d.Find(`meta[name="csrf-token"]`).Attr("content"); !ok {
			t.Errorf("%s: error page has no csrf-token meta", path)
		}
	}
}

func TestErrorFragmentForHTMX(t *testing.T) {
	a := newApp(t)
	res := a.client().get("/shows/nope/seats", "HX-Request", "true")
	wantStatus(t, res, http.StatusNotFound)
	if strings.Contains(res.body, "<html") {
		t.Fatalf("htmx request got a whole page:\n%s", res.body)
	}
	d := res.doc(t)
	if d.Find(`[role="alert"]`).Length() != 1 || !strings.Contains(d.Text(), "There is no such show.") {
		t.Errorf("error fragment:\n%s", res.body)
	}
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	got = strings.ReplaceAll(got, "><", ">\n<") // one tag a line, for readable diffs
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}
