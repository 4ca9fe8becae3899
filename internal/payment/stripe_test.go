package payment_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stripe/stripe-go/v85"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/payment/stripetest"
	"boxoffice/internal/testkit"
)

// stripeAt is the clock of these tests: far from the wall clock, so that a
// check against the wall clock instead of ours would show.
var stripeAt = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

func newStripe(t *testing.T) (*payment.Stripe, *stripetest.Recorder) {
	t.Helper()
	base := testkit.StripeMock(t)
	rec := &stripetest.Recorder{}
	s, err := payment.NewStripe(payment.StripeOptions{
		SecretKey: stripetest.SecretKey, WebhookSecret: stripetest.WebhookSecret,
		APIBase: base, HTTPClient: rec.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, rec
}

var stripePayment = booking.Payment{
	ID: "pay1", HoldID: "hold1", BookingID: "book1", Owner: "v1", Amount: 61000, Currency: "INR",
	State: booking.PaymentPending, CreatedAt: stripeAt,
	CheckoutAttempt: 1, CheckoutExpiresAt: stripeAt.Add(payment.CheckoutLifetime),
}

func stripeCheckout() payment.CheckoutRequest {
	return payment.CheckoutRequest{
		Payment: stripePayment,
		Show:    booking.Show{Movie: booking.Movie{Title: "Monsoon Express"}, Theatre: booking.Theatre{Name: "Lalbagh"}, StartsAt: stripeAt.Add(26 * time.Hour)},
		Lines: []booking.LineItem{
			{Name: "Monsoon Express — Classic seat", UnitPrice: 18000, Quantity: 2},
			{Name: "Monsoon Express — Prime seat", UnitPrice: 25000, Quantity: 1},
		},
		SuccessURL: "https://tickets.example.com/bookings/book1",
		CancelURL:  "https://tickets.example.com/holds/hold1",
	}
}

func TestStripeCheckoutCreatesSession(t *testing.T) {
	s, rec := newStripe(t)
	co, err := s.Checkout(context.Background(), stripeCheckout())
	if err != nil {
		t.Fatalf("Checkout: %v", err)
	}
	if !strings.HasPrefix(co.URL, payment.StripeCheckoutOrigin+"/") || !strings.HasPrefix(co.Ref, "cs_") {
		t.Errorf("Checkout = %+v, want a checkout.stripe.com URL and a cs_ id", co)
	}
	c := rec.Last(t, "POST /v1/checkout/sessions")
	if c.IdempotencyKey != "checkout-pay1-1" {
		t.Errorf("Idempotency-Key %q, want checkout-pay1-1", c.IdempotencyKey)
	}
	want := map[string]string{
		"mode": "payment", "payment_method_types[0]": "card", "client_reference_id": "pay1",
		"metadata[payment_id]": "pay1", "metadata[hold_id]": "hold1", "metadata[booking_id]": "book1",
		"payment_intent_data[metadata][payment_id]": "pay1",
		"success_url": "https://tickets.example.com/bookings/book1", "cancel_url": "https://tickets.example.com/holds/hold1",
		"expires_at":                                    strconv.FormatInt(stripeAt.Add(31*time.Minute).Unix(), 10),
		"line_items[0][price_data][currency]":           "inr",
		"line_items[0][price_data][unit_amount]":        "18000",
		"line_items[0][price_data][product_data][name]": "Monsoon Express — Classic seat",
		"line_items[0][quantity]":                       "2",
		"line_items[1][price_data][unit_amount]":        "25000",
		"line_items[1][quantity]":                       "1",
	}
	got := map[string]string{}
	for k := range want {
		got[k] = c.Form.Get(k)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Checkout Session parameters (-want +got):\n%s", diff)
	}
	if c.Form.Has("payment_method_types[1]") {
		t.Errorf("payment methods %v, want card only", c.Form)
	}

	// Pay again: the same key, so Stripe answers with the same session.
	if _, err := s.Checkout(context.Background(), stripeCheckout()); err != nil {
		t.Fatal(err)
	}
	if again := rec.Last(t, "POST /v1/checkout/sessions"); again.IdempotencyKey != c.IdempotencyKey || again.Form.Encode() != c.Form.Encode() {
		t.Errorf("a repeated checkout sent key %q and %s; want the first request again", again.IdempotencyKey, again.Form.Encode())
	}

	bad := stripeCheckout()
	bad.Lines = bad.Lines[:1]
	if _, err := s.Checkout(context.Background(), bad); err == nil {
		t.Error("Checkout of line items that do not sum to the payment succeeded")
	}
}

func TestStripePaymentMethodsSetting(t *testing.T) {
	base := testkit.StripeMock(t)
	rec := &stripetest.Recorder{}
	s, err := payment.NewStripe(payment.StripeOptions{SecretKey: stripetest.SecretKey, WebhookSecret: stripetest.WebhookSecret,
		APIBase: base, HTTPClient: rec.Client(), PaymentMethods: []string{"card", "link"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Checkout(context.Background(), stripeCheckout()); err != nil {
		t.Fatal(err)
	}
	c := rec.Last(t, "POST /v1/checkout/sessions")
	if got := c.Form["payment_method_types[0]"][0] + "," + c.Form["payment_method_types[1]"][0]; got != "card,link" {
		t.Errorf("payment_method_types %q, want card,link", got)
	}
}

func TestStripeExpireLookupRefund(t *testing.T) {
	s, rec := newStripe(t)
	ctx := context.Background()
	p := stripePayment
	p.CheckoutRef, p.ChargeRef = "cs_test_open", "pi_test_1"

	if res, err := s.Expire(ctx, p); err != nil || res.Completed {
		t.Fatalf("Expire = %+v, %v", res, err)
	}
	if c := rec.Last(t, "POST /v1/checkout/sessions/cs_test_open/expire"); c.Status != http.StatusOK {
		t.Errorf("expire answered %d", c.Status)
	}
	if _, err := s.Expire(ctx, booking.Payment{ID: "nothing-to-close"}); err != nil || len(rec.Calls("POST /v1/checkout/sessions/")) != 1 {
		t.Errorf("Expire of a payment without a checkout = %v, or it called Stripe", err)
	}

	// stripe-mock's session is open and unpaid: no outcome yet.
	if ev, ok, err := s.Lookup(ctx, p); err != nil || ok {
		t.Errorf("Lookup of an open session = %+v, %v, %v; want no outcome", ev, ok, err)
	}
	rec.Last(t, "GET /v1/checkout/sessions/cs_test_open")

	r, err := s.Refund(ctx, booking.RefundRequest{Payment: p, Booking: booking.Booking{ID: "book1", PaymentID: "pay1"}, Key: "refund-pay1", Reason: "seats gone"})
	if err != nil {
		t.Fatalf("Refund: %v", err)
	}
	c := rec.Last(t, "POST /v1/refunds")
	if !strings.HasPrefix(r.ID, "re_") || r.Failed || c.IdempotencyKey != "refund-pay1" ||
		c.Form.Get("payment_intent") != "pi_test_1" || c.Form.Get("metadata[booking_id]") != "book1" {
		t.Errorf("Refund = %+v; request key %q form %v", r, c.IdempotencyKey, c.Form)
	}
	if _, err := s.Refund(ctx, booking.RefundRequest{Payment: stripePayment, Key: "refund-pay1"}); err == nil {
		t.Error("Refund of a payment without a PaymentIntent succeeded")
	}
}

// TestStripeVerifyCallback: every kind of webhook, signed as Stripe signs
// (stripe-go's webhook.GenerateTestSignedPayload), against our clock.
func TestStripeVerifyCallback(t *testing.T) {
	s, err := payment.NewStripe(payment.StripeOptions{SecretKey: stripetest.SecretKey, WebhookSecret: stripetest.WebhookSecret, APIBase: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	session := func(paymentStatus string) map[string]any {
		return map[string]any{
			"id": "cs_test_1", "object": "checkout.session", "client_reference_id": "pay1",
			"metadata":     map[string]any{"payment_id": "pay1", "hold_id": "hold1", "booking_id": "book1"},
			"amount_total": 61000, "currency": "inr", "payment_status": paymentStatus, "status": "complete",
			"payment_intent": "pi_test_1",
		}
	}
	paid := session("paid")
	succeeded := &booking.PaymentEvent{Type: booking.EventPaymentSucceeded, PaymentID: "pay1", HoldID: "hold1", Amount: 61000, Currency: "INR", ChargeRef: "pi_test_1",
		CheckoutRef: "cs_test_1", Charged: true}
	failed := &booking.PaymentEvent{Type: booking.EventPaymentFailed, PaymentID: "pay1", HoldID: "hold1", Amount: 61000, Currency: "INR", ChargeRef: "pi_test_1",
		CheckoutRef: "cs_test_1"}
	expired := &booking.PaymentEvent{Type: booking.EventCheckoutExpired, PaymentID: "pay1", HoldID: "hold1", Amount: 61000, Currency: "INR", ChargeRef: "pi_test_1",
		CheckoutRef: "cs_test_1"}
	tests := []struct {
		name    string
		typ     string
		object  map[string]any
		payment *booking.PaymentEvent
		refund  *booking.RefundEvent
		ack     string
	}{
		{"completed and paid", "checkout.session.completed", paid, succeeded, nil, ""},
		{"async success", "checkout.session.async_payment_succeeded", paid, succeeded, nil, ""},
		{"async failure", "checkout.session.async_payment_failed", session("unpaid"), failed, nil, ""},
		{"expired: that session ends", "checkout.session.expired", session("unpaid"), expired, nil, ""},
		{"completed, unpaid", "checkout.session.completed", session("unpaid"), nil, nil, `payment_status "unpaid"`},
		{"another event type", "customer.created", map[string]any{"id": "cus_1", "object": "customer"}, nil, nil, "customer.created is not one boxoffice acts on"},
		{"a session of someone else", "checkout.session.completed", map[string]any{"id": "cs_x", "object": "checkout.session", "payment_status": "paid"}, nil, nil, "names no payment of boxoffice"},
		{"refund failed", "refund.failed", map[string]any{"id": "re_1", "object": "refund", "status": "failed", "failure_reason": "expired_or_canceled_card",
			"metadata": map[string]any{"booking_id": "book1", "payment_id": "pay1"}}, nil,
			&booking.RefundEvent{RefundID: "re_1", BookingID: "book1", Reason: "expired_or_canceled_card"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := stripetest.Event(t, tt.typ, tt.object)
			n, err := s.VerifyCallback(http.Header{payment.StripeSignatureHeader: {stripetest.Sign(body, stripetest.WebhookSecret, stripeAt)}}, body, stripeAt)
			if err != nil {
				t.Fatalf("VerifyCallback: %v", err)
			}
			if n.EventType != tt.typ || !strings.HasPrefix(n.EventID, "evt_") {
				t.Errorf("event %q of type %q", n.EventID, n.EventType)
			}
			if tt.payment != nil {
				want := *tt.payment
				want.ID = n.EventID
				if n.Payment == nil || *n.Payment != want {
					t.Errorf("payment event %+v, want %+v", n.Payment, want)
				}
			}
			if tt.refund != nil {
				want := *tt.refund
				want.ID = n.EventID
				if n.Refund == nil || *n.Refund != want {
					t.Errorf("refund event %+v, want %+v", n.Refund, want)
				}
			}
			if (tt.payment == nil) != (n.Payment == nil) || (tt.refund == nil) != (n.Refund == nil) || !strings.Contains(n.Ack, tt.ack) || (tt.ack == "") != (n.Ack == "") {
				t.Errorf("notification %+v, want payment %v refund %v ack %q", n, tt.payment != nil, tt.refund != nil, tt.ack)
			}
		})
	}

	body := stripetest.Event(t, "checkout.session.completed", paid)
	refusals := []struct {
		name   string
		header []string
		body   []byte
		want   error
	}{
		{"no signature", nil, body, payment.ErrBadSignature},
		{"wrong secret", []string{stripetest.Sign(body, "whsec_other", stripeAt)}, body, payment.ErrBadSignature},
		{"stale", []string{stripetest.Sign(body, stripetest.WebhookSecret, stripeAt.Add(-5*time.Minute-time.Second))}, body, payment.ErrBadSignature},
		{"from the future", []string{stripetest.Sign(body, stripetest.WebhookSecret, stripeAt.Add(5*time.Minute+time.Second))}, body, payment.ErrBadSignature},
		{"malformed header", []string{"t=abc,v1=zz"}, body, payment.ErrBadSignature},
		{"two headers", []string{stripetest.Sign(body, stripetest.WebhookSecret, stripeAt), stripetest.Sign(body, stripetest.WebhookSecret, stripeAt)}, body, payment.ErrBadSignature},
		{"body changed after signing", []string{stripetest.Sign(body, stripetest.WebhookSecret, stripeAt)}, []byte(strings.Replace(string(body), `"amount_total":61000`, `"amount_total":1`, 1)), payment.ErrBadSignature},
	}
	wrongVersion := stripetest.Event(t, "checkout.session.completed", paid, "2024-06-20")
	otherTrain := stripetest.Event(t, "checkout.session.completed", paid, "2025-01-27.acacia")
	huge := []byte(`{"pad":"` + strings.Repeat("x", payment.MaxStripeWebhookBytes) + `"}`)
	for _, b := range []struct {
		name string
		body []byte
	}{{"wrong API version", wrongVersion}, {"another release train", otherTrain}, {"oversize", huge}, {"not JSON", []byte("hello")}} {
		refusals = append(refusals, struct {
			name   string
			header []string
			body   []byte
			want   error
		}{b.name, []string{stripetest.Sign(b.body, stripetest.WebhookSecret, stripeAt)}, b.body, payment.ErrMalformed})
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.header {
				h.Add(payment.StripeSignatureHeader, v)
			}
			_, err := s.VerifyCallback(h, tt.body, stripeAt)
			if !errors.Is(err, tt.want) {
				t.Errorf("VerifyCallback = %v, want %v", err, tt.want)
			}
		})
	}
	// Within the tolerance both ways, by our clock, however far the wall
	// clock is.
	for _, d := range []time.Duration{-5 * time.Minute, 5 * time.Minute} {
		if _, err := s.VerifyCallback(http.Header{payment.StripeSignatureHeader: {stripetest.Sign(body, stripetest.WebhookSecret, stripeAt.Add(d))}}, body, stripeAt); err != nil {
			t.Errorf("signed %v from our clock: %v", d, err)
		}
	}
	if stripe.APIURL != payment.DefaultStripeAPIBase {
		t.Errorf("DefaultStripeAPIBase %q is not stripe-go's %q", payment.DefaultStripeAPIBase, stripe.APIURL)
	}
	if stripe.APIVersion != payment.StripeAPIVersion {
		t.Errorf("StripeAPIVersion %q is not stripe-go's %q", payment.StripeAPIVersion, stripe.APIVersion)
	}
}

func TestNewStripeRefusesBadSettings(t *testing.T) {
	for _, o := range []payment.StripeOptions{
		{SecretKey: "pk_test_1", WebhookSecret: "whsec_1"},
		{SecretKey: "sk_test_1", WebhookSecret: "secret"},
		{SecretKey: "sk_test_1", WebhookSecret: "whsec_1", APIBase: "api.stripe.com"},
	} {
		if _, err := payment.NewStripe(o); err == nil {
			t.Errorf("NewStripe(%+v) succeeded", o)
		}
	}
}
