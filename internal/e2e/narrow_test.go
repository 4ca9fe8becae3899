package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestNarrowPhone: on a 360×740 phone, the smallest common one, a wide
// hall's seat map scrolls inside its own box while the page itself never
// scrolls sideways, and the Hold bar is on screen.
func TestNarrowPhone(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	br := newBrowser(t, "small phone", nil)
	br.Do(chromedp.EmulateViewport(360, 740))

	const pageFits = `document.documentElement.scrollWidth <= 360`
	const mapScrolls = `(() => { const m = document.querySelector('#seatmap .seatmap-scroll');
	  return !!m && m.scrollWidth > m.clientWidth; })()`
	wide := ""
	for _, id := range s.showIDs(t) {
		br.open(s, "/shows/"+id, ".holdbar-button")
		if !br.JS(pageFits) {
			t.Errorf("show %s: the page is %d px wide on a 360 px screen, so it scrolls sideways",
				id, eval[int](br, `document.documentElement.scrollWidth`))
		}
		if br.JS(mapScrolls) {
			wide = id
			break
		}
	}
	if wide == "" {
		t.Fatal("no demo show's seat map is wider than a 360 px screen; the test needs a wide hall")
	}

	// The map's own box scrolls: to its right edge and back.
	if !br.JS(`(() => { const m = document.querySelector('#seatmap .seatmap-scroll');
	  m.scrollLeft = m.scrollWidth; const right = m.scrollLeft; m.scrollLeft = 0;
	  return right > 0 && m.scrollLeft === 0; })()`) {
		t.Error("the seat map's box does not scroll sideways")
	}
	if !br.JS(pageFits + ` && window.scrollX === 0`) {
		t.Error("scrolling the seat map scrolled the page sideways")
	}
	// The Hold bar is on screen, whole, without scrolling to it.
	if !br.JS(`(() => { const r = document.querySelector('.holdbar-button').getBoundingClientRect();
	  return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= 360 && r.top >= 0 && r.bottom <= 740; })()`) {
		t.Error("the Hold button is not wholly on a 360×740 screen")
	}
	// A seat chosen at the far edge of the hall shows in the Hold bar.
	seat := eval[string](br, `[...document.querySelectorAll('.seat input[name="seat"]:not(:disabled)')].pop().value`)
	br.pickSeats(seat)
	if got := br.text(".holdbar-button"); got != "Hold 1 seat" {
		t.Errorf("after choosing %s the Hold button says %q", seat, got)
	}
	if !br.JS(pageFits) {
		t.Error("choosing a seat at the edge made the page wider than the screen")
	}
}
