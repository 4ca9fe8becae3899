package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestGapJourney: with SEAT_GAPS=refuse (the default), a seat that would
// leave its neighbour alone at the row's end is refused in place (422,
// data-gap-seat), with the nearest choice that leaves none ticked, and one
// more press of Hold takes it. Best available ticks its block on the map
// for the moviegoer to hold as it is.
func TestGapJourney(t *testing.T) {
	s := startServer(t, "SEAT_GAPS=refuse")
	showID := s.showIDs(t)[0]
	// The refused hold's 422 is logged by the browser as a failed load.
	b := newBrowser(t, "gaps", func(text string) bool { return strings.Contains(text, "422") })
	b.open(s, "/shows/"+showID, ".holdbar-button")
	b.pickSeats("B2")
	b.Do(chromedp.Click(chromedp.CSS(".holdbar-button")))
	b.WaitFor(`!!document.querySelector('[data-gap-seat="B1"]')`, 5*time.Second)
	if !b.JS(`document.querySelector('[data-seat-id=B1] input').checked && !document.querySelector('[data-seat-id=B2] input').checked`) {
		t.Error("the suggestion B1 is not what is ticked after the refusal")
	}
	b.holdSeats()
	if got := eval[string](b, `[...document.querySelectorAll('.checkout [data-seat-id]')].map(e => e.dataset.seatId).join(',')`); got != "B1" {
		t.Errorf("held %q, want B1", got)
	}

	best := newBrowser(t, "best", nil)
	best.open(s, "/shows/"+showID+"?best=3", ".holdbar-button")
	ids := eval[string](best, `[...document.querySelectorAll('[data-suggested]')].map(e => e.dataset.seatId).join(',')`)
	if n := eval[int](best, `document.querySelectorAll('[data-suggested] input:checked').length`); n != 3 || ids == "" {
		t.Fatalf("best 3: %d ticked of %q", n, ids)
	}
	best.holdSeats()
	if got := eval[string](best, `[...document.querySelectorAll('.checkout [data-seat-id]')].map(e => e.dataset.seatId).join(',')`); got != ids {
		t.Errorf("held %q, want the suggested %q", got, ids)
	}
}
