package web_test

import (
	"context"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"boxoffice/internal/testkit"
)

// TestBrowserCounterSale sells at the box office with the keyboard alone,
// on a tablet-sized window: Tab to the map (one tab stop), the arrow keys
// and Space to tick two seats, Enter on Hold; on the hold's page a type
// by the arrow keys, cash tendered typed, Enter on Sell; the answer shows
// the ticket code and a QR code to scan from the screen, and the change,
// and links to the print page, printing as it opens (?print=1); its
// script (counterprint.js) prints the page itself once it loaded, once,
// with Chromium's pop-up blocker on, as on any counter's computer, and
// opens no window (nor frame); the page prints to a PDF 80 mm wide with
// one page per seat (its tickets, shown in print media only), and so does
// the print page. Another sale refunded at the counter in the browser, the
// cash-up's cells add up (sales, cash, cash refunds, net = cash − cash
// refunds); the counter's search finds the first sale by its ticket code.
// axe-core finds no violation on the counter's pages on the way.
func TestBrowserCounterSale(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newCounterApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	// Chromium's pop-up blocker on, as on any counter's computer: it
	// blocks a window opened by a page that no click opened.
	br := testkit.NewBrowser(t, nil)
	br.Do(chromedp.EmulateViewport(820, 1180)) // a tablet, upright
	watchCounterPrint(br)
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
	// On screen: the ticket code and a QR code large enough to scan, and
	// none of the tickets the page prints.
	if !br.JS(`(() => { const c = document.querySelector('.counter-ticket [data-ticket-code]');
  return !!c && c.checkVisibility() && c.textContent.trim() !== ''; })()`) {
		t.Error("the answer does not show its ticket code")
	}
	if !br.JS(`(() => { const q = document.querySelector('.counter-qr svg.ticket-qr');
  return !!q && q.checkVisibility() && q.getBoundingClientRect().width >= 240; })()`) {
		t.Error("the answer's QR code is missing, hidden or smaller than 240 px")
	}
	if got := testkit.Eval[int](br, `[...document.querySelectorAll('[data-ticket]')].filter(e => e.checkVisibility()).length`); got != 0 {
		t.Errorf("%d printed tickets show on screen, want none (print media only)", got)
	}

	// The answer's script printed the page itself, once, after it had
	// loaded with its 2 tickets; it opened no window and no frame, and the
	// focus is on the Print link.
	br.WaitFor(`window.counterPrinted.length > 0`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // a second print would be there by now
	sale := testkit.Eval[string](br, `location.pathname + location.search`)
	if got := testkit.Eval[[]string](br, `window.counterPrinted`); len(got) != 1 || got[0] != sale+" 2" {
		t.Errorf("the answer printed %q, want the page itself (%s) with its 2 tickets, once", got, sale)
	}
	if opened := testkit.Eval[[]string](br, `window.counterOpened`); len(opened) != 0 {
		t.Errorf("the answer opened windows %q, want none", opened)
	}
	if n := testkit.Eval[int](br, `document.querySelectorAll('iframe').length`); n != 0 {
		t.Errorf("the answer has %d frames, want none", n)
	}
	targets, err := chromedp.Targets(br.Ctx)
	if err != nil {
		t.Fatalf("Targets: %v", err)
	}
	tabs := 0
	for _, ti := range targets {
		if ti.Type == "page" {
			tabs++
		}
	}
	if tabs != 1 {
		t.Errorf("%d tabs or windows open, want 1: the answer opened a pop-up", tabs)
	}
	if !br.JS(`document.activeElement === document.querySelector('a[data-print-url]')`) {
		t.Errorf("after printing, the focus is on %s, want the Print link", testkit.Eval[string](br, `document.activeElement.outerHTML.slice(0, 120)`))
	}
	link := testkit.Eval[string](br, `document.querySelector('a[data-print-url]').getAttribute('data-print-url')`)
	if got := testkit.Eval[string](br, `document.querySelector('a[data-print-url]').getAttribute('href')`); got != link+"?print=1" {
		t.Errorf("the Print link goes to %q, want %s?print=1", got, link)
	}
	testkit.Axe(br, "counter sale")

	code := testkit.Eval[string](br, `document.querySelector('.counter-ticket [data-ticket-code]').textContent.trim()`)

	// The sale's tickets, printed to PDF as the counter's printer would,
	// from the answer to Sell and from the print page: 80 mm wide, one
	// page per seat.
	printPDF := func(what string) {
		t.Helper()
		pdf, err := chromedp.Run(br.Ctx, chromedp.PrintToPDF(chromedp.PDFPreferCSSPageSize()))
		if err != nil {
			t.Fatalf("PrintToPDF of %s: %v", what, err)
		}
		pages := pdfPages(t, pdf)
		if len(pages) != 2 {
			t.Errorf("the PDF of %s has %d pages (%v), want 2: one per seat", what, len(pages), pages)
		}
		for i, p := range pages {
			if math.Abs(p[0]-receiptWidth) > 1 {
				t.Errorf("the PDF of %s: page %d is %.2f pt wide, want %.2f (80 mm)", what, i+1, p[0], receiptWidth)
			}
		}
	}
	if got := testkit.Eval[string](br, `[...document.querySelectorAll('[data-ticket]')].map(e => e.dataset.seatId + ':' + e.dataset.ticketType + ':' + e.dataset.ticketCode).join(' ')`); got != "A1:adult:"+code+" A2:child:"+code {
		t.Errorf("the answer's printed tickets are %q, want A1:adult:%s A2:child:%s", got, code, code)
	}
	printPDF("the answer to Sell")
	if !strings.HasPrefix(link, "/bookings/") || !strings.HasSuffix(link, "/print") {
		t.Fatalf("the answer's print page is %q", link)
	}
	printURL := link + "?print=1"
	br.Do(chromedp.Navigate(a.srv.URL+link), chromedp.WaitVisible(chromedp.CSS(`[data-ticket]`)))
	if got := testkit.Eval[string](br, `[...document.querySelectorAll('[data-ticket]')].map(e => e.dataset.seatId + ':' + e.dataset.ticketType).join(' ')`); got != "A1:adult A2:child" {
		t.Errorf("the print page's tickets are %q, want A1:adult A2:child", got)
	}
	printPDF("the print page")

	// Another cash sale (36000), refunded at the counter in the browser:
	// the cash-up's cells add up.
	seller := a.staffClient(staffEmail, staffPassword)
	other := seller.mustSell(seller.mustCounterHold("B1", "B2"), url.Values{"method": {"cash"}})
	br.Do(
		chromedp.Navigate(a.srv.URL+other),
		chromedp.WaitVisible(chromedp.CSS(`.counter-refund-form button[type=submit]`)),
		chromedp.Click(chromedp.CSS(`.counter-refund-form button[type=submit]`)),
	)
	br.WaitFor(`!!document.querySelector('[data-booking-id][data-state="refunded"]')`, 10*time.Second)
	br.Do(chromedp.Navigate(a.srv.URL+"/admin/boxoffice/cashup"), chromedp.WaitVisible(chromedp.CSS(`[data-staff]`)))
	cells := testkit.Eval[map[string]float64](br, `Object.fromEntries([...document.querySelectorAll('[data-staff="`+staffEmail+`"] [data-col]')].map(c => [c.dataset.col, Number(c.dataset.value)]))`)
	want := map[string]float64{"sales": 2, "seats": 4, "cash": 27000 + 36000, "card": 0, "comp": 0, "cash_refunds": 36000, "card_refunds": 0, "net": 27000}
	for col, v := range want {
		if cells[col] != v {
			t.Errorf("cash-up %s = %v, want %v (cells %v)", col, cells[col], v, cells)
		}
	}
	if cells["net"] != cells["cash"]-cells["cash_refunds"] {
		t.Errorf("cash-up net %v is not cash %v minus cash refunds %v", cells["net"], cells["cash"], cells["cash_refunds"])
	}
	testkit.Axe(br, "cash-up")

	// Found again by its ticket code, to print again.
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin/boxoffice?show="+url.QueryEscape(typedShowID)+"&find="+url.QueryEscape(code)),
		chromedp.WaitVisible(chromedp.CSS(`[data-found-booking] a[data-print-url]`)),
	)
	if got := testkit.Eval[string](br, `document.querySelector('a[data-print-url]').getAttribute('href')`); got != printURL {
		t.Errorf("the search's print link is %q, want %q", got, printURL)
	}
	testkit.Axe(br, "box office search")
}

// watchCounterPrint makes every page the tab opens from now on record
// what counterprint.js does instead of opening a print dialog: the
// addresses given to window.open (window.counterOpened, the window opened
// all the same), and each print (window.counterPrinted) as "PATH N", PATH
// with its query and N its [data-ticket].
func watchCounterPrint(br *testkit.Browser) {
	br.T.Helper()
	br.Do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
(() => {
  window.counterOpened = [];
  window.counterPrinted = [];
  const open = window.open;
  window.open = function (url, ...rest) {
    window.counterOpened.push(String(url));
    return open.call(window, url, ...rest);
  };
  window.print = function () {
    window.counterPrinted.push(location.pathname + location.search + ' ' + document.querySelectorAll('[data-ticket]').length);
  };
})();`})
		return err
	}))
}
