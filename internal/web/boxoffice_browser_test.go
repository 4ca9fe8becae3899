package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestBrowserCounterSale sells at the box office with the keyboard alone,
// on a tablet-sized window: Tab to the map (one tab stop), the arrow keys
// and Space to tick two seats, Enter on Hold; on the hold's page a type
// by the arrow keys, cash tendered typed, Enter on Sell; the answer shows
// the ticket and the change, and links to the print page. axe-core finds
// no violation on the counter's pages on the way.
func TestBrowserCounterSale(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newCounterApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	// The print page opened after the sale may not be there in this
	// build; its window's console is another target's.
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 404") })
	br.Do(chromedp.EmulateViewport(820, 1180)) // a tablet, upright
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin/login"),
		chromedp.WaitVisible(chromedp.CSS("#password")),
		chromedp.SendKeys(chromedp.CSS(`#email`), staffEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), staffPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-door-code]`)),
		chromedp.Navigate(a.srv.URL+"/admin/boxoffice?show="+url.QueryEscape(typedShowID)),
		chromedp.WaitVisible(chromedp.CSS(`.counter-hold-form`)),
	)
	testkit.Axe(br, "box office")

	focused := `document.activeElement`
	tabTo := func(what, expr string) {
		t.Helper()
		for range 80 {
			if br.JS(focused + expr) {
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	tabTo("the map", `.name === 'seat'`)
	if v := testkit.Eval[string](br, focused+`.value`); v != "A1" {
		t.Fatalf("the map's tab stop is %q, want A1", v)
	}
	br.Do(chromedp.KeyEvent(" "), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(" "))
	tabTo("Hold", `.matches('.counter-hold-form button[type=submit]')`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`location.pathname.startsWith('/admin/boxoffice/holds/') && !!document.querySelector('select[name="type_A2"]')`, 10*time.Second)
	testkit.Axe(br, "counter hold")

	tabTo("A2's type", `.name === 'type_A2'`)
	br.Do(chromedp.KeyEvent(kb.ArrowDown)) // adult → child
	if v := testkit.Eval[string](br, focused+`.value`); v != "child" {
		t.Errorf("A2's type after ArrowDown is %q, want child", v)
	}
	tabTo("the cash tendered", `.id === 'counter-tendered'`)
	br.Do(chromedp.KeyEvent("500"))
	tabTo("Sell", `.matches('.counter-sell-form .btn-primary')`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`location.pathname.startsWith('/admin/boxoffice/bookings/') && !!document.querySelector('[data-booking-id]')`, 10*time.Second)
	for expr, want := range map[string]string{
		`document.querySelector('[data-booking-id]').dataset.state`:   "confirmed",
		`document.querySelector('[data-booking-id]').dataset.channel`: "box_office",
		`document.querySelector('[data-booking-id]').dataset.amount`:  "27000",
		`document.querySelector('[data-change] strong').textContent`:  "₹230",
	} {
		if got := testkit.Eval[string](br, expr); got != want {
			t.Errorf("%s = %q, want %q", expr, got, want)
		}
	}
	if !br.JS(`!!document.querySelector('svg.ticket-qr') && document.querySelector('svg.ticket-qr').getBoundingClientRect().width >= 240`) {
		t.Error("the answer's QR code is missing or smaller than 240 px")
	}
	testkit.Axe(br, "counter sale")
	br.Do(chromedp.Navigate(a.srv.URL+"/admin/boxoffice/cashup"), chromedp.WaitVisible(chromedp.CSS(`[data-staff]`)))
	testkit.Axe(br, "cash-up")
}
