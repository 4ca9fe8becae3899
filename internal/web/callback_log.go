package web

import (
	"context"
	"encoding/json"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
)

// recordCallback writes one received callback to the log. It runs after
// the answer is decided and must not change it: a failure is logged only.
// It outlives a provider that hangs up, within a bound of its own.
func (s *Server) recordCallback(c echo.Context, rec booking.CallbackRecord) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err := s.svc.Store().RecordCallback(ctx, rec); err != nil {
		s.log.ErrorContext(ctx, "recording payment callback failed", "err", err,
			"event_id", rec.EventID, "payment_id", rec.PaymentID, "request_id", requestIDOf(c))
	}
}

// claimedCallback is the log record of a callback refused before it was
// verified: the event and payment ids its body claims, read leniently and
// kept only when they look like ids, so that a forged body can put no
// markup or megabytes into the log. The signature verdict says they are
// claims.
func claimedCallback(body []byte, verdict booking.SignatureVerdict, at time.Time) booking.CallbackRecord {
	rec := booking.CallbackRecord{ID: booking.NewID(), ReceivedAt: at, Signature: verdict}
	var claim struct {
		ID   any `json:"id"`
		Type any `json:"type"`
		Data struct {
			PaymentID any `json:"payment_id"`
		} `json:"data"`
	}
	if len(body) == 0 || json.Unmarshal(body, &claim) != nil {
		return rec
	}
	rec.EventID, rec.EventType, rec.PaymentID = plainID(claim.ID), plainID(claim.Type), plainID(claim.Data.PaymentID)
	return rec
}

// plainID is v when it is a string of at most 128 letters, digits, '_',
// '-' and '.', else "".
func plainID(v any) string {
	s, ok := v.(string)
	if !ok || s == "" || len(s) > 128 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.') {
			return ""
		}
	}
	return s
}
