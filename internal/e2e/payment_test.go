package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const bookingElt = `document.querySelector('[data-booking-id]')`

// toSandbox goes from the seat map of showID through Hold and Pay to the
// sandbox provider's checkout page, and returns the hold's amount.
func (b *browser) toSandbox(s *server, showID string, seats ...string) (amount string) {
	b.t.Helper()
	b.open(s, "/shows/"+showID, ".holdbar-button")
	b.pickSeats(seats...)
	b.holdSeats()
	amount = eval[string](b, `document.querySelector('.checkout [data-amount]').dataset.amount`)
	b.do(
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`button[value="succeed"]`)),
	)
	if loc := b.location(); !strings.HasPrefix(loc, s.URL+"/sandbox/checkout/") {
		b.t.Fatalf("%s: after Pay the browser is at %s, want the sandbox's checkout", b.name, loc)
	}
	return amount
}

// sandbox presses Pay ("succeed") or Decline on the sandbox's checkout
// page, and waits on the booking page until the sandbox's callback has
// reached boxoffice and the booking is in state want.
func (b *browser) sandbox(outcome, want string) {
	b.t.Helper()
	b.do(
		chromedp.Click(chromedp.CSS(`button[value="`+outcome+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	if loc := b.location(); !strings.Contains(loc, "/bookings/") {
		b.t.Fatalf("%s: after the sandbox's %s the browser is at %s", b.name, outcome, loc)
	}
	// The page shows pending until the callback lands, then follows it.
	b.waitFor(bookingElt+`.dataset.state === '`+want+`'`, 15*time.Second)
}

// buy books seats of showID through the whole payment journey.
func (b *browser) buy(s *server, showID string, seats ...string) {
	b.t.Helper()
	b.toSandbox(s, showID, seats...)
	b.sandbox("succeed", "confirmed")
}

// TestPaymentJourney: seat map, seats, Hold, Pay, the sandbox's Pay, and
// the booking page turning confirmed with a ticket code and a QR code once
// the sandbox's signed callback has reached the process over HTTP; then the
// same with Decline, which ends failed and frees the seats.
func TestPaymentJourney(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	s := startServer(t)
	showID := s.showIDs(t)[4]
	br := newBrowser(t, "buyer", nil)

	// Pay.
	amount := br.toSandbox(s, showID, "D5", "D6")
	if !br.js(`document.body.textContent.includes('₹')`) {
		t.Error("the sandbox's checkout shows no amount in rupees")
	}
	br.shot("sandbox-phone", "")
	br.sandbox("succeed", "confirmed")
	if !br.js(`/^[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(` + bookingElt + `.dataset.ticketCode)`) {
		t.Errorf("confirmed booking's data-ticket-code is %q", eval[string](br, bookingElt+`.dataset.ticketCode || ''`))
	}
	if code := br.text(".ticket-code strong"); !br.js(bookingElt + `.dataset.ticketCode === '` + code + `'`) {
		t.Errorf("the ticket code shown, %q, is not data-ticket-code", code)
	}
	if !br.js(`!!document.querySelector('svg.ticket-qr') && document.querySelectorAll('svg.ticket-qr rect').length > 20 &&
		document.querySelector('svg.ticket-qr').getBoundingClientRect().width >= 150`) {
		t.Error("no QR code SVG, or one too small to scan")
	}
	if got := eval[string](br, bookingElt+`.querySelector('[data-amount]').dataset.amount`); got != amount {
		t.Errorf("booking's amount %s, want the hold's %s", got, amount)
	}
	if !br.js(`['D5', 'D6'].every((s) => document.querySelector('.booking-seats').textContent.includes(s))`) {
		t.Errorf("booking's seats %q, want D5 and D6", br.text(".booking-seats"))
	}
	br.shot("booking-confirmed-phone", "")

	// Decline.
	br.toSandbox(s, showID, "B3")
	br.sandbox("decline", "failed")
	if br.js(bookingElt + `.hasAttribute('data-ticket-code')`) {
		t.Error("a declined booking has a ticket code")
	}
	br.shot("booking-failed-phone", "")
	br.do(
		chromedp.Click(chromedp.CSS(`[data-booking-id] a[href="/shows/`+showID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)
	br.waitFor(seatState("B3")+` === 'available' && `+seatState("D5")+` === 'booked' && `+seatState("D6")+` === 'booked'`, 5*time.Second)
}
