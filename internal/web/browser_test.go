package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestBrowser drives the seat map in a real headless Chromium: the running
// total, the client-side seat rule, the live refresh that keeps the
// selection (with 304s), hold and Back, an in-place conflict, and no CSP
// violation or script error on the way. See testkit.NeedBrowser for when it skips.
func TestBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	now := time.Now().UTC().Round(0)
	// B2 is held by someone else, and the hold lapses 8 s from now: time
	// for the page to load and show it held, even on a busy machine.
	a.clock.Set(now.Add(-15*time.Minute + 8*time.Second))
	a.client().mustHold("B2")
	a.clock.Set(now)
	a.book("C1", "C2")

	// A 409 answered in place is expected; the browser logs it anyway.
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 409") })

	// Choose two seats: the running total follows.
	br.Do(
		chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
	)
	if total := br.Text(".holdbar-total"); total != "₹360" {
		t.Errorf("running total %q, want ₹360", total)
	}
	if b := br.Text(".holdbar-button"); b != "Hold 2 seats" {
		t.Errorf("hold button says %q", b)
	}

	// The seat rule in the browser: B2 frees itself when its hold lapses.
	if !br.JS(testkit.SeatState("B2") + ` === 'held'`) {
		t.Error("B2 is not shown held")
	}
	br.WaitFor(testkit.SeatState("B2")+` === 'available' && !document.querySelector('[data-seat-id=B2] input').disabled`, 12*time.Second)

	// Someone else holds E5: the refresh shows it and keeps our choice.
	a.client().mustHold("E5")
	br.WaitFor(testkit.SeatState("E5")+` === 'held'`, 8*time.Second)
	if !br.JS(`document.querySelector('[data-seat-id=A1] input').checked && document.querySelector('[data-seat-id=A2] input').checked`) {
		t.Error("the refresh lost the selection")
	}
	// Nothing changes now: the next refresh gets 304 and the map stays.
	br.JS(`(() => { window.seatmap304s = 0;
	  window.addEventListener('htmx:afterRequest', (e) => {
	    if (e.detail.elt && e.detail.elt.id === 'seatmap' && e.detail.xhr.status === 304) { window.seatmap304s++; } });
	  return true; })()`)
	br.WaitFor(`window.seatmap304s >= 1`, 12*time.Second)
	if !br.JS(`document.querySelectorAll('[data-seat-id]').length === 30 && document.querySelector('[data-seat-id=A1] input').checked`) {
		t.Error("the map or the selection is gone after an unchanged refresh")
	}
	if m := a.client().get("/metrics").body; !strings.Contains(m, `code="304",method="GET",route="/shows/:showID/seats"`) {
		t.Error("no refresh was answered 304")
	}
	br.Do(shot("seatmap-phone"))

	// Hold: checkout with its countdown.
	br.Do(
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(".countdown")),
	)
	if loc := br.Location(); !strings.Contains(loc, "/holds/") {
		t.Errorf("after Hold the browser is at %s", loc)
	}
	if !br.JS(`document.querySelector('[data-amount]').dataset.amount === '36000'`) {
		t.Error("checkout amount is not 36000")
	}
	br.WaitFor(`/^1[45]:[0-5][0-9]$/.test(document.querySelector('.countdown-left').textContent)`, 3*time.Second)
	br.Do(shot("checkout-phone"))

	// Back: the seats are free again and we are on the map.
	br.Do(
		chromedp.Click(chromedp.CSS(".release-form button")),
		chromedp.WaitVisible(chromedp.CSS("#seatmap")),
	)
	br.WaitFor(testkit.SeatState("A1")+` === 'available'`, 3*time.Second)

	// A conflict answered in place: A3 is lost, A4 stays chosen.
	br.Do(
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A3"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A4"]`)),
	)
	a.client().mustHold("A3")
	br.Do(
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`[data-conflict]`)),
	)
	if !br.JS(`document.querySelector('#seatmap-answer [role=alert]').textContent.includes('A3') && document.querySelector('[data-seat-id=A4] input').checked`) {
		t.Error("conflict message does not name A3, or A4 lost its selection")
	}
	br.Do(shot("conflict-phone"))

	// Laptop, dark.
	br.Do(
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
			})
			return err
		}),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="D4"]`)),
		shot("seatmap-laptop-dark"),
	)
}
