package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestAdminBrowser signs in with the form in a real Chromium and reads the
// counts of the overview and of the show page: no CSP violation (the
// occupancy bar is SVG attributes only) and no script error on the way.
func TestAdminBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	a.client().mustHold("A1", "A2")
	a.book("C1")
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id="`+testShowID+`"]`)),
		shot("admin-overview"),
	)
	row := `tr[data-show-id="` + testShowID + `"] `
	for kind, want := range map[string]string{"booked": "1", "held": "2", "available": "27"} {
		if got := br.Text(row + `[data-count="` + kind + `"]`); got != want {
			t.Errorf("overview %s = %q, want %s", kind, got, want)
		}
	}
	br.Do(
		chromedp.Click(chromedp.CSS(row+`a`)),
		chromedp.WaitVisible(chromedp.CSS(`.admin-seatmap`)),
		shot("admin-show"),
	)
	br.WaitFor(`document.querySelector('.admin-counts [data-count="held"]').textContent === '2'`, 5*time.Second)
	if !br.JS(`document.querySelector('[data-seat-id="A1"]').dataset.state === 'held'`) {
		t.Error("A1 is not shown held on the admin map")
	}
}
