package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestBrowserHoldBest: with JavaScript, "Hold best seats" posts with htmx:
// when the block is gone it says so in place, keeping the map and the
// page, and when a block is free it goes to the checkout.
func TestBrowserHoldBest(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	// A refused one-step hold is answered in place; the browser logs it.
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 409") })
	br.Do(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID+"?best=2&category=Prime"),
		chromedp.WaitVisible(chromedp.CSS("form[data-best-hold] button")),
	)
	// Meanwhile every pair of Prime seats goes.
	a.book("D2", "D3")
	a.book("D4", "D6", "E1")
	a.book("E3", "E5")
	br.Do(chromedp.Click(chromedp.CSS("form[data-best-hold] button")))
	br.WaitFor(`(document.getElementById('seatmap-answer') || {}).textContent.includes('no longer 2 seats together free in Prime')`, 5*time.Second)
	if loc := br.Location(); strings.Contains(loc, "/holds/") {
		t.Fatalf("a refused one-step hold left the map for %s", loc)
	}
	if !br.JS(`document.querySelectorAll('#seatmap [data-seat-id]').length > 0`) {
		t.Error("the map is gone after the refusal")
	}

	// A block of two is still free outside Prime: the one-step hold takes it.
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID+"?best=2"),
		chromedp.WaitVisible(chromedp.CSS("form[data-best-hold] button")),
		chromedp.Click(chromedp.CSS("form[data-best-hold] button")),
		chromedp.WaitVisible(chromedp.CSS(".countdown")),
	)
	if loc := br.Location(); !strings.Contains(loc, "/holds/") {
		t.Errorf("after Hold best seats the browser is at %s", loc)
	}
}
