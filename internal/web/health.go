package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
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
	if err := s.svc.Store().Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness: database unreachable", "err", err)
		return c.String(http.StatusServiceUnavailable, "database unreachable\n")
	}
	return c.String(http.StatusOK, "ready\n")
}
