package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestBrowserMoreTime: the checkout keeps More time out of the way until a
// minute before the hold ends, then announces a warning (aria-live) and
// offers it; pressing it gives the hold HOLD_TTL from now.
func TestBrowserMoreTime(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(".countdown")),
	)
	if !br.JS(`document.querySelector('[data-more-time]').hidden`) {
		t.Error("More time is offered with 15 minutes left")
	}
	a.clock.Advance(14*time.Minute + 30*time.Second)
	br.Do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(".countdown")))
	br.WaitFor(`!document.querySelector('[data-more-time]').hidden`, 3*time.Second)
	warning := br.Text("[data-more-time-warning]")
	if !strings.Contains(warning, "less than a minute") {
		t.Errorf("the warning says %q", warning)
	}
	if live := testkit.Eval[string](br, `document.querySelector('[data-more-time-warning]').getAttribute('aria-live')`); live != "assertive" {
		t.Errorf("the warning's aria-live is %q", live)
	}
	br.Do(chromedp.Click(chromedp.CSS(".more-time-form button")))
	br.WaitFor(`location.search.includes('extended') && !!document.querySelector('.countdown')`, 5*time.Second)
	exp := testkit.Eval[string](br, `document.querySelector('.countdown').dataset.expiresAt`)
	wantExpiry(t, "after More time", exp, a.clock.Now().Add(15*time.Minute))
	if !br.JS(`document.querySelector('[data-more-time]').hidden`) {
		t.Error("More time is still in the way right after it was given")
	}
}
