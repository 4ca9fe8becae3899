package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/payment"
	"boxoffice/internal/payment/stripetest"
	"boxoffice/internal/testkit"
)

// payHold presses Pay on holdPath and returns the answer.
func (a *stripeApp) payHold(c *client, holdPath string) response {
	a.t.Helper()
	return c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}})
}

// wantSessionRequest checks the last Checkout Session request: Stripe's
// 30-minute minimum from now (stripe-mock does not enforce it), and the
// idempotency key of attempt.
func (a *stripeApp) wantSessionRequest(t *testing.T, paymentID string, attempt int) {
	t.Helper()
	call := a.rec.Last(t, "POST /v1/checkout/sessions")
	exp, err := strconv.ParseInt(call.Form.Get("expires_at"), 10, 64)
	if err != nil {
		t.Fatalf("expires_at %q: %v", call.Form.Get("expires_at"), err)
	}
	if left := time.Unix(exp, 0).Sub(a.clock.Now()); left < 30*time.Minute {
		t.Errorf("the session was asked to expire %v after the request; Stripe refuses less than 30 minutes", left)
	}
	if want := payment.CheckoutIdempotencyKey(paymentID, attempt); call.IdempotencyKey != want {
		t.Errorf("Idempotency-Key %q, want %q (attempt %d)", call.IdempotencyKey, want, attempt)
	}
}

func (a *stripeApp) paymentOfHold(holdPath string) booking.Payment {
	a.t.Helper()
	id := a.rec.Last(a.t, "POST /v1/checkout/sessions").Form.Get("client_reference_id")
	p, err := a.store.Payment(context.Background(), id)
	if err != nil {
		a.t.Fatalf("payment of %s: %v", holdPath, err)
	}
	return p
}

// TestStripeMoreTimeOutlastsSession is the review's sequence: HOLD_TTL
// 15m, Pay at +1m, More time at +14m and +28m; Stripe expires the session
// at +32m, while the hold has 11 minutes left. That ends the session only:
// the seats stay the moviegoer's, and Pay opens a new session.
func TestStripeMoreTimeOutlastsSession(t *testing.T) {
	a := newStripeApp(t, testkit.StripeMock(t))
	c := a.client()
	holdPath := c.mustHold("A1", "A2")
	a.clock.Advance(time.Minute)
	wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
	p := a.paymentOfHold(holdPath)
	a.wantSessionRequest(t, p.ID, 1)
	expired := a.sessionEvent("checkout.session.expired", "expired", "unpaid")
	for _, at := range []time.Duration{13 * time.Minute, 14 * time.Minute} { // to +14m, then +28m
		a.clock.Advance(at)
		wantStatus(t, c.post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
	}
	a.clock.Advance(4 * time.Minute) // +32m: Stripe expires the session
	res := a.webhook(expired, a.clock.Now())
	wantStatus(t, res, http.StatusOK)
	if ans := answerOf(t, res); ans.Effect != string(booking.EffectCheckoutEnded) {
		t.Errorf("the session expired with 11 minutes left on its hold: answer %+v, want %s", ans, booking.EffectCheckoutEnded)
	}
	if b := a.bookingOf(p); b.State != booking.BookingPending {
		t.Errorf("booking %s %q, want pending", b.State, b.Reason)
	}
	if st := seatStates(c.get("/shows/" + testShowID).doc(t)); st["A1"] != "mine" || st["A2"] != "mine" {
		t.Errorf("after the session expired the seats are %q, %q; want still the moviegoer's", st["A1"], st["A2"])
	}
	if res := c.get(holdPath); res.StatusCode != http.StatusOK {
		t.Errorf("checkout after the session expired: %d, want 200 offering Pay", res.StatusCode)
	}
	// Pay again: a new session, the old one's key and expiry would not do.
	wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
	a.wantSessionRequest(t, p.ID, 2)
	if got, _ := a.store.Payment(context.Background(), p.ID); !got.CheckoutOpen() || got.CheckoutAttempt != 2 {
		t.Errorf("payment after Pay again: attempt %d, open %v; want a second, open checkout", got.CheckoutAttempt, got.CheckoutOpen())
	}
	// Paid on the new session: booked.
	res = a.webhook(a.sessionEvent("checkout.session.completed", "complete", "paid"), a.clock.Now())
	if ans := answerOf(t, res); ans.Effect != "booked" {
		t.Errorf("paid on the second session: answer %+v, want booked", ans)
	}
}

// TestStripePayRetriedAfterFailure: a Pay that Stripe refused is retried
// five minutes later; the new request asks for 30 minutes from then, with
// a new idempotency key, and succeeds.
func TestStripePayRetriedAfterFailure(t *testing.T) {
	a := newStripeApp(t, testkit.StripeMock(t))
	c := a.client()
	holdPath := c.mustHold("B1")
	a.rec.StubNext("POST /v1/checkout/sessions", http.StatusBadRequest,
		`{"error":{"type":"invalid_request_error","message":"Stripe is having a moment."}}`)
	if res := a.payHold(c, holdPath); res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("Pay refused by Stripe: %d, want 503", res.StatusCode)
	}
	first := a.rec.Last(t, "POST /v1/checkout/sessions")
	p := a.paymentOfHold(holdPath)
	a.clock.Advance(5 * time.Minute)
	wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
	a.wantSessionRequest(t, p.ID, 2)
	if again := a.rec.Last(t, "POST /v1/checkout/sessions"); again.IdempotencyKey == first.IdempotencyKey {
		t.Errorf("the retry used the failed attempt's key %q", again.IdempotencyKey)
	}
}

// TestStripePayAgain: within its session's time Pay goes to the same
// session (its attempt's key); with less than 5 minutes left it expires
// that session and opens another; and when the old session was paid just
// before it could be expired, Pay settles that payment and opens nothing.
func TestStripePayAgain(t *testing.T) {
	mock := testkit.StripeMock(t)
	// setup holds and pays at +0, pays again at +10m (the same session),
	// and gives the hold more time at +14m: its session has 4 minutes left
	// at +27m.
	setup := func(t *testing.T, seat string) (*stripeApp, *client, string, booking.Payment) {
		a := newStripeApp(t, mock)
		c := a.client()
		holdPath := c.mustHold(seat)
		wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
		p := a.paymentOfHold(holdPath)
		a.clock.Advance(10 * time.Minute)
		wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
		calls := a.rec.Calls("POST /v1/checkout/sessions")
		if len(calls) != 2 || calls[1].IdempotencyKey != calls[0].IdempotencyKey || calls[1].Form.Encode() != calls[0].Form.Encode() {
			t.Fatalf("Pay again within the session's time: %d requests; want the first one's again", len(calls))
		}
		a.clock.Advance(4 * time.Minute)
		wantStatus(t, c.post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
		a.clock.Advance(13 * time.Minute)
		stored, _ := a.store.Payment(context.Background(), p.ID)
		return a, c, holdPath, stored
	}

	t.Run("less than 5 minutes left: a new session", func(t *testing.T) {
		a, c, holdPath, p := setup(t, "C1")
		wantStatus(t, a.payHold(c, holdPath), http.StatusSeeOther)
		a.rec.Last(t, "POST /v1/checkout/sessions/"+p.CheckoutRef+"/expire")
		a.wantSessionRequest(t, p.ID, 2)
	})

	t.Run("the old session was just paid", func(t *testing.T) {
		a, c, holdPath, p := setup(t, "C2")
		paid, err := json.Marshal(a.rec.Session(t, "complete", "paid"))
		if err != nil {
			t.Fatal(err)
		}
		a.rec.StubNext("POST /v1/checkout/sessions/"+p.CheckoutRef+"/expire", http.StatusBadRequest,
			`{"error":{"type":"invalid_request_error","message":"Only Checkout Sessions with a status of open can be expired."}}`)
		a.rec.StubNext("GET /v1/checkout/sessions/"+p.CheckoutRef, http.StatusOK, string(paid))
		res := a.payHold(c, holdPath)
		wantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/bookings/"+p.BookingID {
			t.Errorf("Pay after the session was paid went to %q, want the booking", loc)
		}
		if b := a.bookingOf(p); b.State != booking.BookingConfirmed {
			t.Errorf("booking %s, want confirmed", b.State)
		}
		if n := len(a.rec.Calls("POST /v1/checkout/sessions")) - len(a.rec.Calls("POST /v1/checkout/sessions/")); n != 2 {
			t.Errorf("%d sessions asked for, want no third one", n)
		}
	})
}

// TestStripeSuccessOfAnotherAmount: a verified success whose amount or
// currency differs from the payment's took money all the same: the
// booking is due a refund with why, not left pending.
func TestStripeSuccessOfAnotherAmount(t *testing.T) {
	mock := testkit.StripeMock(t)
	for _, tc := range []struct {
		name string
		edit func(map[string]any)
	}{
		{"amount", func(cs map[string]any) { cs["amount_total"] = 100 }},
		{"currency", func(cs map[string]any) { cs["currency"] = "usd" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newStripeApp(t, mock)
			_, p := a.pay("D1")
			cs := a.rec.Session(t, "complete", "paid")
			tc.edit(cs)
			res := a.webhook(stripetest.Event(t, "checkout.session.completed", cs), a.clock.Now())
			wantStatus(t, res, http.StatusOK)
			if ans := answerOf(t, res); ans.Effect != "refund_due" {
				t.Errorf("answer %+v, want refund_due", ans)
			}
			b := a.bookingOf(p)
			if b.State != booking.BookingRefundDue || !strings.Contains(booking.ReasonText(i18n.For(i18n.English), b.Reason), "costs "+p.Amount.Format(p.Currency)) {
				t.Errorf("booking %s %q, want refund_due saying what it costs", b.State, b.Reason)
			}
			if st := seatStates(a.client().get("/shows/" + testShowID).doc(t)); st["D1"] != "available" {
				t.Errorf("D1 is %q, want available: nothing was booked", st["D1"])
			}
		})
	}
}
