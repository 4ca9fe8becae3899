package web

import (
	"fmt"
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

// securityHeaders are on every response, errors included; inside them,
// every response goes through compress.
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
