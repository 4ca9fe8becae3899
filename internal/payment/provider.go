// Package payment holds the payment providers: the built-in sandbox (the
// default, a stand-in for a hosted checkout) and Stripe. A provider does two
// things for the web layer: it sends the browser to a checkout, and it turns
// the provider's signed server-to-server events into a Notification the
// domain settles. For the domain it refunds, closes checkouts and looks
// stuck payments up (booking.Payments). It never touches the store's write
// side: what a payment event does is the domain's business.
package payment

import (
	"context"
	"errors"
	"net/http"
	"time"

	"boxoffice/internal/booking"
)

// Provider is a payment provider: it starts a hosted checkout for a payment,
// verifies its events, and does what the domain asks of it
// (booking.Payments: refund, expire a checkout, look a payment up). Adding
// Razorpay means a new Provider, nothing else.
type Provider interface {
	// Name is in booking.Payments: the name Pay records with a payment.
	// CallbackPath is the route of this app where the provider's events
	// arrive (CallbackPath for the sandbox, StripeWebhookPath for Stripe);
	// the other providers' routes answer 404.
	CallbackPath() string
	// Checkout registers the payment with the provider and returns where
	// the browser goes, and the provider's id of the checkout. For one
	// payment it is the same checkout however often it is asked.
	Checkout(ctx context.Context, r CheckoutRequest) (Checkout, error)
	// VerifyCallback checks the raw event (headers + raw body) against our
	// clock and decodes it. Its errors are ErrMalformed or ErrBadSignature
	// (tell them apart with errors.Is); anything else is the server's
	// fault.
	VerifyCallback(h http.Header, body []byte, now time.Time) (Notification, error)
	booking.Payments
}

// CheckoutRequest is what a checkout is made of.
type CheckoutRequest struct {
	Payment booking.Payment
	Show    booking.Show
	Lines   []booking.LineItem // sum to Payment.Amount
	// SuccessURL is where the browser goes once it paid (the booking),
	// CancelURL where it goes when the moviegoer gives up (the checkout of
	// the hold): absolute URLs on PUBLIC_URL.
	SuccessURL, CancelURL string
}

// Checkout is a checkout the provider made.
type Checkout struct {
	URL string // where the browser goes
	Ref string // the provider's id of it (booking.Payment.CheckoutRef)
}

// Notification is a verified provider event, as the domain needs it:
// exactly one of Payment (an outcome to settle), Refund (a refund that
// failed) or Ack (why it has no effect: an event type we do not act on, a
// checkout completed but not yet paid) is set.
type Notification struct {
	EventID   string
	EventType string // the provider's own name for it, for the log
	PaymentID string // the payment it names, when it names one of ours
	Payment   *booking.PaymentEvent
	Refund    *booking.RefundEvent
	Ack       string
}

// PaymentLookup is the one thing the sandbox needs from storage: reading a
// payment to show its checkout page. booking.Store satisfies it.
type PaymentLookup interface {
	Payment(ctx context.Context, id string) (booking.Payment, error)
}

// CallbackPath is where every provider posts its callbacks, under PUBLIC_URL.
const CallbackPath = "/payments/callback"

// MaxCallbackBytes is the largest callback body accepted. The web handler
// reads at most this much (plus one byte, to notice a longer one) so that a
// caller cannot make the server buffer an unbounded body before the
// signature is checked. A real event is a few hundred bytes.
const MaxCallbackBytes = 64 << 10

// ErrMalformed means the callback is not a well-formed event (answer 400):
// bad JSON, unknown type, missing or invalid fields, too large. Callers
// retrying the same bytes will fail the same way.
var ErrMalformed = errors.New("payment: malformed callback")

// ErrBadSignature means the callback's signature is missing, malformed,
// wrong or stale (answer 401). The finer sentinels below all match it with
// errors.Is, so the web layer needs to test for this one only and may log
// the finer one.
var ErrBadSignature = errors.New("payment: bad signature")

// signatureError is a reason for ErrBadSignature; it matches itself and
// ErrBadSignature with errors.Is.
type signatureError struct{ reason string }

func (e *signatureError) Error() string        { return "payment: bad signature: " + e.reason }
func (e *signatureError) Is(target error) bool { return target == ErrBadSignature }

// The reasons a signature is refused, for logs and tests. Each is also
// ErrBadSignature.
var (
	ErrSignatureMissing   error = &signatureError{"no " + SignatureHeader + " header"}
	ErrSignatureMalformed error = &signatureError{"malformed " + SignatureHeader + " header"}
	ErrSignatureMismatch  error = &signatureError{"no v1 signature matches"}
	ErrSignatureStale     error = &signatureError{"timestamp outside the tolerance"}
)

// errNoSecret is a configuration error, not the caller's: verifying with an
// empty key would accept anything anyone can compute.
var errNoSecret = errors.New("payment: no webhook secret configured")
