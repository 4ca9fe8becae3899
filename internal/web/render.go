package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"boxoffice/views/model"
)

// render writes component as an HTML response with status. Pages are never
// cached: they carry a CSRF token and the state of seats at one moment.
func (s *Server) render(c echo.Context, status int, component templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := component.Render(c.Request().Context(), buf); err != nil {
		return errorf("web: render: %w", err)
	}
	h := c.Response().Header()
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// page is what every page's layout needs.
func (s *Server) page(c echo.Context, title string) model.Page {
	return s.withLang(c, model.Page{Title: title, CSRFToken: s.csrfToken(c), Static: s.assets.prefix, Sandbox: s.sandbox})
}

// withLang gives p the request's language and, on a translated page, the
// language switcher.
func (s *Server) withLang(c echo.Context, p model.Page) model.Page {
	l := localizer(c).Lang
	p.Lang = string(l)
	if translated(c.Request().URL.Path) {
		p.Langs = langLinks(c.Request().URL, l)
	}
	return p
}

// redirect sends the browser to url after a POST: 303 for a form, an
// HX-Redirect for htmx (which would otherwise follow a 303 itself and swap
// the next page into the current one).
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, url)
}
