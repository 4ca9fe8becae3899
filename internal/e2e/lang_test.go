package e2e

import (
	"testing"

	"boxoffice/internal/testkit"
)

// TestSeatMapLanguages: the real binary's seat map in Hindi and in Tamil,
// each chosen with ?lang= and remembered by the lang cookie on the next
// page, on a phone: <html lang>, the switcher's hreflang links, and a
// screenshot each (docs/screenshots/seatmap-hi-phone.png, -ta-).
func TestSeatMapLanguages(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	showID := s.showIDs(t)[2]
	for _, lang := range []string{"hi", "ta"} {
		b := newBrowser(t, "viewer in "+lang, nil)
		b.open(s, "/shows/"+showID+"?lang="+lang, ".holdbar-button")
		if got := eval[string](b, `document.documentElement.lang`); got != lang {
			t.Errorf("?lang=%s: <html lang=%q>", lang, got)
		}
		if n := eval[int](b, `document.querySelectorAll('.lang-switch a[hreflang]').length`); n != 3 {
			t.Errorf("%s: the switcher has %d links with hreflang; want 3", lang, n)
		}
		// The choice is remembered: the next page, without ?lang=, too.
		b.open(s, "/shows/"+showID, ".holdbar-button")
		if got := eval[string](b, `document.documentElement.lang`); got != lang {
			t.Errorf("after ?lang=%s, the next page is lang=%q", lang, got)
		}
		b.pickSeats("E7", "E8")
		b.shot("seatmap-"+lang+"-phone", "#hold-form")
	}
}
