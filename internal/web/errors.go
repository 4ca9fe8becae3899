package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
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

// errorView says what happened and what to do next, for a status; message
// overrides the default text when it is safe to show.
type errorView struct {
	heading, message, next, nextURL, nextLabel string
}

var errorViews = map[int]errorView{
	http.StatusBadRequest: {"That request didn't work", "We couldn't read what your browser sent.",
		"Go back and try again.", "/", "See what's showing"},
	http.StatusForbidden: {"Please try that again", "Your page was out of date or your session had ended, so we didn't act on it.",
		"Reload the page and try again.", "/", "See what's showing"},
	http.StatusNotFound: {"We couldn't find that", "The page you asked for doesn't exist, or isn't yours to see.",
		"Check the address, or start again from the list of shows.", "/", "See what's showing"},
	http.StatusMethodNotAllowed: {"That didn't work", "This page can't be used that way.",
		"Start again from the list of shows.", "/", "See what's showing"},
	http.StatusConflict: {"Those seats were just taken", "Someone else got there first.",
		"Pick other seats and try again.", "/", "See what's showing"},
	http.StatusGone: {"This hold has ended", "These seats are no longer held for you.",
		"Choose your seats again.", "/", "See what's showing"},
	http.StatusRequestEntityTooLarge: {"That was too much", "The request was larger than we accept.",
		"Go back and try again with fewer seats.", "/", "See what's showing"},
	http.StatusUnprocessableEntity: {"Please check your choice", "Something in your request wasn't right.",
		"Go back, check it, and try again.", "/", "See what's showing"},
	http.StatusTooManyRequests: {"Slow down a little", "You tried to hold seats many times in a short while.",
		"Wait a moment, then try again.", "", ""},
	http.StatusInternalServerError: {"Something went wrong on our side", "We couldn't finish that. Nothing was changed.",
		"Please try again in a moment.", "/", "See what's showing"},
	http.StatusServiceUnavailable: {"We're busy right now", "We couldn't reach our booking system.",
		"Please try again in a moment.", "/", "See what's showing"},
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
	if message != "" {
		v.message = message
	}
	if errors.Is(err, errStaffOnly) {
		v.heading, v.next, v.nextURL, v.nextLabel = "This page is for admins", "", doorPath, "Go to the door"
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
