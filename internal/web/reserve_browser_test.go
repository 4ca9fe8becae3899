package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestBrowserReserveByKeyboard keeps two seats for the counter from the
// show's admin page with the keyboard alone (SPEC §16): Tab to A1's box,
// Space ticks it, Tab to A2's, Space; Tab to "House", Space; Tab to "Save
// seats", Enter. The page comes back with both marked house and counted
// reserved.
func TestBrowserReserveByKeyboard(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin/login"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id="`+testShowID+`"]`)),
		chromedp.Navigate(a.srv.URL+"/admin/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(`form[data-reserve-form]`)),
	)
	focused := `document.activeElement`
	tabTo := func(what, expr string) {
		t.Helper()
		for range 300 {
			if br.JS(focused + expr) {
				return
			}
			br.Do(chromedp.KeyEvent(kb.Tab))
		}
		t.Fatalf("Tab never reached %s", what)
	}
	tabTo("A1's box", `.value === 'A1' && `+focused+`.name === 'seat'`)
	br.Do(chromedp.KeyEvent(" "))
	tabTo("A2's box", `.value === 'A2' && `+focused+`.name === 'seat'`)
	br.Do(chromedp.KeyEvent(" "))
	tabTo("the reserve choice", `.name === 'reserve'`)
	// The radio group is one tab stop; the arrows choose within it.
	for range 3 {
		if br.JS(focused + `.value === 'house'`) {
			break
		}
		br.Do(chromedp.KeyEvent(kb.ArrowDown))
	}
	br.Do(chromedp.KeyEvent(" "))
	tabTo("Save seats", `.type === 'submit' && `+focused+`.closest('form[data-reserve-form]') !== null`)
	br.Do(chromedp.KeyEvent(kb.Enter))
	br.WaitFor(`document.querySelector('.admin-counts [data-count="reserved"]') && document.querySelector('.admin-counts [data-count="reserved"]').textContent === '2'`, 10*time.Second)
	for _, id := range []string{"A1", "A2"} {
		if !br.JS(`document.querySelector('.admin-seatmap .seat[data-seat-id="` + id + `"]').dataset.reserve === 'house'`) {
			t.Errorf("%s is not marked house after the keyboard's save", id)
		}
	}
}
