package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestBrowserCheckoutTypes: in a real Chromium, choosing a seat's ticket
// type at checkout updates the total in place (htmx), the Pay button's
// amount with it, and Pay asks the sandbox for that total.
func TestBrowserCheckoutTypes(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.typedShow()
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+typedShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="D2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`select[name="type_A1"]`)),
	)
	amount := `document.querySelector('[data-amount]').dataset.amount`
	if !br.JS(amount + ` === '43000'`) {
		t.Fatalf("checkout's first total is not 43000 (two adults)")
	}
	br.JS(`(() => { const s = document.querySelector('select[name="type_A1"]'); s.value = 'child'; s.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
	br.WaitFor(amount+` === '34000'`, 10*time.Second)
	if got := br.Text("#pay-total"); got != "₹340" {
		t.Errorf("the Pay button says %q, want ₹340", got)
	}
	br.Do(
		chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`.sandbox__actions`)),
	)
	if loc := br.Location(); !strings.HasPrefix(loc, a.srv.URL+"/sandbox/checkout/") {
		t.Fatalf("after Pay the browser is at %s, want the sandbox's checkout", loc)
	}
	if got := br.Text(".sandbox__amount"); got != "₹340" {
		t.Errorf("the sandbox asks for %q, want ₹340", got)
	}
}
