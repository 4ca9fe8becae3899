package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// The page keeps time by the server's clock, not the device's: here the
// device runs minutes ahead of the server (the server's clock is set
// behind the browser's). A seat held for one more minute by the server's
// clock stays held on screen, and checkout counts down what the server
// still allows, with Pay enabled.
func TestBrowserUsesServerClock(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	device := time.Now().UTC()
	// Holds made now end at device-1m: already over by the device's clock.
	a.clock.Set(device.Add(-16 * time.Minute))
	a.client().mustHold("A1")

	br := testkit.NewBrowser(t, nil)
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(".countdown")),
	)
	if loc := br.Location(); !strings.Contains(loc, "/holds/") {
		t.Fatalf("after Hold the browser is at %s, want a checkout", loc)
	}
	// The page says 15:00; the countdown, once it ticks by the server's
	// clock, says 14:59 within a second (by the device's, it would say the
	// hold has ended).
	br.WaitFor(`(() => { const e = document.querySelector('.countdown-left');
	  return !!e && /^14:5\d$/.test(e.textContent.trim()); })()`, 10*time.Second)
	if !br.JS(`!document.querySelector('.pay-form button').disabled`) {
		t.Error("Pay is disabled although the server still holds the seats for 15 minutes")
	}

	// 14 minutes later by the server's clock, still one minute ahead of the
	// holds' end, which is a minute past by the device's.
	a.clock.Set(device.Add(-2 * time.Minute))
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	// The seat rule runs as the page's scripts start, then every second.
	br.WaitFor(`document.readyState === 'complete'`, 10*time.Second)
	for seat, want := range map[string]string{"A1": "held", "A2": "mine"} {
		if !br.JS(testkit.SeatState(seat) + ` === '` + want + `'`) {
			t.Errorf("seat %s is no longer %s on screen, though the server holds it for another minute", seat, want)
		}
	}
	// By the server's clock the holds do end: eight seconds before (room
	// for a slow page load on a busy machine; by the device's clock they
	// ended a minute ago), the map still shows A1 held, then frees it on
	// time with no round trip (the server's clock stands still here, so a
	// refresh would still say held).
	const before = 8 * time.Second
	a.clock.Set(device.Add(-time.Minute - before))
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	if !br.JS(testkit.SeatState("A1") + ` === 'held'`) {
		t.Fatalf("A1 is not held %s before its hold ends by the server's clock (it ended a minute ago by the device's)", before)
	}
	br.WaitFor(testkit.SeatState("A1")+` === 'available'`, before+5*time.Second)
}
