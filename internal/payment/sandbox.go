package payment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// booking page, and after HOLD_TTL the seats are free anyway. A callback
// given up is not lost: a lookup of its stuck payment (SPEC §9) answers
// with the outcome it carries.
const DefaultRetryFor = time.Minute

// DefaultCallbackLease is how long a process keeps a callback it is
// delivering before another may try it: longer than an attempt (the
// callback client's timeout, 10 seconds by default, bounded by the lease
// too).
const DefaultCallbackLease = 15 * time.Second

// callbackBatch bounds the callbacks one Deliver claims.
const callbackBatch = 10

// SandboxStore is what the sandbox needs of storage: reading a payment to
// show its checkout page, and the callback outbox (SPEC §6) its outcomes
// are recorded in and delivered from. booking.Store satisfies it.
type SandboxStore interface {
	PaymentLookup
	booking.Transactor
	booking.CallbackOutboxStore
}

// SandboxOptions configure NewSandbox.
type SandboxOptions struct {
	// PublicURL is the app's base URL (PUBLIC_URL): the callback goes to
	// PublicURL + CallbackPath. The checkout URL is only its path: the
	// browser stays on whatever origin it used, and keeps its session.
	PublicURL string
	// Secret is PAYMENT_WEBHOOK_SECRET: it signs the callbacks the sandbox
	// sends and verifies the ones the app receives.
	Secret []byte
	// Payments reads a payment to show its checkout page, and keeps the
	// callback outbox.
	Payments SandboxStore
	// HTTPClient sends callbacks; nil means one with a 10 second timeout.
	// Redirects are never followed, whatever its CheckRedirect (see
	// noRedirects).
	HTTPClient *http.Client
	// Logger records deliveries; nil means slog.Default().
	Logger *slog.Logger
	// Clock stamps events and signatures and times the outbox's claims
	// and retries; nil means the system clock.
	Clock func() time.Time
	// RetryFor is how long after it was chosen a callback is retried; 0
	// means DefaultRetryFor.
	RetryFor time.Duration
	// Lease is how long a claimed callback is left to the process
	// delivering it; 0 means DefaultCallbackLease.
	Lease time.Duration
}

// Sandbox is the built-in provider (SPEC §6): a checkout page with Pay and
// Decline (which the app serves at CheckoutPath and answers with Decide),
// and a real signed HTTP callback to the app, retried like a real
// provider's. The outcome chosen is recorded with its callback in an
// outbox in the database, in one step, and Deliver, which every process
// runs in the background, posts it: a process killed before delivering it
// loses nothing. It tells the app an outcome only over HTTP (or when the
// app looks a stuck payment up), so the callback path is exercised exactly
// as with a hosted provider.
type Sandbox struct {
	publicURL string
	basePath  string // PublicURL's path, without the trailing slash
	secret    []byte
	store     SandboxStore
	client    *http.Client
	log       *slog.Logger
	now       func() time.Time
	retryFor  time.Duration
	lease     time.Duration
	backoff   backoff

	mu     sync.Mutex // guards closed and queued
	closed bool
	queued func() // called after an outcome is recorded; see OnQueued
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
		store:     opts.Payments,
		client:    opts.HTTPClient,
		log:       opts.Logger,
		now:       opts.Clock,
		retryFor:  opts.RetryFor,
		lease:     opts.Lease,
		backoff:   defaultBackoff,
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
	if s.lease <= 0 {
		s.lease = DefaultCallbackLease
	}
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

// Lookup answers with the outcome chosen on p's checkout page, recorded
// with its callback (SPEC §6): a payment whose callback has not arrived
// (still being retried, given up, or its process killed) can be settled
// by a lookup of it like a Stripe one (Service.RefreshPending). ok is false
// while nobody chose.
func (s *Sandbox) Lookup(ctx context.Context, p booking.Payment) (booking.PaymentEvent, bool, error) {
	c, err := s.store.OutboundCallback(ctx, p.ID)
	switch {
	case errors.Is(err, booking.ErrCallbackNotFound):
		return booking.PaymentEvent{}, false, nil
	case err != nil:
		return booking.PaymentEvent{}, false, err
	}
	ev, err := ParseEvent(c.Body)
	if err != nil {
		return booking.PaymentEvent{}, false, fmt.Errorf("payment: sandbox: the recorded callback of payment %s: %w", p.ID, err)
	}
	return ev.PaymentEvent(), true, nil
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

// ErrBusy is a Decide after Close: the sandbox is shutting down, and the
// store with it. Trying again later may work.
var ErrBusy = errors.New("payment: sandbox: shutting down")

// Decide is what the moviegoer chose on the sandbox's checkout page (which
// the app serves, as web pages are the app's): for a pending payment it
// records the outcome with its signed callback in the outbox, in one step
// (booking.QueueCallbackStep), for Deliver to post, as a hosted checkout
// does; a payment with an outcome already, chosen or settled, gets no
// second one. It returns the payment; ErrPaymentNotFound for an unknown
// one.
func (s *Sandbox) Decide(ctx context.Context, paymentID string, succeed bool) (booking.Payment, error) {
	if !validID(paymentID) {
		return booking.Payment{}, booking.ErrPaymentNotFound
	}
	s.mu.Lock()
	closed, queued := s.closed, s.queued
	s.mu.Unlock()
	if closed {
		return booking.Payment{}, ErrBusy
	}
	p, err := s.store.Payment(ctx, paymentID)
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
	ev := NewEvent(p, typ, s.now())
	body, err := json.Marshal(ev)
	if err != nil {
		return p, fmt.Errorf("payment: sandbox: encode event: %w", err)
	}
	c, err := booking.QueueCallbackStep(ctx, s.store, s.now, booking.OutboundCallback{PaymentID: p.ID, EventID: ev.ID, Type: typ, Body: body})
	if err != nil {
		return p, err
	}
	if c.EventID == ev.ID {
		s.log.Info("sandbox: outcome recorded; its callback is queued", "payment_id", p.ID, "event_id", ev.ID, "type", string(typ))
		if queued != nil {
			queued()
		}
	}
	return p, nil
}

// OnQueued has the sandbox call queued, which must not block, each time
// it records an outcome: the process's deliverer runs Deliver at once
// rather than at its next turn.
func (s *Sandbox) OnQueued(queued func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queued = queued
}

// Close makes Decide refuse (ErrBusy): the store is closing. Callbacks
// still in the outbox stay there, for the next process to deliver.
func (s *Sandbox) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}
