// Package payment holds the payment providers: the built-in sandbox (the
// default, a stand-in for a hosted checkout) and, later, real ones. A provider
// does two things for the web layer: it sends the browser to a checkout, and
// it turns the provider's signed server-to-server callback into a
// booking.PaymentEvent the domain settles. It never touches the store's
// write side: what a payment event does is the domain's business.
package payment

import (
	"context"
	"errors"
	"net/http"
	"time"

	"boxoffice/internal/booking"
)

// Provider is a payment provider: it starts a hosted checkout for a payment
// and verifies its callbacks. Adding Stripe or Razorpay later means a new
// Provider, nothing else.
type Provider interface {
	Name() string
	// Checkout registers the payment with the provider and returns the URL
	// the browser goes to.
	Checkout(ctx context.Context, p booking.Payment) (checkoutURL string, err error)
	// VerifyCallback checks the raw callback (headers + raw body) and decodes
	// it into a domain event. Its errors are ErrMalformed or ErrBadSignature
	// (tell them apart with errors.Is); anything else is the server's fault.
	VerifyCallback(h http.Header, body []byte, now time.Time) (booking.PaymentEvent, error)
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
