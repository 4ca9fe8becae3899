package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// statusByCode maps the domain's error codes to HTTP statuses: the one table.
var statusByCode = map[string]int{
	booking.ENOTFOUND:     http.StatusNotFound,
	booking.ECONFLICT:     http.StatusConflict,
	booking.EINVALID:      http.StatusUnprocessableEntity,
	booking.EGONE:         http.StatusGone,
	booking.EUNAUTHORIZED: http.StatusUnauthorized,
	booking.EFORBIDDEN:    http.StatusForbidden,
	booking.EINTERNAL:     http.StatusInternalServerError,
}

// rateLimitError is a request refused by HoldRate.
type rateLimitError struct {
	retryAfter time.Duration
}

func (e *rateLimitError) Error() string { return "rate limited" }

// badRequestError is a 400 with a message safe to show: a query the page
// cannot read, said in words.
type badRequestError struct{ message string }

func (e *badRequestError) Error() string { return e.message }

// errorView says what happened and what to do next, for a status: the
// ids of its messages (error.*.toml), read in the page's language;
// message overrides the default text when it is safe to show.
type errorView struct {
	heading, message, next, nextURL, nextLabel string
}

// errorKind is an errorViews entry whose heading, message and next are
// error.<kind>.heading, .message and .next, with next and its link to the
// listing given.
func errorKind(kind, next string) errorView {
	return errorView{"error." + kind + ".heading", "error." + kind + ".message", next, "/", "error.see_showing"}
}

var errorViews = map[int]errorView{
	http.StatusBadRequest:            errorKind("bad_request", "error.bad_request.next"),
	http.StatusForbidden:             errorKind("forbidden", "error.forbidden.next"),
	http.StatusNotFound:              errorKind("not_found", "error.not_found.next"),
	http.StatusMethodNotAllowed:      errorKind("method_not_allowed", "error.method_not_allowed.next"),
	http.StatusConflict:              errorKind("conflict", "error.conflict.next"),
	http.StatusGone:                  errorKind("gone", "error.gone.next"),
	http.StatusRequestEntityTooLarge: errorKind("too_large", "error.too_large.next"),
	http.StatusUnprocessableEntity:   errorKind("invalid", "error.invalid.next"),
	http.StatusTooManyRequests: {"error.too_many.heading", "error.too_many.message",
		"error.too_many.next", "", ""},
	http.StatusInternalServerError: errorKind("internal", "error.try_again_moment"),
	http.StatusServiceUnavailable:  errorKind("unavailable", "error.try_again_moment"),
}

// text is v in loc's language: its ids read as their messages.
func (v errorView) text(loc *i18n.Localizer) errorView {
	t := func(id string) string {
		if id == "" {
			return ""
		}
		return loc.T(id)
	}
	return errorView{t(v.heading), t(v.message), t(v.next), v.nextURL, t(v.nextLabel)}
}

// handleError is the one place errors become responses: a page for people,
// a fragment for htmx requests. Only 5xx are logged as errors, and no
// internal error text reaches the client.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if clientGone(c, err) {
		// The client went away; there is nobody to answer. Nothing is
		// written, and the metrics record 499 rather than 200.
		c.Response().Status = statusClientClosedRequest
		return
	}
	status, message := s.answer(c, err)
	// The request's context may have ended (deadline); the answer is still
	// rendered, and a changed session committed, with a little more time.
	defer answerable(c)()
	if status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed",
			"err", err, "status", status, "method", c.Request().Method, "route", c.Path(), "request_id", requestIDOf(c))
	}

	v, ok := errorViews[status]
	if !ok {
		v = errorViews[http.StatusInternalServerError]
		if status < 500 {
			v = errorViews[http.StatusBadRequest]
		}
	}
	loc := localizer(c)
	v = v.text(loc)
	if message != "" {
		v.message = domainText(loc, err, message)
	}
	if errors.Is(err, errStaffOnly) {
		v.heading, v.next, v.nextURL, v.nextLabel = loc.T("error.staff_only"), "", doorPath, loc.T("error.go_door")
	}
	// An error page never makes a session: it has no form that needs a
	// token, and requests from scanners must not fill the sessions table.
	page := s.withLang(c, model.Page{Title: v.heading, CSRFToken: s.existingCSRFToken(c), Static: s.assets.prefix, Sandbox: s.sandbox})
	e := model.Error{
		Page:    page,
		Status:  status,
		Heading: v.heading, Message: v.message, Next: v.next,
		NextURL: v.nextURL, NextLabel: v.nextLabel,
		RequestID: requestIDOf(c),
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	var rerr error
	if isHTMX(c) {
		rerr = s.render(c, status, partials.Error(e))
	} else {
		rerr = s.render(c, status, pages.Error(e))
	}
	if rerr != nil {
		s.log.ErrorContext(c.Request().Context(), "rendering error page", "err", rerr, "request_id", requestIDOf(c))
	}
}

// answer is the status for err and a message safe to show ("" to use the
// status's own), for pages, fragments and the provider's JSON alike; when
// the client should come back later (429, or 503 for a request that ran
// out of time waiting for the database: busy, not broken) it sets
// Retry-After.
func (s *Server) answer(c echo.Context, err error) (int, string) {
	status, message, retry := classify(err)
	if retry > 0 {
		c.Response().Header().Set("Retry-After", retryAfterSeconds(retry))
	}
	if b := busy(c, err, status); b != status {
		return b, ""
	}
	return status, message
}

// busy is status, or 503 with Retry-After for a 5xx of a request that ran
// out of time waiting for the database: busy, not broken.
func busy(c echo.Context, err error, status int) int {
	if status < 500 || !timedOut(c, err) {
		return status
	}
	c.Response().Header().Set("Retry-After", retryAfterSeconds(retryAfterTimeout))
	return http.StatusServiceUnavailable
}

// classify is the status for err, a message safe to show or "" to use the
// status's own, and for a refusal to come back later, after how long.
func classify(err error) (status int, message string, retryAfter time.Duration) {
	var he *echo.HTTPError
	var de *booking.Error
	var ue *booking.UnavailableError
	var rl *rateLimitError
	var capped *booking.HeldCapError
	var bad *badRequestError
	switch {
	case errors.As(err, &bad):
		return http.StatusBadRequest, bad.message, 0
	case errors.As(err, &rl):
		return http.StatusTooManyRequests, "", rl.retryAfter
	case errors.As(err, &capped):
		return http.StatusTooManyRequests, capped.Error(), capped.RetryAfter
	case errors.As(err, &ue), errors.As(err, &de):
		status := statusByCode[booking.ErrorCode(err)]
		if status >= 500 {
			return status, "", 0
		}
		return status, booking.ErrorMessage(err), 0
	case errors.As(err, &he):
		if he.Code >= 400 && he.Code < 600 {
			return he.Code, "", 0
		}
		return http.StatusInternalServerError, "", 0
	default:
		return http.StatusInternalServerError, "", 0
	}
}

// retryAfterSeconds is d as a Retry-After value: whole seconds, rounded up.
func retryAfterSeconds(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// errorf wraps an internal error with where it happened, for the log only.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
