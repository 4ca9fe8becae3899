package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"boxoffice/internal/booking"
)

// CheckoutPath is where the sandbox's checkout pages live:
// CheckoutPath + paymentID, GET to show, POST to pay or decline.
const CheckoutPath = "/sandbox/checkout/"

// DefaultRetryFor is how long the sandbox keeps retrying a callback. A real
// provider retries for days; the sandbox's moviegoer is waiting on the
// booking page, and after HOLD_TTL the seats are free anyway.
const DefaultRetryFor = time.Minute

// maxDeliveries bounds the callbacks in flight, so that a flood of clicks
// cannot grow goroutines without limit.
const maxDeliveries = 256

// SandboxOptions configure NewSandbox.
type SandboxOptions struct {
	// PublicURL is the app's base URL (PUBLIC_URL): the callback goes to
	// PublicURL + CallbackPath. The checkout URL is only its path: the
	// browser stays on whatever origin it used, and keeps its session.
	PublicURL string
	// Secret is PAYMENT_WEBHOOK_SECRET: it signs the callbacks the sandbox
	// sends and verifies the ones the app receives.
	Secret []byte
	// Payments reads a payment to show its checkout page.
	Payments PaymentLookup
	// HTTPClient sends callbacks; nil means one with a 10 second timeout.
	// Redirects are never followed, whatever its CheckRedirect (see
	// noRedirects).
	HTTPClient *http.Client
	// Logger records deliveries; nil means slog.Default().
	Logger *slog.Logger
	// Clock stamps events and signatures; nil means the system clock. Retry
	// timing always uses real timers.
	Clock func() time.Time
	// RetryFor is how long a callback is retried; 0 means DefaultRetryFor.
	RetryFor time.Duration
}

// Sandbox is the built-in provider (SPEC §6): a checkout page with Pay and
// Decline (which the app serves at CheckoutPath and answers with Decide),
// and a real signed HTTP callback to the app, retried like a real
// provider's. The app runs it in-process, but it tells the app an outcome
// only over HTTP, so the callback path is exercised exactly as with a
// hosted provider. Call Close at shutdown to stop pending retries.
type Sandbox struct {
	publicURL string
	basePath  string // PublicURL's path, without the trailing slash
	secret    []byte
	payments  PaymentLookup
	client    *http.Client
	log       *slog.Logger
	now       func() time.Time
	retryFor  time.Duration
	backoff   backoff

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	mu     sync.Mutex // guards closed and wg.Add against Close
	closed bool
	wg     sync.WaitGroup
	slots  chan struct{} // one per delivery in flight
}

var _ Provider = (*Sandbox)(nil)

// NewSandbox returns the sandbox provider, or an error when opts cannot work:
// PublicURL must be an absolute http(s) URL, Secret non-empty, Payments set.
func NewSandbox(opts SandboxOptions) (*Sandbox, error) {
	u, err := url.Parse(opts.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("payment: sandbox: PUBLIC_URL %q is not an absolute http(s) URL", opts.PublicURL)
	}
	if len(opts.Secret) == 0 {
		return nil, errNoSecret
	}
	if opts.Payments == nil {
		return nil, errors.New("payment: sandbox: no payment lookup")
	}
	s := &Sandbox{
		publicURL: strings.TrimRight(opts.PublicURL, "/"),
		basePath:  strings.TrimRight(u.EscapedPath(), "/"),
		secret:    opts.Secret,
		payments:  opts.Payments,
		client:    opts.HTTPClient,
		log:       opts.Logger,
		now:       opts.Clock,
		retryFor:  opts.RetryFor,
		backoff:   defaultBackoff,
		slots:     make(chan struct{}, maxDeliveries),
	}
	if s.client == nil {
		s.client = &http.Client{Timeout: 10 * time.Second}
	}
	client := *s.client // the caller's client stays as it was
	client.CheckRedirect = noRedirects
	s.client = &client
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = func() time.Time { return time.Now().UTC() }
	}
	if s.retryFor <= 0 {
		s.retryFor = DefaultRetryFor
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// Name is "sandbox".
func (s *Sandbox) Name() string { return "sandbox" }

// CallbackPath is CallbackPath: the sandbox's events follow SPEC §6.
func (s *Sandbox) CallbackPath() string { return CallbackPath }

// Checkout returns the path of the sandbox's page for p, relative to the
// app's origin: an absolute URL on PUBLIC_URL would send a visitor who came
// by another host name (127.0.0.1, a LAN address, a mapped port) to an origin
// without their session cookie. Nothing needs registering: the page reads
// the payment from the store. It has no ref: the sandbox keeps nothing of
// its own to close or look up, and its abandoned payments (nobody presses
// Pay or Decline) stay pending, which costs nothing.
func (s *Sandbox) Checkout(_ context.Context, r CheckoutRequest) (Checkout, error) {
	p := r.Payment
	if !validID(p.ID) {
		return Checkout{}, fmt.Errorf("payment: sandbox: checkout: invalid payment id %q", p.ID)
	}
	return Checkout{URL: s.basePath + CheckoutPath + p.ID}, nil
}

// VerifyCallback verifies the signature over the raw body first, and only
// then parses it: unauthenticated bytes never reach the JSON decoder.
func (s *Sandbox) VerifyCallback(h http.Header, body []byte, now time.Time) (Notification, error) {
	ev, err := VerifyEvent([][]byte{s.secret}, h, body, now)
	if err != nil {
		return Notification{}, err
	}
	return Notification{EventID: ev.ID, EventType: string(ev.Type), PaymentID: ev.PaymentID, Payment: &ev}, nil
}

// Refund is simulated: no money moved through the sandbox, so none goes
// back. It says so in the log and gives the refund an id of its own,
// "sandbox_re_…", the same for the same idempotency key, as a provider's
// is.
func (s *Sandbox) Refund(_ context.Context, r booking.RefundRequest) (booking.RefundResult, error) {
	sum := sha256.Sum256([]byte(r.Key))
	id := "sandbox_re_" + hex.EncodeToString(sum[:13])
	s.log.Warn("sandbox: refund simulated, no money moves", "payment_id", r.Payment.ID,
		"booking_id", r.Booking.ID, "refund_id", id, "idempotency_key", r.Key)
	return booking.RefundResult{ID: id}, nil
}

// Expire has nothing to close: the sandbox's checkouts have no ref, so
// boxoffice never asks (Service.CloseEndedCheckouts lists only payments
// with one). It says so if asked all the same.
func (s *Sandbox) Expire(_ context.Context, p booking.Payment) (booking.ExpireResult, error) {
	s.log.Info("sandbox: nothing to expire (simulated)", "payment_id", p.ID)
	return booking.ExpireResult{}, nil
}

// Lookup never knows more than the app: the sandbox keeps no record of its
// own, and its callback is the only way it tells an outcome.
func (s *Sandbox) Lookup(context.Context, booking.Payment) (booking.PaymentEvent, bool, error) {
	return booking.PaymentEvent{}, false, nil
}

// VerifyEvent is the callback check every provider using the boxoffice
// signature scheme shares: size, then signature (DefaultTolerance), then
// ParseEvent.
func VerifyEvent(secrets [][]byte, h http.Header, body []byte, now time.Time) (booking.PaymentEvent, error) {
	if len(body) > MaxCallbackBytes {
		return booking.PaymentEvent{}, malformed("body larger than %d bytes", MaxCallbackBytes)
	}
	values := h.Values(SignatureHeader)
	if len(values) > 1 {
		return booking.PaymentEvent{}, fmt.Errorf("%w: more than one header", ErrSignatureMalformed)
	}
	header := ""
	if len(values) == 1 {
		header = values[0]
	}
	if err := Verify(secrets, header, body, now, DefaultTolerance); err != nil {
		return booking.PaymentEvent{}, err
	}
	ev, err := ParseEvent(body)
	if err != nil {
		return booking.PaymentEvent{}, err
	}
	return ev.PaymentEvent(), nil
}

// ErrBusy is a Decide that could not queue its callback: the sandbox is
// shutting down or has too many in flight. Trying again later may work.
var ErrBusy = errors.New("payment: sandbox: busy or shutting down")

// Decide is what the moviegoer chose on the sandbox's checkout page (which
// the app serves, as web pages are the app's): for a pending payment it
// queues the signed callback that says it succeeded or failed, as a hosted
// checkout does; a payment with an outcome already gets no second one. It
// returns the payment; ErrPaymentNotFound for an unknown one.
func (s *Sandbox) Decide(ctx context.Context, paymentID string, succeed bool) (booking.Payment, error) {
	if !validID(paymentID) {
		return booking.Payment{}, booking.ErrPaymentNotFound
	}
	p, err := s.payments.Payment(ctx, paymentID)
	if err != nil {
		return booking.Payment{}, err
	}
	if p.State != booking.PaymentPending {
		return p, nil
	}
	typ := booking.EventPaymentFailed
	if succeed {
		typ = booking.EventPaymentSucceeded
	}
	if err := s.send(NewEvent(p, typ, s.now())); err != nil {
		s.log.Warn("sandbox: callback not queued", "payment_id", p.ID, "err", err)
		return p, fmt.Errorf("%w: %v", ErrBusy, err)
	}
	return p, nil
}

// Close stops pending callback retries and waits for their goroutines. The
// events stay undelivered, as when a provider gives up: the seats free
// themselves by the seat rule. After Close, Pay and Decline answer 503.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	return nil
}
