package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// countSeatmapPolls installs a counter of the seat map refreshes really
// sent, as window.seatmapPolls.
const countSeatmapPolls = `(() => { window.seatmapPolls = 0;
  document.addEventListener('htmx:beforeSend', (e) => {
    if (e.detail.elt && e.detail.elt.id === 'seatmap') { window.seatmapPolls++; } });
  return true; })()`

// setVisibility makes the page think its tab is hidden or visible again.
func setVisibility(state string) string {
	return `(() => { Object.defineProperty(document, 'visibilityState', {value: '` + state + `', configurable: true});
  document.dispatchEvent(new Event('visibilitychange')); return true; })()`
}

// The seat map stops refreshing while its tab is hidden and refreshes at
// once when it is shown again.
func TestBrowserSeatMapPausesWhenHidden(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.clock.Set(time.Now().UTC()) // the page's seat rule runs on the browser's clock
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	br.JS(countSeatmapPolls)
	// Refreshes due while hidden are stopped before they are sent; on
	// window, the last listener of their htmx:beforeRequest sees that.
	br.JS(`(() => { window.seatmapPollsHeld = 0;
	  window.addEventListener('htmx:beforeRequest', (e) => {
	    if (e.detail.elt && e.detail.elt.id === 'seatmap' && e.defaultPrevented) { window.seatmapPollsHeld++; } });
	  return true; })()`)
	br.JS(setVisibility("hidden"))
	br.WaitFor(`window.seatmapPollsHeld + window.seatmapPolls >= 1`, 12*time.Second) // the 5 s refresh came
	if !br.JS(`window.seatmapPolls === 0`) {
		t.Error("the seat map refreshed in a hidden tab")
	}
	a.client().mustHold("E5")
	// Showing the tab sends the refresh at once, in the same task as the
	// event (so no regular 5 s poll can pass for it), and its answer is
	// swapped in; the swap gets room for a busy machine.
	if !br.JS(`(() => { Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
	  document.dispatchEvent(new Event('visibilitychange')); return window.seatmapPolls === 1; })()`) {
		t.Error("showing the tab again did not refresh the seat map at once")
	}
	br.WaitFor(`window.seatmapPolls >= 1 && `+testkit.SeatState("E5")+` === 'held'`, 6*time.Second)
}

// "Seat … was just taken" goes away with the next refresh that no longer
// takes anything; a 403 (stale CSRF token) says to reload, with a button.
func TestBrowserMessages(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.clock.Set(time.Now().UTC()) // the page's seat rule runs on the browser's clock
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 403") })
	refresh := `(() => { htmx.trigger('#seatmap', 'seatmap-refresh'); return true; })()`
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
	)
	a.client().mustHold("A1")
	br.JS(refresh)
	// A refresh already in flight drops the triggered one (htmx's default
	// sync), so allow for the next regular one.
	br.WaitFor(`document.querySelector('.holdbar-count').textContent.includes('just taken')`, 7*time.Second)
	a.client().mustHold("B1")
	br.JS(refresh)
	br.WaitFor(testkit.SeatState("B1")+` === 'held'`, 7*time.Second)
	if got := br.Text(".holdbar-count"); strings.Contains(got, "just taken") {
		t.Errorf("hold bar still says %q after a refresh that took nothing", got)
	}

	// The session's token changed under the page: Hold is refused.
	br.JS(`(() => { document.querySelector('meta[name="csrf-token"]').content = 'stale';
	  document.querySelectorAll('input[name="_csrf"]').forEach((i) => { i.value = 'stale'; }); return true; })()`)
	br.Do(chromedp.Click(chromedp.CSS(".holdbar-button")))
	br.WaitFor(`!!document.querySelector('#flash button.flash-reload')`, 3*time.Second)
	if got := br.Text("#flash"); !strings.Contains(got, "Reload the page") {
		t.Errorf("flash after a 403: %q", got)
	}
	if !br.JS(`!!document.querySelector('.holdbar-button')`) {
		t.Error("the 403 replaced the seat map")
	}
}
