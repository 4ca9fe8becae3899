package payment

import (
	"errors"
	"testing"

	"github.com/stripe/stripe-go/v85"

	"boxoffice/internal/booking"
)

// TestSessionOutcome: what a looked-up Checkout Session tells of a stuck
// payment. stripe-mock answers every retrieval with an open session, so the
// outcomes it cannot give are checked here on sessions as stripe-go decodes
// them.
func TestSessionOutcome(t *testing.T) {
	p := booking.Payment{ID: "pay1", HoldID: "hold1", Amount: 45000, Currency: "INR"}
	session := func(status stripe.CheckoutSessionStatus, paid stripe.CheckoutSessionPaymentStatus, ref string) *stripe.CheckoutSession {
		return &stripe.CheckoutSession{
			ID: "cs_test_1", Status: status, PaymentStatus: paid, ClientReferenceID: ref,
			Metadata:    map[string]string{"payment_id": ref, "hold_id": "hold1"},
			AmountTotal: 45000, Currency: "inr", PaymentIntent: &stripe.PaymentIntent{ID: "pi_1"},
		}
	}
	tests := []struct {
		name   string
		cs     *stripe.CheckoutSession
		want   booking.EventType
		ok     bool
		errors bool
	}{
		{"complete and paid", session(stripe.CheckoutSessionStatusComplete, stripe.CheckoutSessionPaymentStatusPaid, "pay1"), booking.EventPaymentSucceeded, true, false},
		{"expired", session(stripe.CheckoutSessionStatusExpired, stripe.CheckoutSessionPaymentStatusUnpaid, "pay1"), booking.EventCheckoutExpired, true, false},
		{"open", session(stripe.CheckoutSessionStatusOpen, stripe.CheckoutSessionPaymentStatusUnpaid, "pay1"), "", false, false},
		{"complete, still unpaid", session(stripe.CheckoutSessionStatusComplete, stripe.CheckoutSessionPaymentStatusUnpaid, "pay1"), "", false, false},
		{"another payment's session", session(stripe.CheckoutSessionStatusComplete, stripe.CheckoutSessionPaymentStatusPaid, "pay2"), "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, ok, err := sessionOutcome(tt.cs, p)
			if (err != nil) != tt.errors || ok != tt.ok {
				t.Fatalf("sessionOutcome = %+v, %v, %v", ev, ok, err)
			}
			if !ok {
				return
			}
			want := booking.PaymentEvent{ID: "lookup_cs_test_1_" + string(tt.cs.Status), Type: tt.want, PaymentID: "pay1",
				HoldID: "hold1", Amount: 45000, Currency: "INR", ChargeRef: "pi_1", CheckoutRef: "cs_test_1",
				Charged: tt.want == booking.EventPaymentSucceeded}
			if ev != want {
				t.Errorf("event %+v, want %+v", ev, want)
			}
		})
	}
}

func TestRefundErrorTellsAlreadyRefunded(t *testing.T) {
	p := booking.Payment{ID: "pay1"}
	err := refundError(p, &stripe.Error{Code: stripe.ErrorCodeChargeAlreadyRefunded, HTTPStatusCode: 400, Msg: "Charge ch_1 has already been refunded."})
	if booking.ErrorCode(err) != booking.EINVALID || !errors.Is(err, errAlreadyRefunded) {
		t.Errorf("already refunded: %v (code %s), want the domain's message", err, booking.ErrorCode(err))
	}
	if err := refundError(p, &stripe.Error{HTTPStatusCode: 500}); booking.ErrorCode(err) != booking.EINTERNAL {
		t.Errorf("a server error of Stripe's: code %s, want internal", booking.ErrorCode(err))
	}
}
