package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

const bookingElt = `document.querySelector('[data-booking-id]')`

// toSandbox goes from the seat map of showID through Hold and Pay to the
// sandbox provider's checkout page, and returns the hold's amount.
func (b *browser) toSandbox(s *server, showID string, seats ...string) (amount string) {
	b.T.Helper()
	b.open(s, "/shows/"+showID, ".holdbar-button")
	b.pickSeats(seats...)
	b.holdSeats()
	amount = eval[string](b, `document.querySelector('.checkout [data-amount]').dataset.amount`)
	b.Do(
		chromedp.SetValue(chromedp.CSS("#pay-email"), "moviegoer@example.com"),
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`button[value="succeed"]`)),
	)
	if loc := b.Location(); !strings.HasPrefix(loc, s.URL+"/sandbox/checkout/") {
		b.T.Fatalf("%s: after Pay the browser is at %s, want the sandbox's checkout", b.Name, loc)
	}
	return amount
}

// sandbox presses Pay ("succeed") or Decline on the sandbox's checkout
// page, and waits on the booking page until the sandbox's callback has
// reached boxoffice and the booking is in state want.
func (b *browser) sandbox(outcome, want string) {
	b.T.Helper()
	b.Do(
		chromedp.Click(chromedp.CSS(`button[value="`+outcome+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	if loc := b.Location(); !strings.Contains(loc, "/bookings/") {
		b.T.Fatalf("%s: after the sandbox's %s the browser is at %s", b.Name, outcome, loc)
	}
	// The page shows pending until the callback lands, then follows it.
	b.WaitFor(bookingElt+`.dataset.state === '`+want+`'`, 15*time.Second)
}

// buy books seats of showID through the whole payment journey.
func (b *browser) buy(s *server, showID string, seats ...string) {
	b.T.Helper()
	b.toSandbox(s, showID, seats...)
	b.sandbox("succeed", "confirmed")
}

// TestPaymentJourney: seat map, seats, Hold, Pay, the sandbox's Pay, and
// the booking page turning confirmed with a ticket code and a QR code once
// the sandbox's signed callback has reached the process over HTTP; then the
// same with Decline, which ends failed and frees the seats.
func TestPaymentJourney(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t)
	showID := s.showIDs(t)[4]
	br := newBrowser(t, "buyer", nil)

	// Pay.
	amount := br.toSandbox(s, showID, "D5", "D6")
	if !br.JS(`document.body.textContent.includes('₹')`) {
		t.Error("the sandbox's checkout shows no amount in rupees")
	}
	br.shot("sandbox-phone", "")
	br.sandbox("succeed", "confirmed")
	if !br.JS(`/^[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(` + bookingElt + `.dataset.ticketCode)`) {
		t.Errorf("confirmed booking's data-ticket-code is %q", eval[string](br, bookingElt+`.dataset.ticketCode || ''`))
	}
	if code := br.text(".ticket-code strong"); !br.JS(bookingElt + `.dataset.ticketCode === '` + code + `'`) {
		t.Errorf("the ticket code shown, %q, is not data-ticket-code", code)
	}
	if !br.JS(`!!document.querySelector('svg.ticket-qr') && document.querySelectorAll('svg.ticket-qr rect').length > 20 &&
		document.querySelector('svg.ticket-qr').getBoundingClientRect().width >= 150`) {
		t.Error("no QR code SVG, or one too small to scan")
	}
	if got := eval[string](br, bookingElt+`.querySelector('[data-amount]').dataset.amount`); got != amount {
		t.Errorf("booking's amount %s, want the hold's %s", got, amount)
	}
	if !br.JS(`['D5', 'D6'].every((s) => document.querySelector('.booking-seats').textContent.includes(s))`) {
		t.Errorf("booking's seats %q, want D5 and D6", br.text(".booking-seats"))
	}
	br.shot("booking-confirmed-phone", "")

	// Decline.
	br.toSandbox(s, showID, "B3")
	br.sandbox("decline", "failed")
	if br.JS(bookingElt + `.hasAttribute('data-ticket-code')`) {
		t.Error("a declined booking has a ticket code")
	}
	br.shot("booking-failed-phone", "")
	br.Do(
		chromedp.Click(chromedp.CSS(`[data-booking-id] a[href="/shows/`+showID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	br.WaitFor(testkit.SeatState("B3")+` === 'available' && `+testkit.SeatState("D5")+` === 'booked' && `+testkit.SeatState("D6")+` === 'booked'`, 5*time.Second)
}
