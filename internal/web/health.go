package web

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
)

// handleHealthz is liveness: the process answers.
func (s *Server) handleHealthz(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.String(http.StatusOK, "ok\n")
}

// handleReadyz is readiness: the database answers too.
func (s *Server) handleReadyz(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.svc.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness: database unreachable", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unreachable\n")
	}
	// A clock far from the database's is a warning, not unreadiness:
	// taking the process out would not fix its host's clock.
	skew, margin, ok, err := s.svc.ClockSkew(ctx)
	switch {
	case err != nil:
		s.log.WarnContext(ctx, "readiness: could not read the database's clock", "err", err)
	case ok && booking.SkewTooLarge(skew, margin):
		s.log.WarnContext(ctx, "this host's clock is far from the database's: the seat rule frees locks early or late here; synchronise it (NTP)",
			"skew", skew.String(), "margin", margin.String(), "max", booking.MaxClockSkew.String())
		return c.String(http.StatusOK, fmt.Sprintf("ready; warning: this host's clock is %s off the database's\n", skewText(skew)))
	}
	return c.String(http.StatusOK, "ready\n")
}

// skewText is a skew for people: "2.3s ahead", "41s behind".
func skewText(d time.Duration) string {
	if d < 0 {
		return (-d).Round(100*time.Millisecond).String() + " behind"
	}
	return d.Round(100*time.Millisecond).String() + " ahead"
}
