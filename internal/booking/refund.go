package booking

import (
	"context"
	"time"
)

// Payments is the port of the payment provider, as far as the domain's
// steps need it: the web layer starts checkouts and verifies events, the
// service asks the provider to give money back, to close a checkout whose
// hold has ended, and about payments that stay pending. Both providers
// (the sandbox and Stripe) implement it.
type Payments interface {
	// Name is the provider's name ("stripe", "sandbox"), which Pay
	// records with each payment it makes (Payment.Provider).
	Name() string
	// Refund gives back the money of payment r.Payment, once per r.Key
	// however often it is asked.
	Refund(ctx context.Context, r RefundRequest) (RefundResult, error)
	// Expire closes the checkout of payment p so that it can no longer be
	// paid. A checkout that is already closed, paid or expired is no
	// error; one that was completed before it could be closed says so in
	// the result.
	Expire(ctx context.Context, p Payment) (ExpireResult, error)
	// Lookup asks the provider what became of payment p. ok is false while
	// it has no outcome yet; otherwise ev is the outcome, to settle like any
	// event.
	Lookup(ctx context.Context, p Payment) (ev PaymentEvent, ok bool, err error)
}

// ExpireResult is what closing a checkout found.
type ExpireResult struct {
	// Completed: the moviegoer completed the checkout before it could be
	// closed; its outcome is Paid, or an asynchronous payment still under
	// way that its event will tell.
	Completed bool
	// Paid is the checkout's success, to settle like any event, when it
	// was paid before it could be closed.
	Paid *PaymentEvent
}

// RefundRequest is a refund to make at the provider.
type RefundRequest struct {
	Payment Payment
	Booking Booking
	Key     string // idempotency key: RefundKey(Booking)
	Reason  string // for the provider's records: why the money goes back
}

// RefundResult is what the provider said of a refund. A refund may be
// accepted and still fail later; the provider then sends a RefundEvent.
type RefundResult struct {
	ID string
	// Failed is set when the provider refused it at once, with
	// FailureReason.
	Failed        bool
	FailureReason string
}

// RefundEvent is a verified provider event saying that a refund failed
// after it was accepted: the booking is due its refund again.
type RefundEvent struct {
	ID        string // the provider's event id: it takes effect once
	RefundID  string
	BookingID string
	Reason    string
}

// ErrRefundFailed is a refund the provider refused, at once or later; the
// booking stays due, and the next attempt is a new refund.
var ErrRefundFailed = &Error{Code: EGONE, Message: "The payment provider refused the refund; the booking is still due one, and pressing Refund again tries a new one."}

// RefundSettlement is what a RefundEvent did.
type RefundSettlement struct {
	Effect    Effect // EffectRefundDue or EffectIgnored
	Reason    string
	Duplicate bool
	Booking   Booking
}

// DecideRefundFailed is the rule for a refund event (Booking.RefundFailed):
// the booking is due again, naming the failed refund; anything else is
// ignored.
func DecideRefundFailed(b Booking, ev RefundEvent, now time.Time) (RefundSettlement, Booking) {
	nb, changed := b.RefundFailed(ev.RefundID, ev.Reason, now)
	if !changed {
		return RefundSettlement{Effect: EffectIgnored, Reason: "the booking is neither refunded by this refund nor due one; nothing changed", Booking: b}, b
	}
	return RefundSettlement{Effect: EffectRefundDue, Reason: nb.Reason, Booking: nb}, nb
}
