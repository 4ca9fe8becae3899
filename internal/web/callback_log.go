package web

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"
	dto "github.com/prometheus/client_model/go"

	"boxoffice/internal/booking"
)

// recordCallback writes one verified callback to the log. It runs after
// the answer is decided and must not change it: a failure is logged only.
// It outlives a provider that hangs up, within a bound of its own.
func (s *Server) recordCallback(c echo.Context, rec booking.CallbackRecord) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := s.svc.RecordCallback(ctx, rec); err != nil {
		s.log.ErrorContext(ctx, "recording payment callback failed", "err", err,
			"event_id", rec.EventID, "payment_id", rec.PaymentID, "request_id", requestIDOf(c))
	}
}

// Why a callback was refused before it was verified, as
// boxoffice_payment_callbacks_total counts it.
const (
	refusedMalformed    = "malformed"     // unreadable, oversized or not an event
	refusedBadSignature = "bad_signature" // missing, wrong or stale
)

// refuseUnverified answers a callback refused before its signature was
// verified, which stores nothing (SPEC §12): until it is verified it is
// anybody's, and a row for each would let anyone grow the database
// without bound on a public route. It is counted in
// boxoffice_payment_callbacks_total by why, and logged at most now and
// then (refusalLogged) with how many there were.
func (s *Server) refuseUnverified(c echo.Context, status int, why, message string, err error) error {
	counter := s.metrics.payments.WithLabelValues(why)
	counter.Inc()
	var m dto.Metric
	if counter.Write(&m) == nil {
		if n := int64(m.GetCounter().GetValue()); refusalLogged(n) {
			s.log.WarnContext(c.Request().Context(), "payment callback refused before verification",
				"why", why, "status", status, "err", err, "refused_so_far", n,
				"note", "only the 1st, 10th, 100th and every 1000th of each why are logged; /metrics counts all",
				"request_id", requestIDOf(c))
		}
	}
	return c.JSON(status, callbackAnswer{Error: message})
}

// refusalLogged reports whether the nth refusal of one kind is logged:
// the 1st, 10th, 100th, then every 1000th. A provider misconfigured
// shows at once, a flood costs a line per thousand.
func refusalLogged(n int64) bool {
	return n == 1 || n == 10 || n == 100 || n > 0 && n%1000 == 0
}
