package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestBrowserPayment is the whole journey in a real headless Chromium: seat
// map, pick seats, Hold, Pay, the sandbox's Pay, and the booking page
// turning confirmed with its ticket code and QR code once the sandbox's
// callback has landed; then the same with Decline, which ends failed with a
// way back to the seat map. See testkit.NeedBrowser for when it skips.
func TestBrowserPayment(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)

	checkout := func(seats ...string) {
		t.Helper()
		steps := []chromedp.Action[chromedp.Void]{
			chromedp.Navigate(a.srv.URL + "/shows/" + testShowID),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		}
		for _, s := range seats {
			steps = append(steps, chromedp.Click(chromedp.CSS(`.seat[data-seat-id="`+s+`"]`)))
		}
		steps = append(steps,
			chromedp.Click(chromedp.CSS(".holdbar-button")),
			chromedp.WaitVisible(chromedp.CSS(".pay-form button")),
			chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
			chromedp.Click(chromedp.CSS(".pay-form button")),
			chromedp.WaitVisible(chromedp.CSS(`.sandbox__actions`)),
		)
		br.Do(steps...)
		if loc := br.Location(); !strings.HasPrefix(loc, a.srv.URL+"/sandbox/checkout/") {
			t.Fatalf("after Pay the browser is at %s, want the sandbox's checkout", loc)
		}
	}
	booking := `document.querySelector('[data-booking-id]')`

	// Pay.
	checkout("D5", "D6")
	if amount := br.Text(".sandbox__amount"); amount != "₹500" {
		t.Errorf("the sandbox asks for %q, want ₹500", amount)
	}
	br.Do(
		shot("sandbox-phone"),
		chromedp.Click(chromedp.CSS(`button[value="succeed"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	if loc := br.Location(); !strings.Contains(loc, "/bookings/") {
		t.Errorf("after the sandbox's Pay the browser is at %s", loc)
	}
	br.WaitFor(booking+`.dataset.state === 'confirmed'`, 10*time.Second)
	if !br.JS(`/^[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(` + booking + `.dataset.ticketCode)`) {
		t.Error("confirmed booking has no ticket code in data-ticket-code")
	}
	if !br.JS(`document.querySelectorAll('svg.ticket-qr g rect').length > 20 && document.querySelector('svg.ticket-qr').getBoundingClientRect().width >= 150`) {
		t.Error("no QR code drawn, or drawn too small to scan")
	}
	if code := br.Text(".ticket-code strong"); !br.JS(booking + `.dataset.ticketCode === '` + code + `'`) {
		t.Errorf("the ticket code shown, %q, is not data-ticket-code", code)
	}
	br.Do(shot("booking-confirmed-phone"))

	// Decline.
	checkout("B3")
	br.Do(
		chromedp.Click(chromedp.CSS(`button[value="decline"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	br.WaitFor(booking+`.dataset.state === 'failed'`, 10*time.Second)
	if br.JS(booking + `.hasAttribute('data-ticket-code')`) {
		t.Error("a declined booking has a ticket code")
	}
	br.Do(
		shot("booking-failed-phone"),
		chromedp.Click(chromedp.CSS(`[data-booking-id] a[href="/shows/`+testShowID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("#seatmap")),
	)
	br.WaitFor(testkit.SeatState("B3")+` === 'available' && `+testkit.SeatState("D5")+` === 'booked'`, 3*time.Second)
}
