package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
	"boxoffice/internal/testkit"
)

// TestBrowserScriptsHaveFonts: Devanagari and Tamil are drawn with real
// glyphs, not the empty boxes of a missing font (fonts-noto-core, which
// .ci/run installs). A box is the same for every letter; real letters
// differ in width, and differ from the box of a character no font has.
func TestBrowserScriptsHaveFonts(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	br := testkit.NewBrowser(t, nil)
	br.Do(chromedp.Navigate(a.srv.URL+"/?lang=hi"), chromedp.WaitVisible(chromedp.CSS("main")))
	for script, letters := range map[string]string{"Devanagari": "कमिठ", "Tamil": "கமிழ"} {
		widths := testkit.Eval[[]float64](br, `(() => {
		  const c = document.createElement('canvas').getContext('2d');
		  c.font = '16px ' + getComputedStyle(document.body).fontFamily;
		  const box = c.measureText('\uE000').width; // private use: no font has it
		  return [box, ...[...'`+letters+`'].map((ch) => c.measureText(ch).width)];
		})()`)
		box, got := widths[0], widths[1:]
		distinct := map[float64]bool{}
		for _, w := range got {
			if w <= 0 {
				t.Errorf("%s: a letter has width %v", script, w)
			}
			distinct[w] = true
		}
		if len(distinct) == 1 && got[0] == box {
			t.Errorf("%s letters %q are drawn as empty boxes (widths %v, a box is %v): install fonts-noto-core", script, letters, got, box)
		}
	}
}

// TestBrowserSeatMapInHindi: on a phone, the seat map in Hindi and Tamil
// has <html lang> and no English, also in what the scripts write (the hold
// bar after a seat is chosen), and no axe violation; so do the checkout,
// the sandbox's checkout and the booking that follow, and the listing and
// find-my-booking before them (<html lang> and axe).
func TestBrowserSeatMapInHindi(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	for _, tc := range []struct {
		lang i18n.Lang
		hold string
		seat string
	}{{i18n.Hindi, "1 सीट रोकें", "D5"}, {i18n.Tamil, "1 இருக்கையை ஒதுக்கு", "D6"}} {
		// The listing and find-my-booking first, in the language chosen.
		for _, p := range []struct{ name, path string }{{"listing", "/?lang=" + string(tc.lang)}, {"find my booking", "/bookings/find"}} {
			br.Do(chromedp.Navigate(a.srv.URL+p.path), chromedp.WaitVisible(chromedp.CSS("main")))
			if lang := testkit.Eval[string](br, `document.documentElement.lang`); lang != string(tc.lang) {
				t.Errorf("%s: <html lang=%q>; want %s", p.name, lang, tc.lang)
			}
			testkit.Axe(br, p.name+" in "+string(tc.lang)+", phone")
		}
		br.Do(
			chromedp.Navigate(a.srv.URL+"/shows/"+testShowID+"?lang="+string(tc.lang)),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		)
		if lang := testkit.Eval[string](br, `document.documentElement.lang`); lang != string(tc.lang) {
			t.Errorf("<html lang=%q>; want %s", lang, tc.lang)
		}
		br.Do(chromedp.Click(chromedp.CSS(`.seat[data-seat-id="` + tc.seat + `"]`)))
		br.WaitFor(`document.querySelector('[data-seat-id=`+tc.seat+`] input').checked`, 5*time.Second)
		if got := strings.TrimSpace(br.Text(".holdbar-button")); got != tc.hold {
			t.Errorf("%s: the hold button reads %q after one seat; want %q", tc.lang, got, tc.hold)
		}
		page := testkit.Eval[string](br, `document.documentElement.outerHTML`)
		i18ntest.Check(t, "seat map with a seat chosen", page, tc.lang)
		testkit.Axe(br, "seat map in "+string(tc.lang)+", phone")

		// Then the checkout, the sandbox's checkout and the booking, in
		// the same language, by the buyer's path.
		br.Do(
			chromedp.Click(chromedp.CSS(".holdbar-button")),
			chromedp.WaitVisible(chromedp.CSS(".pay-form button")),
		)
		i18ntest.Check(t, "checkout", testkit.Eval[string](br, `document.documentElement.outerHTML`), tc.lang)
		testkit.Axe(br, "checkout in "+string(tc.lang)+", phone")
		br.Do(
			chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
			chromedp.Click(chromedp.CSS(".pay-form button")),
			chromedp.WaitVisible(chromedp.CSS(`.sandbox__actions`)),
		)
		i18ntest.Check(t, "sandbox checkout", testkit.Eval[string](br, `document.documentElement.outerHTML`), tc.lang)
		testkit.Axe(br, "sandbox checkout in "+string(tc.lang))
		br.Do(
			chromedp.Click(chromedp.CSS(`button[value="succeed"]`)),
			chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
		)
		br.WaitFor(`document.querySelector('[data-booking-id]').dataset.state === 'confirmed'`, 10*time.Second)
		i18ntest.Check(t, "booking", testkit.Eval[string](br, `document.documentElement.outerHTML`), tc.lang)
		testkit.Axe(br, "booking in "+string(tc.lang)+", phone")
	}
}
