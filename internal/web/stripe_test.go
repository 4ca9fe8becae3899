package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/payment/stripetest"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// stripeApp is the app with PAYMENT_PROVIDER=stripe, its API at a real
// stripe-mock and every call recorded, and an admin account.
type stripeApp struct {
	*app
	rec *stripetest.Recorder
}

func newStripeApp(t *testing.T, mock string) *stripeApp {
	t.Helper()
	rec := &stripetest.Recorder{}
	provider, err := payment.NewStripe(payment.StripeOptions{
		SecretKey: stripetest.SecretKey, WebhookSecret: stripetest.WebhookSecret,
		APIBase: mock, HTTPClient: rec.Client(), Logger: discardLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, func(o *web.Options) {
		o.Payments, o.CheckoutOrigins, o.AdminPasswordCost = provider, []string{payment.StripeCheckoutOrigin}, bcrypt.MinCost
	})
	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), adminEmail, adminPassword, booking.RoleAdmin); err != nil {
		t.Fatalf("Ensure admin: %v", err)
	}
	return &stripeApp{app: a, rec: rec}
}

// pay holds seats as a new moviegoer and presses Pay: 303 to Stripe's
// checkout. It returns the moviegoer and the payment as stored.
func (a *stripeApp) pay(seats ...string) (*client, booking.Payment) {
	a.t.Helper()
	c := a.client()
	holdPath := c.mustHold(seats...)
	res := c.post(holdPath+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}})
	wantStatus(a.t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, payment.StripeCheckoutOrigin+"/") {
		a.t.Fatalf("Pay sent the browser to %q, want Stripe's checkout", loc)
	}
	id := a.rec.Last(a.t, "POST /v1/checkout/sessions").Form.Get("client_reference_id")
	p, err := a.store.Payment(context.Background(), id)
	if err != nil {
		a.t.Fatalf("the checkout's payment %q: %v", id, err)
	}
	if !strings.HasPrefix(p.CheckoutRef, "cs_") {
		a.t.Fatalf("payment %s has checkout ref %q, want the session's id", p.ID, p.CheckoutRef)
	}
	return c, p
}

// webhook posts body to the Stripe webhook signed at signedAt.
func (a *stripeApp) webhook(body []byte, signedAt time.Time) response {
	a.t.Helper()
	return a.postWebhook(body, stripetest.Sign(body, stripetest.WebhookSecret, signedAt))
}

func (a *stripeApp) postWebhook(body []byte, signature string) response {
	a.t.Helper()
	h := http.Header{"Content-Type": {"application/json"}}
	if signature != "" {
		h.Set(payment.StripeSignatureHeader, signature)
	}
	return a.client().do(http.MethodPost, payment.StripeWebhookPath, strings.NewReader(string(body)), h)
}

// sessionEvent is the event Stripe sends about the last session created.
func (a *stripeApp) sessionEvent(typ, status, paymentStatus string) []byte {
	a.t.Helper()
	return stripetest.Event(a.t, typ, a.rec.Session(a.t, status, paymentStatus))
}

type webhookAnswer struct {
	Effect    string `json:"effect"`
	Duplicate bool   `json:"duplicate"`
	Ignored   string `json:"ignored"`
	Error     string `json:"error"`
}

func answerOf(t *testing.T, res response) webhookAnswer {
	t.Helper()
	var ans webhookAnswer
	if err := json.Unmarshal([]byte(res.body), &ans); err != nil {
		t.Fatalf("webhook answer %q: %v", res.body, err)
	}
	return ans
}

func (a *stripeApp) bookingOf(p booking.Payment) booking.Booking {
	a.t.Helper()
	b, err := a.store.Booking(context.Background(), p.BookingID)
	if err != nil {
		a.t.Fatal(err)
	}
	return b
}

func (a *stripeApp) callbacks(p booking.Payment) []booking.CallbackRecord {
	a.t.Helper()
	list, err := a.store.Callbacks(context.Background(), booking.CallbackQuery{PaymentID: p.ID})
	if err != nil {
		a.t.Fatal(err)
	}
	return list
}

// TestStripeJourney is SPEC §9 through the real server: every webhook of
// issue 11's list, built from stripe-mock's answers and signed as Stripe
// signs, settles exactly as SPEC §2 says.
func TestStripeJourney(t *testing.T) {
	mock := testkit.StripeMock(t)

	t.Run("paid in time, then duplicate and contradicting events", func(t *testing.T) {
		a := newStripeApp(t, mock)
		c, p := a.pay("A1", "A2")
		if got := a.rec.Last(t, "POST /v1/checkout/sessions").Form.Get("line_items[0][quantity]"); got != "2" {
			t.Errorf("line item quantity %q, want 2", got)
		}
		a.clock.Advance(2 * time.Minute)
		paid := a.sessionEvent("checkout.session.completed", "complete", "paid")
		res := a.webhook(paid, a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); ans.Effect != "booked" || ans.Duplicate {
			t.Errorf("answer %+v, want booked", ans)
		}
		b := a.bookingOf(p)
		if b.State != booking.BookingConfirmed || b.TicketCode == "" {
			t.Fatalf("booking %s %q, want confirmed with a ticket", b.State, b.TicketCode)
		}
		stored, _ := a.store.Payment(context.Background(), p.ID)
		if !strings.HasPrefix(stored.ChargeRef, "pi_") {
			t.Errorf("payment's charge ref %q, want the session's PaymentIntent", stored.ChargeRef)
		}
		if d := c.get("/bookings/" + p.BookingID).doc(t); d.Find(`[data-state="confirmed"]`).Length() == 0 {
			t.Errorf("the booking page does not show it confirmed")
		}

		a.clock.Advance(time.Second)
		again := a.webhook(paid, a.clock.Now()) // Stripe retries the same event
		wantStatus(t, again, http.StatusOK)
		if ans := answerOf(t, again); !ans.Duplicate {
			t.Errorf("a repeated event: answer %+v, want duplicate", ans)
		}
		a.clock.Advance(time.Second)
		expired := a.sessionEvent("checkout.session.expired", "expired", "unpaid")
		res = a.webhook(expired, a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); ans.Effect != "ignored" {
			t.Errorf("a contradicting event: answer %+v, want ignored", ans)
		}
		if b2 := a.bookingOf(p); b2.State != booking.BookingConfirmed || b2.TicketCode != b.TicketCode {
			t.Errorf("after a contradicting event: %s %q, want it as it was", b2.State, b2.TicketCode)
		}
		var outcomes []string
		for _, r := range a.callbacks(p) {
			outcomes = append(outcomes, r.Outcome)
		}
		if got := strings.Join(outcomes, " "); got != "ignored booked booked" {
			t.Errorf("callback log %q, want newest first: ignored, booked (the duplicate), booked", got)
		}
	})

	t.Run("late, rescued", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("B1")
		a.clock.Advance(20 * time.Minute) // the hold lapsed; nobody took B1
		res := a.webhook(a.sessionEvent("checkout.session.completed", "complete", "paid"), a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if b := a.bookingOf(p); b.State != booking.BookingConfirmed {
			t.Errorf("late payment with its seats free: %s, want confirmed", b.State)
		}
	})

	t.Run("late, refund due, refunded through Stripe, refund failed, refunded again", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("C1")
		a.clock.Advance(16 * time.Minute)
		a.client().mustHold("C1") // someone else takes the lapsed seat
		res := a.webhook(a.sessionEvent("checkout.session.completed", "complete", "paid"), a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); ans.Effect != "refund_due" {
			t.Fatalf("answer %+v, want refund_due", ans)
		}
		stored, _ := a.store.Payment(context.Background(), p.ID)

		admin := a.client()
		admin.mustLogin()
		show := admin.get("/admin/shows/" + testShowID).doc(t)
		if label := show.Find(`[data-refund-due][data-booking-id="` + p.BookingID + `"] button`).Text(); !strings.Contains(label, "Refund through Stripe") {
			t.Fatalf("refund queue button %q, want Refund through Stripe", label)
		}
		wantStatus(t, admin.post("/admin/bookings/"+p.BookingID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
		call := a.rec.Last(t, "POST /v1/refunds")
		if call.IdempotencyKey != "refund-"+p.ID || call.Form.Get("payment_intent") != stored.ChargeRef {
			t.Errorf("refund request: key %q, payment_intent %q; want refund-%s and %s", call.IdempotencyKey, call.Form.Get("payment_intent"), p.ID, stored.ChargeRef)
		}
		b := a.bookingOf(p)
		if b.State != booking.BookingRefunded || !strings.HasPrefix(b.RefundID, "re_") || b.RefundedBy != adminEmail {
			t.Fatalf("after the refund: %s %q by %q", b.State, b.RefundID, b.RefundedBy)
		}
		// Pressed again: no second refund asked for.
		wantStatus(t, admin.post("/admin/bookings/"+p.BookingID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
		if n := len(a.rec.Calls("POST /v1/refunds")); n != 1 {
			t.Errorf("%d refund requests after pressing twice, want 1", n)
		}

		// The card was closed: Stripe says the refund failed.
		failed := stripetest.Event(t, "refund.failed", a.rec.Refund(t, "failed", "expired_or_canceled_card"))
		wantStatus(t, a.webhook(failed, a.clock.Now()), http.StatusOK)
		b = a.bookingOf(p)
		if b.State != booking.BookingRefundDue || !strings.Contains(b.Reason, "expired_or_canceled_card") {
			t.Fatalf("after refund.failed: %s %q, want refund_due with the reason", b.State, b.Reason)
		}
		if n := admin.get("/admin/shows/" + testShowID).doc(t).Find(`[data-refund-due][data-booking-id="` + p.BookingID + `"]`).Length(); n != 1 {
			t.Error("the booking is not back in the refund queue")
		}
		wantStatus(t, admin.post("/admin/bookings/"+p.BookingID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
		if key := a.rec.Last(t, "POST /v1/refunds").IdempotencyKey; key != "refund-"+p.ID+"-after-"+b.RefundID {
			t.Errorf("second refund's key %q, want a new one after the failed %s", key, b.RefundID)
		}
		if b := a.bookingOf(p); b.State != booking.BookingRefunded {
			t.Errorf("after the second refund: %s", b.State)
		}
	})

	t.Run("refunded outside boxoffice", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("C2")
		a.clock.Advance(16 * time.Minute)
		a.client().mustHold("C2")
		wantStatus(t, a.webhook(a.sessionEvent("checkout.session.completed", "complete", "paid"), a.clock.Now()), http.StatusOK)
		admin := a.client()
		admin.mustLogin()
		wantStatus(t, admin.post("/admin/bookings/"+p.BookingID+"/refunded", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
		if b := a.bookingOf(p); b.State != booking.BookingRefunded || b.RefundID != "" || b.RefundedBy != adminEmail {
			t.Errorf("after Refunded outside boxoffice: %s, refund %q by %q", b.State, b.RefundID, b.RefundedBy)
		}
		if n := len(a.rec.Calls("POST /v1/refunds")); n != 0 {
			t.Errorf("%d refunds asked of Stripe for a booking refunded outside boxoffice", n)
		}
	})

	t.Run("expired", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("D2")
		expired := a.sessionEvent("checkout.session.expired", "expired", "unpaid")
		// While the hold is live, the session's end is that session's only.
		res := a.webhook(expired, a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); ans.Effect != string(booking.EffectCheckoutEnded) {
			t.Errorf("answer %+v, want %s", ans, booking.EffectCheckoutEnded)
		}
		if b := a.bookingOf(p); b.State != booking.BookingPending {
			t.Errorf("booking %s, want pending while its hold is live", b.State)
		}
		// Once the hold has ended, its last session's expiry fails it.
		a.clock.Advance(16 * time.Minute)
		res = a.webhook(a.sessionEvent("checkout.session.expired", "expired", "unpaid"), a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); ans.Effect != "released" {
			t.Errorf("answer %+v, want released", ans)
		}
		if b := a.bookingOf(p); b.State != booking.BookingFailed || b.Reason != booking.ReasonCheckoutExpired {
			t.Errorf("booking %s %q, want failed: checkout expired", b.State, b.Reason)
		}
		if st := seatStates(a.client().get("/shows/" + testShowID).doc(t)); st["D2"] != "available" {
			t.Errorf("D2 is %q after the session expired, want available", st["D2"])
		}
	})

	t.Run("async success and failure", func(t *testing.T) {
		for _, tc := range []struct {
			typ  string
			want booking.BookingState
		}{
			{"checkout.session.async_payment_succeeded", booking.BookingConfirmed},
			{"checkout.session.async_payment_failed", booking.BookingFailed},
		} {
			a := newStripeApp(t, mock)
			_, p := a.pay("E1")
			res := a.webhook(a.sessionEvent("checkout.session.completed", "complete", "unpaid"), a.clock.Now())
			wantStatus(t, res, http.StatusOK)
			if ans := answerOf(t, res); !strings.Contains(ans.Ignored, "unpaid") {
				t.Errorf("completed but unpaid: answer %+v, want acknowledged", ans)
			}
			if b := a.bookingOf(p); b.State != booking.BookingPending {
				t.Errorf("completed but unpaid: booking %s, want pending", b.State)
			}
			a.clock.Advance(time.Hour) // a bank transfer takes its time
			paymentStatus := "paid"
			if tc.want == booking.BookingFailed {
				paymentStatus = "unpaid"
			}
			wantStatus(t, a.webhook(a.sessionEvent(tc.typ, "complete", paymentStatus), a.clock.Now()), http.StatusOK)
			if b := a.bookingOf(p); b.State != tc.want {
				t.Errorf("%s: booking %s, want %s", tc.typ, b.State, tc.want)
			}
		}
	})

	t.Run("verified but without effect", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("A4")
		other := stripetest.Event(t, "customer.created", map[string]any{"id": "cus_1", "object": "customer"})
		res := a.webhook(other, a.clock.Now())
		wantStatus(t, res, http.StatusOK)

		ghost := a.rec.Session(t, "complete", "paid")
		ghost["client_reference_id"] = "no-such-payment"
		res = a.webhook(stripetest.Event(t, "checkout.session.completed", ghost), a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); !strings.Contains(ans.Ignored, "unknown_payment") {
			t.Errorf("unknown payment: answer %+v", ans)
		}
		// Another hold's (a success of another amount took money: see
		// TestStripeSuccessOfAnotherAmount).
		elsewhere := a.rec.Session(t, "complete", "paid")
		elsewhere["metadata"].(map[string]any)["hold_id"] = "another-hold"
		res = a.webhook(stripetest.Event(t, "checkout.session.completed", elsewhere), a.clock.Now())
		wantStatus(t, res, http.StatusOK)
		if ans := answerOf(t, res); !strings.Contains(ans.Ignored, "mismatch") {
			t.Errorf("wrong hold: answer %+v", ans)
		}
		if b := a.bookingOf(p); b.State != booking.BookingPending {
			t.Errorf("booking %s after events without effect, want pending", b.State)
		}
		list := a.callbacks(p)
		if len(list) != 1 || list[0].Outcome != booking.OutcomeAcknowledged || !strings.HasPrefix(list[0].Reason, "mismatch") {
			t.Errorf("callback log of the payment %+v, want the mismatch acknowledged with why", list)
		}
		ghosts, _ := a.store.Callbacks(context.Background(), booking.CallbackQuery{PaymentID: "no-such-payment"})
		if len(ghosts) != 1 || ghosts[0].Status != http.StatusOK || !strings.HasPrefix(ghosts[0].Reason, "unknown_payment") {
			t.Errorf("callback log of the unknown payment %+v", ghosts)
		}
	})

	t.Run("refused before verification: 400, nothing stored", func(t *testing.T) {
		a := newStripeApp(t, mock)
		_, p := a.pay("A5")
		paid := a.sessionEvent("checkout.session.completed", "complete", "paid")
		now := a.clock.Now()
		huge := []byte(`{"pad":"` + strings.Repeat("x", payment.MaxStripeWebhookBytes) + `"}`)
		wrongVersion := stripetest.Event(t, "checkout.session.completed", a.rec.Session(t, "complete", "paid"), "2024-06-20")
		for _, tc := range []struct {
			name      string
			body      []byte
			signature string
		}{
			{"no signature", paid, ""},
			{"wrong secret", paid, stripetest.Sign(paid, "whsec_someone_else", now)},
			{"stale signature", paid, stripetest.Sign(paid, stripetest.WebhookSecret, now.Add(-6*time.Minute))},
			{"future signature", paid, stripetest.Sign(paid, stripetest.WebhookSecret, now.Add(6*time.Minute))},
			{"wrong API version", wrongVersion, stripetest.Sign(wrongVersion, stripetest.WebhookSecret, now)},
			{"oversize body", huge, stripetest.Sign(huge, stripetest.WebhookSecret, now)},
		} {
			res := a.postWebhook(tc.body, tc.signature)
			if res.StatusCode != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400; body %s", tc.name, res.StatusCode, res.body)
			}
		}
		if b := a.bookingOf(p); b.State != booking.BookingPending {
			t.Errorf("booking %s after refused webhooks, want pending", b.State)
		}
		all, _ := a.store.Callbacks(context.Background(), booking.CallbackQuery{})
		if len(all) != 0 {
			t.Errorf("%d callback records stored for unverified webhooks, want none", len(all))
		}
		// The sandbox's callback route is not Stripe's.
		res := a.client().do(http.MethodPost, payment.CallbackPath, strings.NewReader("{}"), nil)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s with Stripe: %d, want 404", payment.CallbackPath, res.StatusCode)
		}
	})

	t.Run("a hold that ends expires its session", func(t *testing.T) {
		a := newStripeApp(t, mock)
		ctx := context.Background()
		// Back.
		c, back := a.pay("B3")
		hold, _ := a.store.Payment(ctx, back.ID)
		wantStatus(t, c.post("/holds/"+hold.HoldID+"/release", url.Values{"_csrf": {c.csrf()}}), http.StatusSeeOther)
		// (Replaced cannot happen to a hold being paid for: the session's
		// new hold is 409, TestHoldWhilePaying.)
		// Lapsed and retaken by someone else; and one lapsed but untouched.
		_, retaken := a.pay("C4")
		_, untouched := a.pay("C6")
		a.clock.Advance(16 * time.Minute)
		a.client().mustHold("C4")

		n, err := a.svc.CloseEndedCheckouts(ctx)
		if err != nil || n != 2 {
			t.Fatalf("CloseEndedCheckouts = %d, %v; want 2", n, err)
		}
		for _, p := range []booking.Payment{back, retaken} {
			a.rec.Last(t, "POST /v1/checkout/sessions/"+p.CheckoutRef+"/expire")
			if got, _ := a.store.Payment(ctx, p.ID); got.CheckoutClosedAt.IsZero() {
				t.Errorf("payment %s: checkout not marked closed", p.ID)
			}
		}
		if calls := a.rec.Calls("POST /v1/checkout/sessions/" + untouched.CheckoutRef + "/expire"); len(calls) != 0 {
			t.Error("the session of a lapsed hold whose seats are still free was expired; a late payment could still be rescued")
		}
		if n, err := a.svc.CloseEndedCheckouts(ctx); err != nil || n != 0 {
			t.Errorf("CloseEndedCheckouts again = %d, %v; want none left", n, err)
		}
	})

	t.Run("a stuck payment is looked up at Stripe once a minute", func(t *testing.T) {
		a := newStripeApp(t, mock)
		c, p := a.pay("D4")
		page := "/bookings/" + p.BookingID
		lookups := func() int { return len(a.rec.Calls("GET /v1/checkout/sessions/" + p.CheckoutRef)) }
		c.get(page)
		if n := lookups(); n != 0 {
			t.Errorf("%d lookups of a payment pending for less than 10 minutes", n)
		}
		a.clock.Advance(booking.StuckAfter)
		c.get(page)
		c.get(page + "/status")
		if n := lookups(); n != 1 {
			t.Errorf("%d lookups after two views of a stuck payment within a minute, want 1", n)
		}
		a.clock.Advance(booking.LookupEvery)
		d := c.get(page).doc(t)
		if n := lookups(); n != 2 {
			t.Errorf("%d lookups a minute later, want 2", n)
		}
		// stripe-mock's session is open: still pending, nothing settled.
		if d.Find(`[data-state="pending"]`).Length() == 0 {
			t.Error("the booking page does not show it pending")
		}
	})

	t.Run("the CSP lets Pay's form post follow to Stripe", func(t *testing.T) {
		a := newStripeApp(t, mock)
		csp := a.client().get("/").Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "form-action 'self' "+payment.StripeCheckoutOrigin) {
			t.Errorf("CSP %q does not allow forms to be redirected to Stripe's checkout", csp)
		}
	})
}
