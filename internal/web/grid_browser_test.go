package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestBrowserSeatGrid books the best three seats together with the
// keyboard alone (SPEC §13): Tab to the best-available form, ask for 3,
// Tab into the map, which is one tab stop on the first ticked seat; the
// arrow keys, Home and End move between free seats, Space and Enter tick
// and untick without submitting; Tab leaves the map; Enter on Hold holds.
// On the way it reads the names the accessibility tree gives three seats
// in Chromium, and checks they are cells of rows of a grid.
func TestBrowserSeatGrid(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.clock.Set(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	a.book("A1")
	a.client().mustHold("B2")
	// The 409 answered in place is expected; the browser logs it anyway.
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 409") })
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)

	focused := `document.activeElement`
	tabTo := func(what, expr string) {
		t.Helper()
		for range 60 {
			if br.JS(focused + expr) {
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	seat := func() string { return testkit.Eval[string](br, focused+`.name === 'seat' ? `+focused+`.value : ''`) }
	press := func(key, want string) {
		t.Helper()
		br.Do(chromedp.KeyEvent(key))
		if got := seat(); got != want {
			t.Errorf("after %q the keyboard is on %q, want %q", key, got, want)
		}
	}
	ticked := func() string {
		return testkit.Eval[string](br, `Array.from(document.querySelectorAll('#seatmap input[name=seat]:checked'), i => i.value).join(',')`)
	}

	// Best available, from the keyboard.
	tabTo("the party size", `.id === 'best-party'`)
	br.Do(chromedp.KeyEvent("3"))
	tabTo("Find seats", `.matches('.best-form button')`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`location.search.includes('best=3') && !!document.querySelector('#seatmap [data-suggested]')`, 5*time.Second)
	if got := ticked(); got != "D4,D5,D6" {
		t.Fatalf("best available ticked %q, want D4,D5,D6", got)
	}

	// Into the map: one tab stop, on the first ticked seat.
	tabTo("the map", `.name === 'seat'`)
	if got := seat(); got != "D4" {
		t.Errorf("Tab entered the map at %q, want the first ticked seat D4", got)
	}
	if n := testkit.Eval[int](br, `Array.from(document.querySelectorAll('#seatmap input[name=seat]')).filter(i => i.tabIndex === 0).length`); n != 1 {
		t.Errorf("the map has %d tab stops, want 1", n)
	}
	if !br.JS(`!document.getElementById('seatmap-keys').hidden`) {
		t.Error("the keys are not explained")
	}

	// Row D is D1 (a wheelchair space), D2 D3, the aisle, D4 D5 D6; row C
	// is above it, row E below. A1 is sold and B2 held: the keys skip them.
	press(kb.ArrowRight, "D5")
	press(kb.ArrowRight, "D6")
	press(kb.ArrowRight, "D6") // the row's end
	press(kb.Home, "D1")
	press(kb.ArrowLeft, "D1")
	press(kb.End, "D6")
	press(kb.ArrowUp, "C6")
	press(kb.ArrowDown, "D6")
	press(kb.ArrowLeft, "D5")
	press(kb.ArrowUp, "C5")
	press(kb.ArrowUp, "B5")
	press(kb.ArrowLeft, "B4")
	press(kb.ArrowLeft, "B3")
	press(kb.ArrowLeft, "B1") // B2 is held
	press(kb.ArrowUp, "A2")   // A1 is sold: the nearest free seat of row A
	br.Do(chromedp.KeyEvent(kb.Enter))
	if got := ticked(); got != "A2,D4,D5,D6" {
		t.Errorf("Enter on A2: ticked %q, want A2,D4,D5,D6", got)
	}
	if !strings.Contains(br.Location(), "best=3") {
		t.Errorf("Enter in the map left the page for %s", br.Location())
	}
	br.Do(chromedp.KeyEvent(" "))
	if got := ticked(); got != "D4,D5,D6" {
		t.Errorf("Space on A2 again: ticked %q, want D4,D5,D6", got)
	}

	// What a screen reader hears, from Chromium's accessibility tree.
	for _, c := range []struct{ seat, name string }{
		{"A1", "Row A, seat 1, Classic, ₹180, sold"},
		{"B2", "Row B, seat 2, Classic, ₹180, held · may free at 12:15"},
		{"D1", "Row D, seat 1, wheelchair space, Prime, ₹250, available"},
	} {
		role, name, ancestors := axNode(t, br, `#seatmap [data-seat-id="`+c.seat+`"] input`)
		if role != "checkbox" || name != c.name {
			t.Errorf("seat %s is a %q named %q, want a checkbox named %q", c.seat, role, name, c.name)
		}
		for _, want := range []string{"gridcell", "row", "rowgroup", "grid"} {
			if !slices.Contains(ancestors, want) {
				t.Errorf("seat %s is not inside a %s: its ancestors are %v", c.seat, want, ancestors)
			}
		}
	}

	// A live refresh keeps the keyboard where it was.
	press(kb.ArrowRight, "A3")
	a.client().mustHold("E1")
	br.WaitFor(testkit.SeatState("E1")+` === 'held'`, 10*time.Second)
	if got := seat(); got != "A3" {
		t.Errorf("after a refresh the keyboard is on %q, want A3", got)
	}

	// Tick A3, which someone else then holds: Tab leaves the map, Enter on
	// Hold answers 409 in place, A3 is lost; Shift+Tab comes back into the
	// map on a seat that can be chosen, the grid's tab stop having moved.
	br.Do(chromedp.KeyEvent(" "))
	a.client().mustHold("A3")
	br.Do(chromedp.KeyEvent(kb.Tab))
	if seat() != "" {
		t.Errorf("Tab stayed in the map, on %s", seat())
	}
	tabTo("Hold", `.matches('.holdbar-button')`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`!!document.querySelector('#seatmap-answer [role=alert]') && document.querySelector('[data-seat-id=A3] input').disabled`, 5*time.Second)
	if got := ticked(); got != "D4,D5,D6" {
		t.Errorf("after losing A3: ticked %q, want D4,D5,D6", got)
	}
	br.Do(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(kb.ModifierShift)))
	if got := seat(); got != "D4" {
		t.Errorf("Shift+Tab from Hold after the conflict is on %q, want the first ticked seat D4", got)
	}

	// Enter on Hold holds the three.
	tabTo("Hold", `.matches('.holdbar-button')`)
	br.Do(chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.CSS(".checkout .countdown")))
	got := testkit.Eval[string](br, `Array.from(document.querySelectorAll('.checkout [data-seat-id]'), e => e.dataset.seatId).join(',')`)
	if got != "D4,D5,D6" {
		t.Errorf("the checkout holds %q, want D4,D5,D6", got)
	}
}

// axNode is the role and name Chromium's accessibility tree gives the
// element css selects, and the roles of its ancestors.
func axNode(t *testing.T, br *testkit.Browser, css string) (role, name string, ancestors []string) {
	t.Helper()
	nodes, err := chromedp.Run(br.Ctx, chromedp.Nodes(chromedp.CSS(css)))
	if err != nil || len(nodes) != 1 {
		t.Fatalf("%s: %d nodes, %v", css, len(nodes), err)
	}
	fetch := true
	res, err := chromedp.Call(br.Ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
		BackendNodeID: nodes[0].BackendNodeID, FetchRelatives: &fetch,
	})
	if err != nil {
		t.Fatalf("accessibility tree of %s: %v", css, err)
	}
	byID := map[accessibility.NodeID]*accessibility.Node{}
	var self *accessibility.Node
	for _, n := range res.Nodes {
		byID[n.NodeID] = n
		if n.BackendDOMNodeID == nodes[0].BackendNodeID {
			self = n
		}
	}
	if self == nil {
		t.Fatalf("%s has no accessibility node", css)
	}
	for p := byID[self.ParentID]; p != nil; p = byID[p.ParentID] {
		ancestors = append(ancestors, axString(p.Role))
	}
	return axString(self.Role), axString(self.Name), ancestors
}

func axString(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return fmt.Sprint(v.Value)
	}
	return s
}
