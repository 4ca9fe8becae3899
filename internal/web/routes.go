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
		// Text responses gzip-compressed for clients that accept it (CSRF
		// tokens are masked per response, so compression leaks none).
		s.compress(),
		// Outside everything else, so a panic in any middleware (or the
		// error handler) is still a 500 with the headers above.
		s.recoverPanics(),
		s.metrics.middleware,
		// Inside the metrics, so that a request that ran out of time is
		// counted with its 503; outside the session, whose loading is
		// database work too.
		keepClientContext,
		s.deadline(),
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
			Limit: "64K",
			// The callbacks read their bodies themselves: too large is 400
			// there.
			Skipper: func(c echo.Context) bool {
				return c.Path() == payment.CallbackPath || c.Path() == payment.StripeWebhookPath
			},
		}),
		s.language,
		s.sessions.middleware(s.handleError),
		s.csrf,
	)

	table := []struct {
		method, path string
		handler      echo.HandlerFunc
	}{
		// People.
		{http.MethodGet, "/", s.handleHome},
		// A show covered by an on-sale's waiting room needs its pass
		// (SPEC §18).
		{http.MethodGet, "/shows/:showID", s.onSaleGate(s.handleShow)},
		{http.MethodGet, "/shows/:showID/seats", s.onSaleGate(s.handleShowSeats)},
		{http.MethodPost, "/shows/:showID/holds", s.onSaleGate(s.handleHoldCreate)},
		{http.MethodGet, "/holds/:holdID", s.handleHold},
		{http.MethodPost, "/holds/:holdID/release", s.handleHoldRelease},
		{http.MethodPost, "/holds/:holdID/pay", s.handleHoldPay},
		{http.MethodGet, "/holds/:holdID/total", s.handleHoldTotal},
		{http.MethodPost, "/holds/:holdID/total", s.handleHoldTotal},
		{http.MethodPost, "/holds/:holdID/extend", s.handleHoldExtend},
		{http.MethodGet, findBookingPath, s.handleFindBooking},
		{http.MethodPost, findBookingPath, s.handleFindBookingSubmit},
		{http.MethodGet, "/bookings/:bookingID", s.handleBooking},
		{http.MethodGet, "/bookings/:bookingID/status", s.handleBookingStatus},
		{http.MethodGet, "/bookings/:bookingID/print", s.handlePrint},
		{http.MethodGet, "/queue/:onsaleID", s.handleQueue},
		{http.MethodGet, queueStatusRoute, s.handleQueueStatus},
		{http.MethodPost, "/queue/:onsaleID/join", s.handleQueueJoin},

		// Admins and front-of-house staff. Every page but sign-in needs a
		// signed-in admin; the door and the box office take staff too.
		{http.MethodGet, "/admin/login", s.handleAdminLogin},
		{http.MethodPost, "/admin/login", s.handleAdminLoginSubmit},
		{http.MethodPost, "/admin/logout", s.handleAdminLogout},
		{http.MethodGet, "/admin", s.adminOnly(s.handleAdmin)},
		{http.MethodGet, "/admin/shows/:showID", s.adminOnly(s.handleAdminShow)},
		{http.MethodGet, "/admin/shows/:showID/bookings.csv", s.adminOnly(s.handleAdminBookingsCSV)},
		{http.MethodPost, "/admin/shows/:showID/cancel", s.adminOnly(s.handleAdminShowCancel)},
		{http.MethodPost, "/admin/shows/:showID/opens", s.adminOnly(s.handleAdminShowOpens)},
		{http.MethodPost, "/admin/shows/:showID/reserve", s.adminOnly(s.handleAdminShowReserve)},
		{http.MethodPost, "/admin/shows/:showID/cutoff", s.adminOnly(s.handleAdminShowCutoff)},
		{http.MethodPost, "/admin/bookings/:bookingID/refund", s.adminOnly(s.handleAdminRefund)},
		{http.MethodPost, "/admin/bookings/:bookingID/refunded", s.adminOnly(s.handleAdminRefundedElsewhere)},
		{http.MethodGet, "/admin/payments/:paymentID", s.adminOnly(s.handleAdminPayment)},
		{http.MethodGet, filmReportPath, s.adminOnly(s.handleAdminFilmReport)},
		{http.MethodGet, refundQueuePath, s.adminOnly(s.handleAdminRefunds)},
		{http.MethodGet, salesReportPath, s.adminOnly(s.handleAdminSalesReport)},
		{http.MethodGet, doorPath, s.doorOnly(s.handleDoor)},
		{http.MethodPost, doorPath, s.doorOnly(s.handleDoorAdmit)},
		// The box office (SPEC §16), for staff and admins.
		{http.MethodGet, counterPath, s.doorOnly(s.handleCounter)},
		{http.MethodPost, counterHoldsPath, s.doorOnly(s.handleCounterHold)},
		{http.MethodGet, counterHoldsPath + "/:holdID", s.doorOnly(s.handleCounterHoldPage)},
		{http.MethodPost, counterHoldsPath + "/:holdID/total", s.doorOnly(s.handleCounterTotal)},
		{http.MethodPost, counterHoldsPath + "/:holdID/sell", s.doorOnly(s.handleCounterSell)},
		{http.MethodGet, counterPath + "/bookings/:bookingID", s.doorOnly(s.handleCounterBooking)},
		{http.MethodPost, counterPath + "/bookings/:bookingID/refund", s.doorOnly(s.handleCounterRefund)},
		{http.MethodGet, counterCashUp, s.doorOnly(s.handleCashUp)},
		{http.MethodGet, accountsPath, s.adminOnly(s.handleAdminAccounts)},
		{http.MethodPost, accountsPath, s.adminOnly(s.handleAdminAccountCreate)},
		{http.MethodGet, accountsPath + "/:id", s.adminOnly(s.handleAdminAccount)},
		{http.MethodPost, accountsPath + "/:id", s.adminOnly(s.handleAdminAccountUpdate)},
		{http.MethodPost, accountsPath + "/:id/delete", s.adminOnly(s.handleAdminAccountDelete)},

		// The catalog (SPEC §10).
		{http.MethodGet, catalogPath, s.adminOnly(s.handleAdminCatalog)},
		{http.MethodGet, "/admin/theatres/new", s.adminOnly(s.handleAdminTheatreNew)},
		{http.MethodPost, "/admin/theatres", s.adminOnly(s.handleAdminTheatreCreate)},
		{http.MethodGet, "/admin/theatres/:id", s.adminOnly(s.handleAdminTheatre)},
		{http.MethodPost, "/admin/theatres/:id", s.adminOnly(s.handleAdminTheatreUpdate)},
		{http.MethodPost, "/admin/theatres/:id/delete", s.adminOnly(s.handleAdminTheatreDelete)},
		{http.MethodGet, "/admin/theatres/:id/types", s.adminOnly(s.handleAdminTypes)},
		{http.MethodPost, "/admin/theatres/:id/types", s.adminOnly(s.handleAdminTypeCreate)},
		{http.MethodGet, "/admin/theatres/:id/types/:typeID", s.adminOnly(s.handleAdminType)},
		{http.MethodPost, "/admin/theatres/:id/types/:typeID", s.adminOnly(s.handleAdminTypeUpdate)},
		{http.MethodPost, "/admin/theatres/:id/types/:typeID/move", s.adminOnly(s.handleAdminTypeMove)},
		{http.MethodPost, "/admin/theatres/:id/types/:typeID/delete", s.adminOnly(s.handleAdminTypeDelete)},
		{http.MethodGet, "/admin/theatres/:id/cards", s.adminOnly(s.handleAdminCards)},
		{http.MethodGet, "/admin/theatres/:id/cards/new", s.adminOnly(s.handleAdminCardNew)},
		{http.MethodPost, "/admin/theatres/:id/cards", s.adminOnly(s.handleAdminCardCreate)},
		{http.MethodGet, "/admin/cards/:cardID", s.adminOnly(s.handleAdminCard)},
		{http.MethodPost, "/admin/cards/:cardID", s.adminOnly(s.handleAdminCardUpdate)},
		{http.MethodPost, "/admin/cards/:cardID/delete", s.adminOnly(s.handleAdminCardDelete)},
		{http.MethodPost, "/admin/shows/:showID/prices", s.adminOnly(s.handleAdminShowPrices)},
		{http.MethodGet, "/admin/theatres/:id/screens/new", s.adminOnly(s.handleAdminScreenNew)},
		{http.MethodPost, "/admin/theatres/:id/screens", s.adminOnly(s.handleAdminScreenCreate)},
		{http.MethodGet, "/admin/screens/:id", s.adminOnly(s.handleAdminScreen)},
		{http.MethodPost, "/admin/screens/:id", s.adminOnly(s.handleAdminScreenUpdate)},
		{http.MethodGet, "/admin/screens/:id/layout.txt", s.adminOnly(s.handleAdminScreenExport)},
		{http.MethodPost, "/admin/screens/:id/delete", s.adminOnly(s.handleAdminScreenDelete)},
		{http.MethodGet, "/admin/movies/new", s.adminOnly(s.handleAdminMovieNew)},
		{http.MethodPost, "/admin/movies", s.adminOnly(s.handleAdminMovieCreate)},
		{http.MethodGet, "/admin/movies/:id", s.adminOnly(s.handleAdminMovie)},
		{http.MethodPost, "/admin/movies/:id", s.adminOnly(s.handleAdminMovieUpdate)},
		{http.MethodPost, "/admin/movies/:id/delete", s.adminOnly(s.handleAdminMovieDelete)},
		{http.MethodGet, "/admin/shows/new", s.adminOnly(s.handleAdminShowNew)},
		{http.MethodPost, "/admin/shows", s.adminOnly(s.handleAdminShowCreate)},
		{http.MethodPost, "/admin/shows/:showID/delete", s.adminOnly(s.handleAdminShowDelete)},

		// On-sales (SPEC §18).
		{http.MethodGet, onSalesPath, s.adminOnly(s.handleAdminOnSales)},
		{http.MethodPost, onSalesPath, s.adminOnly(s.handleAdminOnSaleCreate)},
		{http.MethodGet, onSalesPath + "/:id", s.adminOnly(s.handleAdminOnSale)},
		{http.MethodPost, onSalesPath + "/:id/pause", s.adminOnly(s.handleAdminOnSalePause)},
		{http.MethodPost, onSalesPath + "/:id/resume", s.adminOnly(s.handleAdminOnSaleResume)},
		{http.MethodPost, onSalesPath + "/:id/rate", s.adminOnly(s.handleAdminOnSaleRate)},
		{http.MethodPost, onSalesPath + "/:id/close", s.adminOnly(s.handleAdminOnSaleClose)},
		{http.MethodPost, onSalesPath + "/:id/extend", s.adminOnly(s.handleAdminOnSaleExtend)},

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
		{http.MethodGet, "/metrics", s.machinesOnly(s.handleMetrics)},
		{http.MethodGet, profileRoute, s.machinesOnly(s.handleProfile)},
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

// queueStatusRoute is the queue page's live region (handleQueueStatus).
const queueStatusRoute = "/queue/:onsaleID/status"

// profileRoute serves the runtime's profiles (handleProfile).
const profileRoute = "/debug/pprof/:name"

// sessionless lists routes that never need the visitor's session: machines
// call them, or they are the same for everyone.
var sessionless = map[string]bool{
	staticRoute:               true,
	"/healthz":                true,
	"/readyz":                 true,
	"/metrics":                true,
	profileRoute:              true,
	queueStatusRoute:          true,
	payment.CallbackPath:      true,
	payment.StripeWebhookPath: true,
}

// csrfExempt lists state-changing routes that browsers do not call: they
// authenticate otherwise (the payment callback is signed).
var csrfExempt = map[string]bool{
	payment.CallbackPath:      true,
	payment.StripeWebhookPath: true,
}
