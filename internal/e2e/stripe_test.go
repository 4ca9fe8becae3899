package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/payment"
	"boxoffice/internal/payment/stripetest"
	"boxoffice/internal/testkit"
)

// TestStripePayGoesToCheckout: with PAYMENT_PROVIDER=stripe (its API at a
// real stripe-mock), Hold and Pay in Chromium send the browser on to
// Stripe's hosted checkout, and the page's CSP lets the form post follow
// that redirect (a form-action violation is a console error, which fails
// the test). This machine reaches no Stripe, so the test stops at the
// browser's request for the checkout page.
func TestStripePayGoesToCheckout(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	mock := testkit.StripeMock(t)
	s := startServer(t, "PAYMENT_PROVIDER=stripe", "STRIPE_SECRET_KEY="+stripetest.SecretKey,
		"STRIPE_WEBHOOK_SECRET="+stripetest.WebhookSecret, "STRIPE_API_BASE="+mock)
	showID := s.showIDs(t)[3]
	// The checkout's host does not resolve here; nothing else may go wrong.
	br := newBrowser(t, "stripe buyer", func(text string) bool { return strings.Contains(text, "net::ERR_") })

	var mu sync.Mutex
	var requested []string
	if err := chromedp.Listen(br.Ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && strings.HasPrefix(e.Request.URL, payment.StripeCheckoutOrigin+"/") {
			mu.Lock()
			requested = append(requested, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}

	br.open(s, "/shows/"+showID, ".holdbar-button")
	if br.JS(`!!document.querySelector('[data-sandbox-banner]')`) {
		t.Error("the sandbox banner shows although payments go through Stripe")
	}
	br.pickSeats("C3", "C4")
	br.holdSeats()
	br.Do(chromedp.SetValue(chromedp.CSS("#pay-email"), "moviegoer@example.com"), chromedp.Click(chromedp.CSS(".pay-form button")))
	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		n := len(requested)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("after Pay the browser never asked for Stripe's checkout page")
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.HasPrefix(requested[0], payment.StripeCheckoutOrigin+"/") {
		t.Errorf("checkout URL %q", requested[0])
	}
}
