package payment

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"boxoffice/internal/booking"
)

// StripeWebhookPath is where Stripe posts its events, under PUBLIC_URL.
const StripeWebhookPath = "/payments/stripe/webhook"

// MaxStripeWebhookBytes is the largest webhook body accepted. A Checkout
// Session event is a few kilobytes; Stripe's own limit for an event is far
// below this.
const MaxStripeWebhookBytes = 256 << 10

// StripeSignatureHeader carries Stripe's signature of a webhook.
const StripeSignatureHeader = "Stripe-Signature"

// CheckoutLifetime is how long a Checkout Session stays open after the
// request that creates it (booking.CheckoutLifetime): Stripe refuses less
// than 30 minutes. A hold usually ends first, which closes its session
// (Service.CloseEndedCheckouts), and a payment that still lands is rescued
// or refunded by the rule of SPEC §2; a hold given More time may outlive
// it, and its expiry then ends that session only (SPEC §9).
const CheckoutLifetime = booking.CheckoutLifetime

// StripeCheckoutOrigin is where Stripe's hosted Checkout pages live: Pay's
// form post is redirected there.
const StripeCheckoutOrigin = "https://checkout.stripe.com"

// DefaultStripeAPIBase is Stripe's API.
const DefaultStripeAPIBase = "https://api.stripe.com"

// StripeAPIVersion is the API version stripe-go v85 speaks and whose
// events it decodes; the webhook endpoint must be created with it.
const StripeAPIVersion = stripe.APIVersion

// StripeOptions configure NewStripe.
type StripeOptions struct {
	SecretKey     string // sk_test_…, sk_live_…, rk_test_… or rk_live_…
	WebhookSecret string // whsec_…
	// APIBase is the API's base URL; "" means Stripe's. Tests point it at
	// stripe-mock.
	APIBase string
	// PaymentMethods are the Checkout Session's payment_method_types; nil
	// means card only, so that no payment arrives days after its hold.
	PaymentMethods []string
	// HTTPClient makes the API calls; nil means one with a 20 s timeout.
	HTTPClient *http.Client
	Logger     *slog.Logger
}

// Stripe takes payments through Stripe Checkout (SPEC §9): Pay creates a
// Checkout Session and sends the browser to it; Stripe's signed webhook
// events settle the payment. All API calls go through stripe-go.
type Stripe struct {
	client  *stripe.Client
	secret  string
	methods []string
	log     *slog.Logger
}

var _ Provider = (*Stripe)(nil)

// NewStripe returns the Stripe provider, or an error naming what is wrong
// with opts.
func NewStripe(opts StripeOptions) (*Stripe, error) {
	if err := CheckStripeKey(opts.SecretKey); err != nil {
		return nil, err
	}
	if err := CheckStripeWebhookSecret(opts.WebhookSecret); err != nil {
		return nil, err
	}
	base := opts.APIBase
	if base == "" {
		base = DefaultStripeAPIBase
	}
	if err := CheckStripeAPIBase(base); err != nil {
		return nil, err
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	methods := opts.PaymentMethods
	if len(methods) == 0 {
		methods = []string{"card"}
	}
	cfg := &stripe.BackendConfig{
		URL:        stripe.String(strings.TrimRight(base, "/")),
		HTTPClient: hc,
		// stripe-go logs every request failure at error level itself; our
		// callers log what matters, once, with the payment's id.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
		// Network errors and 409/5xx answers are retried by stripe-go with
		// the same idempotency key.
		MaxNetworkRetries: stripe.Int64(2),
	}
	client := stripe.NewClient(opts.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))
	return &Stripe{client: client, secret: opts.WebhookSecret, methods: methods, log: log}, nil
}

// CheckStripeKey accepts a secret or restricted key, test or live.
func CheckStripeKey(key string) error {
	for _, prefix := range []string{"sk_test_", "sk_live_", "rk_test_", "rk_live_"} {
		if strings.HasPrefix(key, prefix) && len(key) > len(prefix) {
			return nil
		}
	}
	return errors.New("payment: stripe: the secret key must start with sk_test_, sk_live_, rk_test_ or rk_live_")
}

// CheckStripeWebhookSecret accepts a webhook signing secret.
func CheckStripeWebhookSecret(secret string) error {
	if !strings.HasPrefix(secret, "whsec_") || len(secret) == len("whsec_") {
		return errors.New("payment: stripe: the webhook signing secret must start with whsec_")
	}
	return nil
}

// CheckStripeAPIBase accepts an absolute http(s) URL.
func CheckStripeAPIBase(base string) error {
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("payment: stripe: API base %q is not an absolute http(s) URL", base)
	}
	return nil
}

// IsLiveStripeKey reports whether key moves real money.
func IsLiveStripeKey(key string) bool {
	return strings.HasPrefix(key, "sk_live_") || strings.HasPrefix(key, "rk_live_")
}

// Name is "stripe".
func (s *Stripe) Name() string { return "stripe" }

// CallbackPath is StripeWebhookPath.
func (s *Stripe) CallbackPath() string { return StripeWebhookPath }

// Close has nothing to stop: every call is made within its request.
func (s *Stripe) Close() error { return nil }

// Checkout creates the Checkout Session of the payment's current attempt
// (booking.Service.PrepareCheckout began it), one line per seat category,
// with our ids as its client_reference_id and metadata, expiring when the
// attempt says (CheckoutLifetime after the request that began it), and an
// idempotency key derived from the payment id and the attempt: a Pay that
// goes to the attempt's session again asks Stripe with the same key and
// the same parameters and gets the same session back, never a second one.
func (s *Stripe) Checkout(ctx context.Context, r CheckoutRequest) (Checkout, error) {
	p := r.Payment
	if p.CheckoutAttempt < 1 || p.CheckoutExpiresAt.IsZero() {
		return Checkout{}, fmt.Errorf("payment: stripe: checkout of payment %s: no checkout attempt begun", p.ID)
	}
	var sum booking.Money
	for _, l := range r.Lines {
		sum += l.UnitPrice * booking.Money(l.Quantity)
	}
	if sum != p.Amount || len(r.Lines) == 0 {
		return Checkout{}, fmt.Errorf("payment: stripe: checkout of payment %s: line items sum to %d, the payment is %d", p.ID, sum, p.Amount)
	}
	ids := paymentMetadata(p)
	params := &stripe.CheckoutSessionCreateParams{
		Mode:               stripe.String(string(stripe.CheckoutSessionModePayment)),
		PaymentMethodTypes: stripe.StringSlice(s.methods),
		ClientReferenceID:  stripe.String(p.ID),
		Metadata:           ids,
		SuccessURL:         stripe.String(r.SuccessURL),
		CancelURL:          stripe.String(r.CancelURL),
		ExpiresAt:          stripe.Int64(p.CheckoutExpiresAt.Unix()),
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Metadata:    ids,
			Description: stripe.String(describeShow(r.Show)),
		},
	}
	for _, l := range r.Lines {
		params.LineItems = append(params.LineItems, &stripe.CheckoutSessionCreateLineItemParams{
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(strings.ToLower(p.Currency)),
				UnitAmount:  stripe.Int64(int64(l.UnitPrice)),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(l.Name)},
			},
			Quantity: stripe.Int64(int64(l.Quantity)),
		})
	}
	params.SetIdempotencyKey(CheckoutIdempotencyKey(p.ID, p.CheckoutAttempt))
	cs, err := s.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return Checkout{}, fmt.Errorf("payment: stripe: create checkout session for payment %s: %w", p.ID, err)
	}
	if cs.URL == "" || cs.ID == "" {
		return Checkout{}, fmt.Errorf("payment: stripe: checkout session for payment %s came back without id or url", p.ID)
	}
	return Checkout{URL: cs.URL, Ref: cs.ID}, nil
}

// CheckoutIdempotencyKey is the Idempotency-Key of the Checkout Session of
// payment paymentID's checkout attempt.
func CheckoutIdempotencyKey(paymentID string, attempt int) string {
	return "checkout-" + paymentID + "-" + strconv.Itoa(attempt)
}

func paymentMetadata(p booking.Payment) map[string]string {
	return map[string]string{"payment_id": p.ID, "hold_id": p.HoldID, "booking_id": p.BookingID}
}

func describeShow(show booking.Show) string {
	d := show.Movie.Title
	if show.Theatre.Name != "" {
		d += ", " + show.Theatre.Name
	}
	if !show.StartsAt.IsZero() {
		d += ", " + show.StartsAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	return d
}

// VerifyCallback checks a webhook with stripe-go's webhook package: the
// signature over the raw body with the webhook secret, then, against our
// own clock in both directions (stripe-go checks only staleness against
// the wall clock), the signature's time, then the event's API version as
// stripe-go does. Only a verified event is acted on.
func (s *Stripe) VerifyCallback(h http.Header, body []byte, now time.Time) (Notification, error) {
	if len(body) > MaxStripeWebhookBytes {
		return Notification{}, malformed("body larger than %d bytes", MaxStripeWebhookBytes)
	}
	values := h.Values(StripeSignatureHeader)
	switch {
	case len(values) == 0 || values[0] == "":
		return Notification{}, ErrSignatureMissing
	case len(values) > 1:
		return Notification{}, fmt.Errorf("%w: more than one header", ErrSignatureMalformed)
	}
	header := values[0]
	// One call checks the signature, decodes the event and checks its API
	// version; its signature errors are the webhook package's sentinels.
	ev, err := webhook.ConstructEventWithOptions(body, header, s.secret, webhook.ConstructEventOptions{IgnoreTolerance: true})
	switch {
	case errors.Is(err, webhook.ErrInvalidHeader) || errors.Is(err, webhook.ErrNotSigned):
		return Notification{}, fmt.Errorf("%w: %v", ErrSignatureMalformed, err)
	case errors.Is(err, webhook.ErrNoValidSignature):
		return Notification{}, fmt.Errorf("%w: %v", ErrSignatureMismatch, err)
	}
	t, ok := signatureTime(header)
	if !ok {
		return Notification{}, ErrSignatureMalformed
	}
	if d := now.Sub(t); d > DefaultTolerance || d < -DefaultTolerance {
		return Notification{}, ErrSignatureStale
	}
	if err != nil {
		return Notification{}, malformed("%v", err) // not JSON, or another API version
	}
	return notificationOf(ev)
}

// signatureTime is the t= of a Stripe-Signature header.
func signatureTime(header string) (time.Time, bool) {
	for _, part := range strings.Split(header, ",") {
		if v, ok := strings.CutPrefix(part, "t="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return time.Time{}, false
			}
			return time.Unix(n, 0), true
		}
	}
	return time.Time{}, false
}

// The events boxoffice acts on (SPEC §9). The endpoint should subscribe to
// these; any other verified event is acknowledged and changes nothing.
const (
	eventSessionCompleted     = "checkout.session.completed"
	eventAsyncPaymentSucceded = "checkout.session.async_payment_succeeded"
	eventAsyncPaymentFailed   = "checkout.session.async_payment_failed"
	eventSessionExpired       = "checkout.session.expired"
	eventRefundFailed         = "refund.failed"
)

// StripeEvents lists the event types the webhook endpoint must send.
var StripeEvents = []string{eventSessionCompleted, eventAsyncPaymentSucceded, eventAsyncPaymentFailed, eventSessionExpired, eventRefundFailed}

// notificationOf turns a verified event into what the domain settles,
// from the event's own object: no lookup at Stripe.
func notificationOf(ev stripe.Event) (Notification, error) {
	n := Notification{EventID: ev.ID, EventType: string(ev.Type)}
	if !validID(ev.ID) {
		return Notification{}, malformed("event id is not a valid id")
	}
	if ev.Data == nil {
		return Notification{}, malformed("event has no data")
	}
	switch string(ev.Type) {
	case eventSessionCompleted, eventAsyncPaymentSucceded, eventAsyncPaymentFailed, eventSessionExpired:
		var cs stripe.CheckoutSession
		if err := cs.UnmarshalJSON(ev.Data.Raw); err != nil {
			return Notification{}, malformed("checkout session: %v", err)
		}
		typ := booking.EventPaymentSucceeded
		switch {
		case string(ev.Type) == eventAsyncPaymentFailed:
			typ = booking.EventPaymentFailed
		case string(ev.Type) == eventSessionExpired:
			typ = booking.EventCheckoutExpired
		case string(ev.Type) == eventSessionCompleted && cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid:
			n.PaymentID = sessionPaymentID(&cs)
			n.Ack = fmt.Sprintf("session completed with payment_status %q: the outcome comes with checkout.session.async_payment_succeeded or _failed", cs.PaymentStatus)
			return n, nil
		}
		pe, ok := sessionEvent(&cs, typ, ev.ID)
		if !ok {
			n.Ack = "the checkout session names no payment of boxoffice (no client_reference_id)"
			return n, nil
		}
		n.PaymentID, n.Payment = pe.PaymentID, &pe
		return n, nil
	case eventRefundFailed:
		var r stripe.Refund
		if err := r.UnmarshalJSON(ev.Data.Raw); err != nil {
			return Notification{}, malformed("refund: %v", err)
		}
		n.PaymentID = plainMeta(r.Metadata, "payment_id")
		bookingID := plainMeta(r.Metadata, "booking_id")
		if bookingID == "" || !validID(r.ID) {
			n.Ack = "the refund names no booking of boxoffice (no metadata booking_id)"
			return n, nil
		}
		n.Refund = &booking.RefundEvent{ID: ev.ID, RefundID: r.ID, BookingID: bookingID, Reason: string(r.FailureReason)}
		return n, nil
	}
	n.Ack = "event type " + string(ev.Type) + " is not one boxoffice acts on"
	return n, nil
}

// sessionPaymentID is our payment id of a Checkout Session: its
// client_reference_id, or its metadata's payment_id.
func sessionPaymentID(cs *stripe.CheckoutSession) string {
	if validID(cs.ClientReferenceID) {
		return cs.ClientReferenceID
	}
	return plainMeta(cs.Metadata, "payment_id")
}

// sessionEvent is the payment outcome a Checkout Session tells, as the
// domain checks and settles it; ok is false when it names no payment of
// ours.
func sessionEvent(cs *stripe.CheckoutSession, typ booking.EventType, eventID string) (booking.PaymentEvent, bool) {
	id := sessionPaymentID(cs)
	if id == "" {
		return booking.PaymentEvent{}, false
	}
	pe := booking.PaymentEvent{
		ID: eventID, Type: typ, PaymentID: id, HoldID: plainMeta(cs.Metadata, "hold_id"),
		Amount: booking.Money(cs.AmountTotal), Currency: strings.ToUpper(string(cs.Currency)),
		// A verified session that says it is paid took this money,
		// whatever the payment expected (SPEC §9: refund_due).
		Charged: typ == booking.EventPaymentSucceeded,
	}
	if validID(cs.ID) {
		pe.CheckoutRef = cs.ID
	}
	if cs.PaymentIntent != nil && validID(cs.PaymentIntent.ID) {
		pe.ChargeRef = cs.PaymentIntent.ID
	}
	return pe, true
}

func plainMeta(m map[string]string, key string) string {
	if v := m[key]; validID(v) {
		return v
	}
	return ""
}

// Expire expires the payment's Checkout Session, so that it can no longer
// be paid. A session that is no longer open is what we wanted, unless it
// was completed: Stripe refuses to expire it, and Expire asks the
// session's status to tell that refusal from a real failure, and a session
// paid meanwhile from one expired (SPEC §9: Pay then settles that payment
// instead of opening another).
func (s *Stripe) Expire(ctx context.Context, p booking.Payment) (booking.ExpireResult, error) {
	if !isSessionID(p.CheckoutRef) {
		return booking.ExpireResult{}, nil // no Checkout Session of Stripe's (another provider's, or none)
	}
	_, err := s.client.V1CheckoutSessions.Expire(ctx, p.CheckoutRef, &stripe.CheckoutSessionExpireParams{})
	if err == nil {
		return booking.ExpireResult{}, nil
	}
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode == http.StatusBadRequest {
		cs, rerr := s.client.V1CheckoutSessions.Retrieve(ctx, p.CheckoutRef, nil)
		switch {
		case rerr != nil || cs.Status == stripe.CheckoutSessionStatusOpen:
		case cs.Status != stripe.CheckoutSessionStatusComplete:
			return booking.ExpireResult{}, nil // expired already
		default:
			res := booking.ExpireResult{Completed: true}
			ev, ok, oerr := sessionOutcome(cs, p)
			if oerr != nil {
				return booking.ExpireResult{}, oerr
			}
			if ok {
				res.Paid = &ev
			}
			return res, nil
		}
	}
	return booking.ExpireResult{}, fmt.Errorf("payment: stripe: expire checkout session %s of payment %s: %w", p.CheckoutRef, p.ID, err)
}

// Lookup retrieves the payment's Checkout Session and tells its outcome:
// complete and paid is a success, expired a failure; open, or complete with
// an asynchronous payment still under way, is none yet. The event's id is
// made from the session's, so that looking again settles nothing twice.
func (s *Stripe) Lookup(ctx context.Context, p booking.Payment) (booking.PaymentEvent, bool, error) {
	if !isSessionID(p.CheckoutRef) {
		return booking.PaymentEvent{}, false, nil
	}
	cs, err := s.client.V1CheckoutSessions.Retrieve(ctx, p.CheckoutRef, nil)
	if err != nil {
		return booking.PaymentEvent{}, false, fmt.Errorf("payment: stripe: retrieve checkout session %s of payment %s: %w", p.CheckoutRef, p.ID, err)
	}
	return sessionOutcome(cs, p)
}

// isSessionID reports whether ref is a Checkout Session's id.
func isSessionID(ref string) bool { return strings.HasPrefix(ref, "cs_") && validID(ref) }

// sessionOutcome is what a retrieved Checkout Session says of payment p:
// complete and paid is a success, expired the end of that checkout (which
// fails the payment once its hold has ended), anything else no outcome
// yet. The event's id is made from the session's, so that looking
// again settles nothing twice.
func sessionOutcome(cs *stripe.CheckoutSession, p booking.Payment) (booking.PaymentEvent, bool, error) {
	var typ booking.EventType
	switch {
	case cs.Status == stripe.CheckoutSessionStatusComplete && cs.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid:
		typ = booking.EventPaymentSucceeded
	case cs.Status == stripe.CheckoutSessionStatusExpired:
		typ = booking.EventCheckoutExpired
	default:
		return booking.PaymentEvent{}, false, nil
	}
	ev, ok := sessionEvent(cs, typ, "lookup_"+cs.ID+"_"+string(cs.Status))
	if !ok || ev.PaymentID != p.ID {
		return booking.PaymentEvent{}, false, fmt.Errorf("payment: stripe: checkout session %s names payment %q, not %s", cs.ID, ev.PaymentID, p.ID)
	}
	return ev, true, nil
}

// errNoCharge refuses a refund of a payment whose PaymentIntent boxoffice
// never learnt (one taken before Stripe was its provider): the admin is
// told where to make it.
var errNoCharge = booking.Errorf(booking.EINVALID, "Stripe has no payment of this booking on record with boxoffice; refund it in the Stripe dashboard, then press \"Refunded outside boxoffice\".")

// errAlreadyRefunded is Stripe's answer for a PaymentIntent refunded
// already, in its dashboard say.
var errAlreadyRefunded = booking.Errorf(booking.EINVALID, "Stripe says this payment was refunded already, outside boxoffice. Check it in the Stripe dashboard, then press \"Refunded outside boxoffice\".")

// refundError is what a refused refund request tells the admin: Stripe's
// refusals that are facts about the payment are domain errors with a
// message for people; anything else (Stripe unreachable, our key refused)
// is the server's trouble.
func refundError(p booking.Payment, err error) error {
	var se *stripe.Error
	if errors.As(err, &se) && se.Code == stripe.ErrorCodeChargeAlreadyRefunded {
		return fmt.Errorf("payment: stripe: refund payment %s: %w: %w", p.ID, errAlreadyRefunded, err)
	}
	return fmt.Errorf("payment: stripe: refund payment %s: %w", p.ID, err)
}

// Refund refunds the payment's PaymentIntent in full (POST /v1/refunds),
// with the request's idempotency key and our ids as metadata, so that a
// refund.failed event finds its booking.
func (s *Stripe) Refund(ctx context.Context, r booking.RefundRequest) (booking.RefundResult, error) {
	p := r.Payment
	if p.ChargeRef == "" {
		return booking.RefundResult{}, errNoCharge
	}
	meta := paymentMetadata(p)
	if r.Reason != "" && len(r.Reason) <= 500 { // Stripe's limit for a metadata value
		meta["reason"] = r.Reason
	}
	params := &stripe.RefundCreateParams{PaymentIntent: stripe.String(p.ChargeRef), Metadata: meta}
	params.SetIdempotencyKey(r.Key)
	ref, err := s.client.V1Refunds.Create(ctx, params)
	if err != nil {
		return booking.RefundResult{}, refundError(p, err)
	}
	res := booking.RefundResult{ID: ref.ID}
	if ref.Status == stripe.RefundStatusFailed || ref.Status == stripe.RefundStatusCanceled {
		res.Failed, res.FailureReason = true, string(ref.FailureReason)
	}
	return res, nil
}
