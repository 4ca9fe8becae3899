package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"boxoffice/internal/payment"
)

// routes registers every route of the application, in one table, behind the
// middleware every response gets.
func (s *Server) routes() {
	e := s.echo
	e.Use(
		s.requestID,
		s.securityHeaders,
		// Outside everything else, so a panic in any middleware (or the
		// error handler) is still a 500 with the headers above.
		s.recoverPanics(),
		s.metrics.middleware,
		// Inside the metrics, so that a request that ran out of time is
		// counted with its 503; outside the session, whose loading is
		// database work too.
		s.deadline,
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
			Limit: "64K",
			// The callbacks read their bodies themselves: too large is 400
			// there.
			Skipper: func(c echo.Context) bool {
				return c.Path() == payment.CallbackPath || c.Path() == payment.StripeWebhookPath
			},
		}),
		s.sessions.middleware(s.handleError),
		s.csrf,
	)

	table := []struct {
		method, path string
		handler      echo.HandlerFunc
	}{
		// People.
		{http.MethodGet, "/", s.handleHome},
		{http.MethodGet, "/shows/:showID", s.handleShow},
		{http.MethodGet, "/shows/:showID/seats", s.handleShowSeats},
		{http.MethodPost, "/shows/:showID/holds", s.handleHoldCreate},
		{http.MethodGet, "/holds/:holdID", s.handleHold},
		{http.MethodPost, "/holds/:holdID/release", s.handleHoldRelease},
		{http.MethodPost, "/holds/:holdID/pay", s.handleHoldPay},
		{http.MethodGet, "/bookings/:bookingID", s.handleBooking},
		{http.MethodGet, "/bookings/:bookingID/status", s.handleBookingStatus},

		// Admins. Every page but sign-in needs a signed-in admin.
		{http.MethodGet, "/admin/login", s.handleAdminLogin},
		{http.MethodPost, "/admin/login", s.handleAdminLoginSubmit},
		{http.MethodPost, "/admin/logout", s.handleAdminLogout},
		{http.MethodGet, "/admin", s.adminOnly(s.handleAdmin)},
		{http.MethodGet, "/admin/shows/:showID", s.adminOnly(s.handleAdminShow)},
		{http.MethodGet, "/admin/shows/:showID/bookings.csv", s.adminOnly(s.handleAdminBookingsCSV)},
		{http.MethodPost, "/admin/shows/:showID/cancel", s.adminOnly(s.handleAdminShowCancel)},
		{http.MethodPost, "/admin/bookings/:bookingID/refund", s.adminOnly(s.handleAdminRefund)},
		{http.MethodPost, "/admin/bookings/:bookingID/refunded", s.adminOnly(s.handleAdminRefundedElsewhere)},
		{http.MethodGet, "/admin/payments/:paymentID", s.adminOnly(s.handleAdminPayment)},

		// The payment provider: its signed events (each route 404 unless
		// its provider is the one configured), and the sandbox's checkout
		// (404 unless the provider is the sandbox).
		{http.MethodPost, payment.CallbackPath, s.handlePaymentCallback},
		{http.MethodPost, payment.StripeWebhookPath, s.handleStripeWebhook},
		{http.MethodGet, sandboxCheckoutRoute, s.handleSandboxCheckout},
		{http.MethodPost, sandboxCheckoutRoute, s.handleSandboxCheckoutSubmit},

		// Assets, content-hashed and cached for a year.
		{http.MethodGet, staticRoute, s.handleStatic},

		// Machines.
		{http.MethodGet, "/healthz", s.handleHealthz},
		{http.MethodGet, "/readyz", s.handleReadyz},
		{http.MethodGet, "/metrics", s.handleMetrics},
	}
	for _, r := range table {
		e.Add(r.method, r.path, r.handler)
		// Echo v4 doesn't answer HEAD for GET; load balancers and uptime
		// checks use it. net/http drops the body.
		if r.method == http.MethodGet {
			e.Add(http.MethodHead, r.path, r.handler)
		}
	}
}

// sessionless lists routes that never need the visitor's session: machines
// call them, or they are the same for everyone.
var sessionless = map[string]bool{
	staticRoute:               true,
	"/healthz":                true,
	"/readyz":                 true,
	"/metrics":                true,
	payment.CallbackPath:      true,
	payment.StripeWebhookPath: true,
}

// csrfExempt lists state-changing routes that browsers do not call: they
// authenticate otherwise (the payment callback is signed).
var csrfExempt = map[string]bool{
	payment.CallbackPath:      true,
	payment.StripeWebhookPath: true,
}
