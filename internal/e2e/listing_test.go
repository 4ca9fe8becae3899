package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestListing: the listing of the demo catalog on a laptop and on a 390 px
// phone never scrolls sideways; a city chosen with its form (no
// JavaScript needed: a GET form) is remembered on the next visit; and by
// keyboard alone, from the top of the page, Tab reaches the date strip,
// Enter opens another date, and Tab and Enter go on to a showtime's seat
// map, every focus visible.
func TestListing(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	br := newBrowser(t, "moviegoer", nil)
	const width = `document.scrollingElement.scrollWidth`

	br.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	br.open(s, "/", "a[data-show-id]")
	if w := eval[int](br, width); w > laptopWidth {
		t.Errorf("the listing is %d px wide on a %d px laptop", w, laptopWidth)
	}
	br.shot("home-laptop", "")

	br.Do(chromedp.EmulateViewport(phoneWidth, phoneHeight))
	br.open(s, "/", "a[data-show-id]")
	if w := eval[int](br, width); w > phoneWidth {
		t.Errorf("the listing is %d px wide on a %d px phone: it scrolls sideways", w, phoneWidth)
	}
	br.shot("home-phone", "")

	// A city, chosen in the form and remembered.
	br.Do(
		chromedp.SetValue(chromedp.CSS(`#city`), "Chennai"),
		chromedp.Click(chromedp.CSS(`.city-form button`)),
	)
	br.WaitFor(`location.search.includes('city=Chennai') && document.readyState === 'complete'`, 10*time.Second)
	cities := eval[[]string](br, `[...document.querySelectorAll('.listing .theatre-name .muted')].map((e) => e.textContent.trim())`)
	if len(cities) == 0 {
		t.Fatal("Chennai lists no theatre")
	}
	for _, c := range cities {
		if c != "Chennai" {
			t.Errorf("Chennai's listing has a theatre in %s", c)
		}
	}
	br.open(s, "/", "nav.date-strip")
	if h := strings.Join(strings.Fields(br.text("h1")), " "); h != "Now showing in Chennai" {
		t.Errorf("back on /, the heading reads %q: the city is not remembered", h)
	}
	if w := eval[int](br, width); w > phoneWidth {
		t.Errorf("Chennai's listing is %d px wide on a %d px phone", w, phoneWidth)
	}

	// The keyboard: Tab to the strip, to another date, Enter; Tab to a
	// showtime, Enter.
	focused := `document.activeElement`
	focusVisible := focused + `.matches(':focus-visible') && getComputedStyle(` + focused + `).outlineStyle !== 'none'`
	tabTo := func(what, expr string) {
		t.Helper()
		for range 300 {
			if br.JS(expr) {
				if !br.JS(focusVisible) {
					t.Errorf("%s has focus, but no visible focus ring", what)
				}
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	tabTo("the date strip", focused+`.matches('nav.date-strip a')`)
	tabTo("another date with shows", focused+`.matches('nav.date-strip a:not([aria-current]):not(.date-empty)')`)
	date := eval[string](br, focused+`.dataset.date`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`document.readyState === 'complete' && location.search === '?date=`+date+`' &&
	  document.querySelector('nav.date-strip a[aria-current="date"]').dataset.date === '`+date+`'`, 10*time.Second)
	tabTo("a showtime", focused+`.matches('a[data-show-id]')`)
	showID := eval[string](br, focused+`.dataset.showId`)
	br.Do(
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	if loc := br.Location(); loc != s.URL+"/shows/"+showID {
		t.Errorf("Enter on showtime %s led to %s", showID, loc)
	}
}
