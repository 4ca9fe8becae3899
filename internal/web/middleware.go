package web

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"regexp"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"boxoffice/internal/booking"
)

const headerRequestID = "X-Request-Id"

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID gives every request an id, echoed in X-Request-Id and in logs.
// An id from the load balancer is kept when it looks like one.
func (s *Server) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(headerRequestID)
		if !validRequestID.MatchString(id) {
			id = booking.NewID()
		}
		c.Set(headerRequestID, id)
		c.Response().Header().Set(headerRequestID, id)
		return next(c)
	}
}

// recoverPanics turns a panic into a 500 through the error handler, which logs it
// (with its stack) through slog rather than Echo's own logger.
func (s *Server) recoverPanics() echo.MiddlewareFunc {
	return middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(_ echo.Context, err error, stack []byte) error {
			return fmt.Errorf("web: panic: %w\n%s", err, stack)
		},
	})
}

func requestIDOf(c echo.Context) string {
	id, _ := c.Get(headerRequestID).(string)
	return id
}

// contentSecurityPolicy allows our own scripts, styles and requests only: no
// inline script or style (htmx is configured not to inject any), no framing.
// Forms post to this app only, and the browser may follow Pay's post to the
// payment provider's checkout origins (browsers check form-action on the
// redirect too).
func contentSecurityPolicy(checkoutOrigins []string) string {
	formAction := "'self'"
	for _, o := range checkoutOrigins {
		formAction += " " + o
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; " +
		"img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
		"base-uri 'none'; frame-ancestors 'none'; form-action " + formAction
}

// securityHeaders are on every response, errors included.
func (s *Server) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", s.csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		if s.secure() {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		return next(c)
	}
}

func (s *Server) secure() bool { return s.sessions.Cookie.Secure }

// errCSRF is a state-changing request without the session's token.
var errCSRF = echo.NewHTTPError(http.StatusForbidden, "csrf token missing or wrong")

// csrf refuses a state-changing request unless it carries the session's
// token as form field _csrf (in the body) or header X-CSRF-Token.
func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if csrfExempt[c.Path()] {
			return next(c)
		}
		if !s.sessions.loaded(c) {
			return errCSRF
		}
		want := s.sessions.GetString(c.Request().Context(), keyCSRF)
		// Never from the query string: a token in a URL leaks into logs.
		got := c.Request().Header.Get("X-CSRF-Token")
		if got == "" {
			got = c.Request().PostFormValue("_csrf")
		}
		if want == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
			return errCSRF
		}
		return next(c)
	}
}
