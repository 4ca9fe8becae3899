package web

import (
	"context"
	"errors"
	"io"
	"net/http"

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
	p, _, err := s.svc.StartPayment(ctx, holdID, owner)
	switch {
	case booking.ErrorCode(err) == booking.EGONE && !isHTMX(c):
		return s.showCheckout(c, holdID, owner)
	case err != nil:
		return err
	}
	checkoutURL, err := s.opts.Payments.Checkout(ctx, p)
	if err != nil {
		return errorf("web: %s checkout of payment %s: %w", s.opts.Payments.Name(), p.ID, err)
	}
	return redirect(c, checkoutURL)
}

// callbackAnswer is the JSON body of every answer to a callback: what the
// provider's logs show.
type callbackAnswer struct {
	Effect    booking.Effect `json:"effect,omitempty"`
	Duplicate bool           `json:"duplicate,omitempty"`
	Error     string         `json:"error,omitempty"`
}

// handlePaymentCallback is POST /payments/callback (SPEC §6). The provider
// verifies the raw body's signature before anything parses it; the store
// applies the event at most once, in the transaction that records its id.
// 200 processed or duplicate, 400 malformed, 401 bad signature, 404 unknown
// payment, 422 mismatch; anything else is our fault (5xx, retried).
//
// Every callback, refused ones too, is then written to the callback log
// (recordCallback) for the admin pages: after the settlement, not in its
// transaction, because the log observes and decides nothing. The effect and
// its idempotency are already recorded atomically with the event id; a log
// line lost to a crash between the two is the only cost, and the provider,
// which got no answer, retries and is logged as a duplicate.
func (s *Server) handlePaymentCallback(c echo.Context) error {
	if s.opts.Payments == nil {
		return s.callbackFailed(c, http.StatusServiceUnavailable, errNoPayments)
	}
	r := c.Request()
	received := s.svc.Now().Now
	body, err := io.ReadAll(io.LimitReader(r.Body, payment.MaxCallbackBytes+1))
	if err != nil {
		return s.refuseCallback(c, http.StatusBadRequest, "malformed", "The body could not be read.", err,
			claimedCallback(nil, booking.SignatureUnchecked, received))
	}
	ev, err := s.opts.Payments.VerifyCallback(r.Header, body, received)
	switch {
	case errors.Is(err, payment.ErrBadSignature):
		return s.refuseCallback(c, http.StatusUnauthorized, "bad_signature", "The signature is missing, wrong or stale.", err,
			claimedCallback(body, booking.SignatureInvalid, received))
	case errors.Is(err, payment.ErrMalformed):
		return s.refuseCallback(c, http.StatusBadRequest, "malformed", "The body is not a well-formed event.", err,
			claimedCallback(body, booking.SignatureUnchecked, received))
	case err != nil:
		s.metrics.callback("error")
		return s.callbackFailed(c, http.StatusInternalServerError, errorf("web: verify callback: %w", err))
	}
	verified := booking.CallbackRecord{
		ID: booking.NewID(), ReceivedAt: received, Signature: booking.SignatureValid,
		EventID: ev.ID, EventType: string(ev.Type), PaymentID: ev.PaymentID,
	}

	st, err := s.svc.SettlePayment(r.Context(), ev)
	switch booking.ErrorCode(err) {
	case "":
	case booking.ENOTFOUND:
		return s.refuseCallback(c, http.StatusNotFound, "unknown_payment", booking.ErrorMessage(err), err, verified)
	case booking.EINVALID:
		return s.refuseCallback(c, http.StatusUnprocessableEntity, "mismatch", booking.ErrorMessage(err), err, verified)
	default:
		s.metrics.callback("error")
		status := http.StatusInternalServerError
		if timedOut(c, err) {
			status = http.StatusServiceUnavailable
		}
		verified.Status, verified.Outcome, verified.Reason = status, booking.OutcomeError,
			"not applied: the store failed; the provider will retry"
		s.recordCallback(c, verified)
		return s.callbackFailed(c, status,
			errorf("web: settle payment %s, event %s: %w", ev.PaymentID, ev.ID, err))
	}
	outcome := string(st.Effect)
	if st.Duplicate {
		outcome = "duplicate"
	}
	s.metrics.callback(outcome)
	s.log.InfoContext(r.Context(), "payment callback", "event_id", ev.ID, "type", string(ev.Type),
		"payment_id", ev.PaymentID, "effect", string(st.Effect), "duplicate", st.Duplicate,
		"reason", st.Reason, "request_id", requestIDOf(c))
	rec := booking.RecordFor(ev, st, http.StatusOK, received)
	rec.ID = verified.ID
	s.recordCallback(c, rec)
	return c.JSON(http.StatusOK, callbackAnswer{Effect: st.Effect, Duplicate: st.Duplicate})
}

// refuseCallback answers a callback that will not take effect, and logs it
// for the admin pages. Refusals are the sender's problem, so they are logged
// as warnings, with the reason.
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
	if status >= 500 && timedOut(c, err) {
		// The database didn't answer in time (deadline): busy, not broken.
		status = http.StatusServiceUnavailable
		c.Response().Header().Set("Retry-After", retryAfterSeconds(retryAfterTimeout))
	}
	s.log.ErrorContext(c.Request().Context(), "payment callback failed",
		"err", err, "status", status, "request_id", requestIDOf(c))
	return c.JSON(status, callbackAnswer{Error: http.StatusText(status)})
}

// hostedCheckout is a provider whose checkout pages this app serves: the
// sandbox (payment.Sandbox). Hosted providers such as Stripe have none.
type hostedCheckout interface {
	ServeCheckoutPage(http.ResponseWriter, *http.Request)
	ServeCheckoutSubmit(http.ResponseWriter, *http.Request)
}

const sandboxCheckoutRoute = payment.CheckoutPath + ":paymentID"

// handleSandboxCheckout is GET /sandbox/checkout/:paymentID.
func (s *Server) handleSandboxCheckout(c echo.Context) error {
	return s.serveCheckout(c, hostedCheckout.ServeCheckoutPage)
}

// handleSandboxCheckoutSubmit is POST /sandbox/checkout/:paymentID, Pay or
// Decline; the CSRF middleware has checked its _csrf field.
func (s *Server) handleSandboxCheckoutSubmit(c echo.Context) error {
	return s.serveCheckout(c, hostedCheckout.ServeCheckoutSubmit)
}

func (s *Server) serveCheckout(c echo.Context, serve func(hostedCheckout, http.ResponseWriter, *http.Request)) error {
	hc, ok := s.opts.Payments.(hostedCheckout)
	if !ok {
		return echo.ErrNotFound
	}
	r := c.Request()
	ctx := context.WithValue(r.Context(), csrfContextKey{}, s.csrfToken(c))
	ctx = sandboxview.WithStylesheet(ctx, s.assets.prefix+"/css/app.css")
	r = r.WithContext(ctx)
	r.SetPathValue("paymentID", c.Param("paymentID"))
	serve(hc, c.Response(), r)
	return nil
}

type csrfContextKey struct{}

// CSRFToken returns the session's CSRF token for a request to a provider
// page this server mounts, "" for any other request. It is what
// payment.SandboxOptions.CSRFToken wants: the provider is built before the
// server and cannot reach the session itself.
func CSRFToken(r *http.Request) string {
	t, _ := r.Context().Value(csrfContextKey{}).(string)
	return t
}
