package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/views/pages"
)

// homeListLimit caps the listing; a cinema chain's week fits well within it.
const homeListLimit = 300

// handleHome lists upcoming shows: GET /.
func (s *Server) handleHome(c echo.Context) error {
	shows, err := s.svc.UpcomingShows(c.Request().Context(), homeListLimit)
	if err != nil {
		return errorf("web: upcoming shows: %w", err)
	}
	m := s.homeModel(shows, s.svc.Now().Now)
	m.Page = s.page(c, "Now showing")
	return s.render(c, http.StatusOK, pages.Home(m))
}
