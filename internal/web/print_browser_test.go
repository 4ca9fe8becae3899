package web_test

import (
	"context"
	"encoding/base64"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// receiptWidth is 80 mm in PDF points (1/72 inch).
const receiptWidth = 80 / 25.4 * 72

// mediaBox finds the page sizes of a PDF: each /MediaBox [x0 y0 x1 y1].
var mediaBox = regexp.MustCompile(`/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]`)

// pdfPages is the width and height in points of each page of a PDF, read
// from the page objects' /MediaBox (Chromium writes one per page).
func pdfPages(t *testing.T, pdf []byte) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, m := range mediaBox.FindAllSubmatch(pdf, -1) {
		var v [4]float64
		for i := range v {
			f, err := strconv.ParseFloat(string(m[i+1]), 64)
			if err != nil {
				t.Fatalf("MediaBox %s: %v", m[0], err)
			}
			v[i] = f
		}
		out = append(out, [2]float64{v[2] - v[0], v[3] - v[1]})
	}
	return out
}

// stubPrint makes window.print count its calls (window.printCalls) in
// every page the tab opens from now on, instead of opening a dialog.
func stubPrint(br *testkit.Browser) {
	br.T.Helper()
	br.Do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.printCalls = 0; window.print = () => { window.printCalls++; };`,
		})
		return err
	}))
}

// printMedia emulates print media (on), or the screen again (off).
func printMedia(on bool) chromedp.Action[chromedp.Void] {
	media := ""
	if on {
		media = "print"
	}
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	})
}

// awaitJS evaluates expr, a promise, in br's page and returns what it
// resolves to.
func awaitJS[T any](br *testkit.Browser, expr string) T {
	br.T.Helper()
	v, err := chromedp.Run(br.Ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		br.T.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// loadedAndSettled waits for the page's load event and one task after it,
// so that whatever the page does at load has been done.
const loadedAndSettled = `new Promise(r => { const f = () => setTimeout(() => r(true), 0); document.readyState === 'complete' ? f() : addEventListener('load', f) })`

// TestPrintBrowser prints a booking of three seats of three types in a real
// Chromium: ?print=1 opens the print dialog once (and without it, not);
// the Print button opens it; the PDF, at the page's CSS page size, is
// 80 mm wide with one page per seat; at print media the site's header,
// footer and the toolbar are gone, each QR code is at least 30 mm and
// decodes, with the jsQR the door uses, to the ticket code the door admits.
// axe-core finds nothing on the page, on screen and in the dark, nor on the
// answer for a booking that is not confirmed.
func TestPrintBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.zonedTypedShow()
	b := a.bookTyped(booking.TypeChoice{"A1": "adult", "A2": "child", "A3": "senior"}, "A1", "A2", "A3")
	path := a.srv.URL + printPath(b.ID) + "?key=" + url.QueryEscape(b.Key)

	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 409") })
	stubPrint(br)

	// Opened by the counter's link: the print dialog opens once, at load.
	res, err := chromedp.RunResponse(br.Ctx, chromedp.Navigate(path+"&print=1"))
	if err != nil {
		t.Fatalf("opening the print page: %v", err)
	}
	if res.Status != 200 {
		t.Fatalf("the print page is %d, want 200", res.Status)
	}
	br.Do(chromedp.WaitVisible(chromedp.CSS(`[data-ticket]`)))
	if !awaitJS[bool](br, loadedAndSettled+`.then(() => window.printCalls === 1)`) {
		t.Errorf("?print=1 opened the print dialog %v times, want once", testkit.Eval[float64](br, `window.printCalls`))
	}
	// Opened otherwise: no dialog, until Print is pressed.
	br.Do(chromedp.Navigate(path), chromedp.WaitVisible(chromedp.CSS(`[data-print-button]`)))
	if !awaitJS[bool](br, loadedAndSettled+`.then(() => window.printCalls === 0)`) {
		t.Error("the page opened the print dialog without ?print=1")
	}
	if br.JS(`!document.querySelector('[data-print-hint]').hidden`) {
		t.Error("with JavaScript, the page still says to use the browser's Print command")
	}
	br.Do(chromedp.Click(chromedp.CSS(`[data-print-button]`)))
	br.WaitFor(`window.printCalls === 1`, 5*time.Second)
	br.Do(shot("print-screen-phone"))

	testkit.Axe(br, "print page")
	br.Do(darkMode(true))
	testkit.Axe(br, "print page, dark")
	br.Do(darkMode(false))

	// The PDF: 80 mm wide, one page per seat.
	pdf, err := chromedp.Run(br.Ctx, chromedp.PrintToPDF(chromedp.PDFPreferCSSPageSize()))
	if err != nil {
		t.Fatalf("PrintToPDF: %v", err)
	}
	pages := pdfPages(t, pdf)
	if len(pages) != 3 {
		t.Errorf("the PDF has %d pages (%v), want 3: one per seat", len(pages), pages)
	}
	for i, p := range pages {
		if math.Abs(p[0]-receiptWidth) > 1 {
			t.Errorf("PDF page %d is %.2f pt wide, want %.2f (80 mm)", i+1, p[0], receiptWidth)
		}
	}

	// At print media: nothing but the tickets, each QR code scannable.
	br.Do(printMedia(true))
	for _, css := range []string{".site-header", ".site-footer", ".print-toolbar", "[data-sandbox-banner]"} {
		if br.JS(`(() => { const e = document.querySelector('` + css + `'); return e !== null && getComputedStyle(e).display !== 'none' })()`) {
			t.Errorf("%s is printed", css)
		}
	}
	// Each ticket on its own page, whatever its length; none after the last.
	if got := testkit.Eval[string](br, `[...document.querySelectorAll('[data-ticket]')].map(e => getComputedStyle(e).breakAfter).join(' ')`); got != "page page auto" {
		t.Errorf("the tickets break after them %q, want \"page page auto\"", got)
	}
	mm := 96 / 25.4 // CSS pixels
	if w := testkit.Eval[float64](br, `Math.min(...[...document.querySelectorAll('[data-ticket] .ticket-qr')].map(q => q.getBoundingClientRect().width))`); w < 30*mm {
		t.Errorf("a printed QR code is %.1f mm wide, want at least 30", w/mm)
	}
	br.Do(shot("print-media-phone"))
	br.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.createElement('script');
		s.src = document.querySelector('link[rel=stylesheet]').href.replace('css/app.css', 'vendor/jsQR.js');
		document.head.append(s);
	})()`))
	br.WaitFor(`typeof window.jsQR === 'function'`, 5*time.Second)
	for i, seat := range []string{"A1", "A2", "A3"} {
		png, err := chromedp.Run(br.Ctx, chromedp.Screenshot(chromedp.CSS(`[data-ticket][data-seat-id="`+seat+`"] .ticket-qr`)))
		if err != nil {
			t.Fatalf("screenshot of the QR code of %s: %v", seat, err)
		}
		got := awaitJS[string](br, `new Promise(done => {
			const img = new Image();
			img.onload = () => {
				const c = document.createElement('canvas');
				c.width = img.width; c.height = img.height;
				const g = c.getContext('2d');
				g.drawImage(img, 0, 0);
				const r = window.jsQR(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height);
				done(r ? r.data : '');
			};
			img.src = 'data:image/png;base64,`+base64.StdEncoding.EncodeToString(png)+`';
		})`)
		if got != b.TicketCode {
			t.Errorf("ticket %d (%s): the printed QR code decodes to %q, want the ticket code %q", i+1, seat, got, b.TicketCode)
		}
	}
	br.Do(printMedia(false))

	// A booking that is not confirmed: why, and nothing to print.
	pending := a.booking(a.client().mustPay("E1"))
	br.Do(
		chromedp.Navigate(a.srv.URL+printPath(pending.ID)+"?key="+url.QueryEscape(pending.Key)),
		chromedp.WaitVisible(chromedp.CSS(`[data-print][data-state="pending"]`)),
	)
	testkit.Axe(br, "print page, booking not confirmed")
}
