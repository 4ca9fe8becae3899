package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// handleShow is the seat map page: GET /shows/:showID.
func (s *Server) handleShow(c echo.Context) error {
	sm, err := s.svc.SeatMap(c.Request().Context(), c.Param("showID"), s.visitor(c))
	if err != nil {
		return err
	}
	m := s.seatMapModel(sm, selection{})
	m.Page = s.page(c, sm.Show.Movie.Title)
	return s.render(c, http.StatusOK, pages.SeatMap(m))
}

// handleShowSeats is the seat map fragment the page refreshes itself with:
// GET /shows/:showID/seats. It answers 304 when nothing changed since the
// version the browser has.
func (s *Server) handleShowSeats(c echo.Context) error {
	sm, err := s.svc.SeatMap(c.Request().Context(), c.Param("showID"), s.visitor(c))
	if err != nil {
		return err
	}
	m := s.seatMapModel(sm, selection{})
	h := c.Response().Header()
	h.Set("ETag", m.ETag)
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(c.Request().Header.Get("If-None-Match"), m.ETag) {
		return c.NoContent(http.StatusNotModified)
	}
	return s.render(c, http.StatusOK, partials.SeatMap(m))
}

// etagMatches reports whether an If-None-Match header names etag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
