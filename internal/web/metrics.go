package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	httppprof "net/http/pprof"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus collectors, in a registry of its own so
// that several servers (tests) can live in one process.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	holds    *prometheus.CounterVec
	payments *prometheus.CounterVec
	handler  http.Handler
}

// Hold outcomes counted by boxoffice_holds_total.
const (
	holdHeld        = "held"
	holdConflict    = "conflict"
	holdInvalid     = "invalid"
	holdRateLimited = "rate_limited"
	holdError       = "error"
)

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boxoffice_http_requests_total",
			Help: "HTTP requests by route, method and status code.",
		}, []string{"route", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "boxoffice_http_request_duration_seconds",
			Help:    "HTTP request latency by route and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
		holds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boxoffice_holds_total",
			Help: "Hold requests by outcome.",
		}, []string{"outcome"}),
		payments: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "boxoffice_payment_callbacks_total",
			Help: "Payment provider callbacks by outcome: an effect (booked, refund_due, released, ignored), duplicate, or why refused.",
		}, []string{"outcome"}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.holds, m.payments,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, o := range []string{holdHeld, holdConflict, holdInvalid, holdRateLimited, holdError} {
		m.holds.WithLabelValues(o)
	}
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return m
}

// middleware counts every request by its route pattern (never the raw path,
// which would grow without bound).
func (m *metrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		route := c.Path()
		if route == "" || c.Response().Status == http.StatusNotFound && route == "/*" {
			route = "unmatched"
		}
		method := methodLabel(c.Request().Method)
		m.requests.WithLabelValues(route, method, strconv.Itoa(c.Response().Status)).Inc()
		m.latency.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
		return nil
	}
}

// methodLabel is the method as a label: clients can send any token as a
// method, and each new label value is a new series kept forever.
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return method
	}
	return "OTHER"
}

func (m *metrics) hold(outcome string) { m.holds.WithLabelValues(outcome).Inc() }

func (m *metrics) callback(outcome string) { m.payments.WithLabelValues(outcome).Inc() }

// handleMetrics is GET /metrics (SPEC §12): with Options.MetricsToken set
// it needs Authorization: Bearer <token> (401 otherwise); unset, it
// answers clients on this host only (403 otherwise), by the client address
// the per-address limits use, so a request relayed by a trusted proxy
// counts as the client's.
func (s *Server) handleMetrics(c echo.Context) error {
	s.metrics.handler.ServeHTTP(c.Response(), c.Request())
	return nil
}

// handleProfile serves the runtime's profiles by name (/debug/pprof/heap,
// goroutine, allocs, …; ?gc=1 collects garbage first, ?debug=1 is text),
// and the CPU profile of the next ?seconds=N (/debug/pprof/profile, 30 s by
// default, less than the server's write timeout), to an operator looking
// at a process's memory or CPU: net/http/pprof's handlers, guarded as
// /metrics is. The CPU profile is not a named profile of runtime/pprof.
func (s *Server) handleProfile(c echo.Context) error {
	name := c.Param("name")
	if name == cpuProfile {
		httppprof.Profile(c.Response(), c.Request())
		return nil
	}
	if pprof.Lookup(name) == nil {
		return echo.ErrNotFound
	}
	httppprof.Handler(name).ServeHTTP(c.Response(), c.Request())
	return nil
}

// cpuProfile is the name of the CPU profile under profileRoute.
const cpuProfile = "profile"

// machinesOnly admits the routes for machines (metrics, profiles) with
// METRICS_TOKEN as a bearer token when it is set, else from loopback
// clients only (SPEC §12).
func (s *Server) machinesOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.opts.MetricsToken != "" {
			if !bearerMatches(c.Request().Header.Get("Authorization"), s.opts.MetricsToken) {
				c.Response().Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				return echo.ErrUnauthorized
			}
		} else if !isLoopbackClient(c) {
			return echo.ErrForbidden
		}
		return next(c)
	}
}

// bearerMatches reports whether an Authorization header carries token as a
// bearer token (RFC 6750), comparing digests so that the time taken tells
// nothing, not even the token's length.
func bearerMatches(authorization, token string) bool {
	scheme, got, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	g := sha256.Sum256([]byte(strings.TrimSpace(got)))
	w := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
