package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	sandboxview "boxoffice/views/sandbox"
)

// errNoPayments answers Pay and callbacks when no provider is configured.
var errNoPayments = echo.NewHTTPError(http.StatusServiceUnavailable, "no payment provider")

// handleHoldPay is Pay: POST /holds/:holdID/pay starts a payment for the
// visitor's hold and sends the browser to the provider's checkout. A hold
// that can no longer be paid for (expired, released, replaced) creates no
// payment and shows checkout again with why (410).
func (s *Server) handleHoldPay(c echo.Context) error {
	if s.opts.Payments == nil {
		return errNoPayments
	}
	ctx := c.Request().Context()
	holdID, owner := c.Param("holdID"), s.visitor(c)
	types, err := payChoice(c)
	if err != nil {
		return err
	}
	// The booking remembers the page's language for its mails (SPEC §19).
	started, err := s.svc.Pay(ctx, booking.PayRequest{
		HoldID: holdID, Owner: owner, Email: c.FormValue("email"), Types: types, Lang: string(localizer(c).Lang),
	})
	// Refusals speak the page's language (the checkout shows them).
	err = payError(localizer(c), err)
	var ce *booking.TypeChoiceError
	switch {
	case booking.ErrorCode(err) == booking.EGONE && !isHTMX(c):
		return s.showCheckout(c, holdID, owner, nil)
	case errors.As(err, &ce):
		// Named on the checkout (data-error-seat, data-rule), htmx or not.
		return s.showCheckout(c, holdID, owner, err)
	case booking.ErrorCode(err) == booking.EINVALID && !isHTMX(c):
		return s.showCheckout(c, holdID, owner, err)
	case err != nil && started.Payment.ID != "":
		// The new payment stands; the replaced one's checkout stays
		// listed and Pay, pressed again, closes it before going on.
		s.log.ErrorContext(ctx, "payment provider did not close a replaced checkout", "provider", s.opts.Payments.Name(),
			"payment_id", started.Payment.ID, "err", err, "request_id", requestIDOf(c))
		return errProviderUnavailable
	case err != nil:
		return err
	}
	p, b := started.Payment, started.Booking
	// Money is about to move: a new session token, so that one seen
	// before (on a shared computer, say) is worth nothing now; and the
	// address, to offer it again at the next checkout.
	if err := s.sessions.RenewToken(ctx); err != nil {
		return errorf("web: renew session token at Pay: %w", err)
	}
	s.sessions.Put(ctx, keyEmail, b.Email)
	plan, err := s.svc.PrepareCheckout(ctx, p)
	if err != nil {
		if booking.ErrorCode(err) == booking.ECONFLICT {
			return payError(localizer(c), err)
		}
		s.log.ErrorContext(ctx, "payment provider did not close a checkout", "provider", s.opts.Payments.Name(),
			"payment_id", p.ID, "err", err, "request_id", requestIDOf(c))
		return errProviderUnavailable
	}
	if plan.Done {
		// Paid meanwhile (settled now, or its event on the way), or under
		// way: the booking tells which.
		return redirect(c, bookingURL(p.BookingID))
	}
	p = plan.Payment
	show, lines, err := s.svc.Checkout(ctx, p)
	if err != nil {
		return errorf("web: checkout of payment %s: %w", p.ID, err)
	}
	co, err := s.opts.Payments.Checkout(ctx, payment.CheckoutRequest{
		Payment: p, Show: show, Lines: lines,
		SuccessURL: s.publicURL + bookingURL(p.BookingID),
		CancelURL:  s.publicURL + holdURL(holdID),
	})
	if err != nil {
		s.log.ErrorContext(ctx, "payment provider refused a checkout", "provider", s.opts.Payments.Name(),
			"payment_id", p.ID, "attempt", p.CheckoutAttempt, "err", err, "request_id", requestIDOf(c))
		return errProviderUnavailable
	}
	err = s.svc.CheckoutOpened(ctx, p, co.Ref)
	if errors.Is(err, booking.ErrCheckoutSuperseded) {
		// A later Pay began another attempt while this one was made:
		// never two open checkouts of one payment.
		closed := p
		closed.CheckoutRef = co.Ref
		if _, xerr := s.opts.Payments.Expire(ctx, closed); xerr != nil {
			s.log.ErrorContext(ctx, "payment provider did not close a superseded checkout", "payment_id", p.ID,
				"checkout", co.Ref, "err", xerr, "request_id", requestIDOf(c))
		}
		return payError(localizer(c), err)
	}
	if err != nil {
		// Without its id the checkout could never be closed when the hold
		// ends, nor looked up: Pay again, within the attempt, gets the
		// same checkout back (its idempotency key) and records it then.
		return errorf("web: recording checkout %s of payment %s: %w", co.Ref, p.ID, err)
	}
	return redirect(c, co.URL)
}

// payChoice is the choice of types a Pay form carries: each field
// type_<seatID>, whatever the hold's seats are (the Pay step reads the
// choice of its seats only). A form of more fields than any hold has
// seats is refused.
func payChoice(c echo.Context) (booking.TypeChoice, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, booking.Errorf(booking.EINVALID, "The form could not be read.")
	}
	var out booking.TypeChoice
	for k, v := range form {
		id, ok := strings.CutPrefix(k, "type_")
		if !ok || len(v) == 0 || v[0] == "" {
			continue
		}
		if out == nil {
			out = booking.TypeChoice{}
		}
		if len(out) >= maxTypeFields {
			return nil, booking.Errorf(booking.EINVALID, "The form chooses types for too many seats.")
		}
		out[booking.Truncate(id, 40)] = booking.Truncate(v[0], 40)
	}
	return out, nil
}

// maxTypeFields bounds the type_<seatID> fields of one Pay.
const maxTypeFields = 64

// errProviderUnavailable answers Pay when the provider did not make a
// checkout: nothing was charged, and pressing Pay again asks again.
var errProviderUnavailable = echo.NewHTTPError(http.StatusServiceUnavailable, "payment provider unavailable")

// callbackAnswer is the JSON body of every answer to a callback: what the
// provider's logs show.
type callbackAnswer struct {
	Effect    booking.Effect `json:"effect,omitempty"`
	Duplicate bool           `json:"duplicate,omitempty"`
	Ignored   string         `json:"ignored,omitempty"`
	Error     string         `json:"error,omitempty"`
}

// answerPolicy is how a provider's route answers a verified event that
// names no payment of ours or does not match it: the sandbox's contract
// (SPEC §6) says 404 and 422; Stripe retries every non-2xx for days, so its
// route says 200 and the callback log keeps why (SPEC §9).
type answerPolicy struct {
	unknown, mismatch int
}

var (
	sandboxAnswers = answerPolicy{unknown: http.StatusNotFound, mismatch: http.StatusUnprocessableEntity}
	stripeAnswers  = answerPolicy{unknown: http.StatusOK, mismatch: http.StatusOK}
)

// handlePaymentCallback is POST /payments/callback (SPEC §6), the
// sandbox's signed callback; 404 with another provider. The provider
// verifies the raw body's signature before anything parses it; the store
// applies the event at most once, in the transaction that records its id.
// 200 processed or duplicate, 400 malformed, 401 bad signature, 404 unknown
// payment, 422 mismatch; anything else is our fault (5xx, retried).
//
// A callback refused before it is verified (unreadable, oversized, badly
// signed, malformed) is anybody's, on a public route: it stores nothing
// and is only counted (refuseUnverified, SPEC §12). Every verified one is
// then written to the callback log (recordCallback) for the admin pages:
// after the settlement, not in its transaction, because the log observes
// and decides nothing. The effect and its idempotency are already recorded
// atomically with the event id; a log line lost to a crash between the two
// is the only cost, and the provider, which got no answer, retries and is
// logged as a duplicate.
func (s *Server) handlePaymentCallback(c echo.Context) error {
	if s.opts.Payments == nil {
		return s.callbackFailed(c, http.StatusServiceUnavailable, errNoPayments)
	}
	if s.opts.Payments.CallbackPath() != payment.CallbackPath {
		return s.callbackFailed(c, http.StatusNotFound, echo.ErrNotFound)
	}
	r := c.Request()
	received := s.svc.Now().Now
	body, err := io.ReadAll(io.LimitReader(r.Body, payment.MaxCallbackBytes+1))
	if err != nil {
		return s.refuseUnverified(c, http.StatusBadRequest, refusedMalformed, "The body could not be read.", err)
	}
	n, err := s.opts.Payments.VerifyCallback(r.Header, body, received)
	switch {
	case errors.Is(err, payment.ErrBadSignature):
		return s.refuseUnverified(c, http.StatusUnauthorized, refusedBadSignature, "The signature is missing, wrong or stale.", err)
	case errors.Is(err, payment.ErrMalformed):
		return s.refuseUnverified(c, http.StatusBadRequest, refusedMalformed, "The body is not a well-formed event.", err)
	case err != nil:
		s.metrics.callback("error")
		return s.callbackFailed(c, http.StatusInternalServerError, errorf("web: verify callback: %w", err))
	}
	return s.applyNotification(c, n, received, sandboxAnswers)
}

// handleStripeWebhook is POST /payments/stripe/webhook (SPEC §9); 404 with
// another provider. A webhook that is too large, unsigned, badly signed,
// stale, or on another API version is 400 and stores nothing: before its
// signature is verified it is anybody's, and only a counter and a sampled
// log line note it (refuseUnverified). A verified one is settled like the
// sandbox's callback.
func (s *Server) handleStripeWebhook(c echo.Context) error {
	if s.opts.Payments == nil || s.opts.Payments.CallbackPath() != payment.StripeWebhookPath {
		return s.callbackFailed(c, http.StatusNotFound, echo.ErrNotFound)
	}
	r := c.Request()
	received := s.svc.Now().Now
	body, err := io.ReadAll(io.LimitReader(r.Body, payment.MaxStripeWebhookBytes+1))
	if err == nil {
		var n payment.Notification
		n, err = s.opts.Payments.VerifyCallback(r.Header, body, received)
		if err == nil {
			return s.applyNotification(c, n, received, stripeAnswers)
		}
	}
	why := refusedMalformed // also a body that could not be read
	if errors.Is(err, payment.ErrBadSignature) {
		why = refusedBadSignature
	}
	return s.refuseUnverified(c, http.StatusBadRequest, why,
		"The webhook is not a verified Stripe event of this endpoint: "+why+".", err)
}

// applyNotification is the one path by which a verified provider event
// takes effect, whichever provider sent it: an outcome is settled by the
// domain (each event id once, first outcome wins, late rescue or
// refund_due), a failed refund puts its booking back in the queue, and an
// event without effect is acknowledged. Each is logged in the callback log
// with what it did or why not.
func (s *Server) applyNotification(c echo.Context, n payment.Notification, received time.Time, policy answerPolicy) error {
	ctx := c.Request().Context()
	rec := booking.CallbackRecord{
		ID: booking.NewID(), ReceivedAt: received, Signature: booking.SignatureValid,
		EventID: n.EventID, EventType: n.EventType, PaymentID: n.PaymentID,
	}
	var (
		effect    booking.Effect
		duplicate bool
		reason    string
		err       error
	)
	switch {
	case n.Payment != nil:
		var st booking.Settlement
		st, err = s.svc.SettlePayment(ctx, *n.Payment)
		effect, duplicate, reason = st.Effect, st.Duplicate, st.Reason
		if st.RefundErr != nil {
			s.log.ErrorContext(ctx, "automatic refund failed; the booking stays in the refund queue",
				"booking_id", st.Booking.ID, "err", st.RefundErr, "request_id", requestIDOf(c))
		}
	case n.Refund != nil:
		var st booking.RefundSettlement
		st, err = s.svc.SettleRefund(ctx, *n.Refund)
		effect, duplicate, reason = st.Effect, st.Duplicate, st.Reason
		if err == nil && rec.PaymentID == "" {
			rec.PaymentID = st.Booking.PaymentID
		}
	default:
		s.metrics.callback(booking.OutcomeAcknowledged)
		rec.Status, rec.Outcome, rec.Reason = http.StatusOK, booking.OutcomeAcknowledged, n.Ack
		s.recordCallback(c, rec)
		return c.JSON(http.StatusOK, callbackAnswer{Ignored: n.Ack})
	}
	switch {
	case err == nil:
	case namesNothingOfOurs(n, err):
		return s.settleRefused(c, policy.unknown, "unknown_payment", err, rec)
	case booking.ErrorCode(err) == booking.EINVALID:
		return s.settleRefused(c, policy.mismatch, "mismatch", err, rec)
	default:
		s.metrics.callback("error")
		status := busy(c, err, http.StatusInternalServerError)
		rec.Status, rec.Outcome, rec.Reason = status, booking.OutcomeError,
			"not applied: the store failed; the provider will retry"
		s.recordCallback(c, rec)
		return s.callbackFailed(c, status,
			errorf("web: settle event %s (%s, payment %s): %w", n.EventID, n.EventType, n.PaymentID, err))
	}
	outcome := string(effect)
	if duplicate {
		outcome = "duplicate"
	}
	s.metrics.callback(outcome)
	rec = rec.Applied(http.StatusOK, effect, duplicate, reason)
	s.log.InfoContext(ctx, "payment event", "event_id", n.EventID, "type", n.EventType,
		"payment_id", rec.PaymentID, "effect", string(effect), "duplicate", duplicate,
		"reason", rec.Reason, "request_id", requestIDOf(c))
	s.recordCallback(c, rec)
	return c.JSON(http.StatusOK, callbackAnswer{Effect: effect, Duplicate: duplicate})
}

// namesNothingOfOurs reports whether err, from settling n, says that the
// event names no payment of ours (a payment event) or no booking (a refund
// event): the provider's mistake, answered by the route's policy. Any
// other not-found met while settling is a broken invariant of our
// database (a payment whose booking, hold or show is missing) and so our
// fault: a 5xx, logged as an error, which the provider retries.
func namesNothingOfOurs(n payment.Notification, err error) bool {
	if n.Refund != nil {
		return errors.Is(err, booking.ErrBookingNotFound)
	}
	return errors.Is(err, booking.ErrPaymentNotFound)
}

// settleRefused answers a verified event the domain would not apply (it
// names no payment of ours, or does not match it) with the provider's
// policy's status, and logs it with the reason.
func (s *Server) settleRefused(c echo.Context, status int, why string, err error, rec booking.CallbackRecord) error {
	message := booking.ErrorMessage(err)
	if status/100 != 2 {
		return s.refuseCallback(c, status, why, message, err, rec)
	}
	s.metrics.callback(why)
	s.log.WarnContext(c.Request().Context(), "payment event acknowledged without effect",
		"why", why, "err", err, "event_id", rec.EventID, "payment_id", rec.PaymentID, "request_id", requestIDOf(c))
	rec.Status, rec.Outcome, rec.Reason = status, booking.OutcomeAcknowledged, why+": "+message
	s.recordCallback(c, rec)
	return c.JSON(status, callbackAnswer{Ignored: why + ": " + message})
}

// refuseCallback answers a verified callback that will not take effect,
// and logs it for the admin pages. Refusals are the sender's problem, so
// they are logged as warnings, with the reason.
func (s *Server) refuseCallback(c echo.Context, status int, outcome, message string, err error, rec booking.CallbackRecord) error {
	s.metrics.callback(outcome)
	s.log.WarnContext(c.Request().Context(), "payment callback refused",
		"status", status, "err", err, "request_id", requestIDOf(c))
	rec.Status, rec.Outcome = status, booking.OutcomeRejected
	rec.Reason = outcome + ": " + message
	s.recordCallback(c, rec)
	return c.JSON(status, callbackAnswer{Error: message})
}

// callbackFailed answers a callback that failed on our side (the provider
// retries) in the same JSON as every other answer, and logs err; its text
// stays in the log.
func (s *Server) callbackFailed(c echo.Context, status int, err error) error {
	if clientGone(c, err) {
		c.Response().Status = statusClientClosedRequest // for the metrics; nobody reads an answer
		return nil
	}
	status = busy(c, err, status)
	if status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "payment callback failed",
			"err", err, "status", status, "request_id", requestIDOf(c))
	}
	return c.JSON(status, callbackAnswer{Error: http.StatusText(status)})
}

// hostedCheckout is a provider whose checkout page this app serves: the
// sandbox (payment.Sandbox), which decides what Pay and Decline do. Hosted
// providers such as Stripe have none.
type hostedCheckout interface {
	Decide(ctx context.Context, paymentID string, succeed bool) (booking.Payment, error)
}

const sandboxCheckoutRoute = payment.CheckoutPath + ":paymentID"

// handleSandboxCheckout is GET /sandbox/checkout/:paymentID: the amount,
// the merchant, Pay and Decline; or, for a payment that has an outcome
// already, a link to its booking.
func (s *Server) handleSandboxCheckout(c echo.Context) error {
	if _, ok := s.opts.Payments.(hostedCheckout); !ok {
		return echo.ErrNotFound
	}
	p, err := s.svc.Payment(c.Request().Context(), c.Param("paymentID"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	state := string(p.State)
	if p.State == booking.PaymentPending && !p.ReplacedAt.IsZero() {
		state = "replaced"
	}
	return s.render(c, http.StatusOK, sandboxview.CheckoutPage(sandboxview.Checkout{
		PaymentID:  p.ID,
		Merchant:   "boxoffice",
		Amount:     p.Amount.Format(p.Currency),
		AmountRaw:  strconv.FormatInt(int64(p.Amount), 10),
		Currency:   p.Currency,
		State:      state,
		Action:     payment.CheckoutPath + p.ID,
		CSRFToken:  s.csrfToken(c),
		BookingURL: bookingURL(p.BookingID),
		Stylesheet: s.assets.prefix + "/css/app.css",
	}))
}

// handleSandboxCheckoutSubmit is POST /sandbox/checkout/:paymentID with
// outcome=succeed (Pay) or outcome=decline; the CSRF middleware has checked
// its _csrf field. The sandbox queues its signed callback and the browser
// goes to its booking at once (303), as from a hosted checkout; the booking
// shows pending until the callback has been processed.
func (s *Server) handleSandboxCheckoutSubmit(c echo.Context) error {
	hc, ok := s.opts.Payments.(hostedCheckout)
	if !ok {
		return echo.ErrNotFound
	}
	outcome, err := postForm(c, "outcome")
	if err != nil {
		return err
	}
	if len(outcome) != 1 || (outcome[0] != "succeed" && outcome[0] != "decline") {
		return booking.Errorf(booking.EINVALID, "Choose Pay or Decline.")
	}
	p, err := hc.Decide(c.Request().Context(), c.Param("paymentID"), outcome[0] == "succeed")
	if errors.Is(err, payment.ErrBusy) {
		c.Response().Header().Set("Retry-After", "5")
		return echo.NewHTTPError(http.StatusServiceUnavailable)
	}
	if err != nil {
		return err
	}
	return redirect(c, bookingURL(p.BookingID))
}
