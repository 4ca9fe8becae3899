package web

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// The catalog pages (SPEC §10): theatres, screens with their seat layouts,
// movies, and new shows, one file per resource (admin_theatre.go,
// admin_screen.go, admin_movie.go, admin_show_new.go). Every form posts
// back to itself; a refused save shows the form again, 422, with what was
// typed and each field's problem, and nothing is stored. This file holds
// the catalog's page and what the forms share.

const catalogPath = "/admin/catalog"

// handleAdminCatalog is GET /admin/catalog: the theatres with their
// screens, and the movies.
func (s *Server) handleAdminCatalog(c echo.Context) error {
	ctx := c.Request().Context()
	theatres, err := s.catalog.ListTheatres(ctx)
	if err != nil {
		return err
	}
	movies, err := s.catalog.ListMovies(ctx)
	if err != nil {
		return err
	}
	m := model.AdminCatalog{AdminPage: s.adminPage(c, "Catalog")}
	if n := c.QueryParam("saved"); n != "" {
		m.Notice = &model.Notice{Kind: "info", Text: booking.Truncate(n, 80) + " saved."}
	}
	if c.QueryParam("deleted") != "" {
		m.Notice = &model.Notice{Kind: "info", Text: "Deleted."}
	}
	for _, th := range theatres {
		screens, err := s.catalog.ListScreens(ctx, th.ID)
		if err != nil {
			return err
		}
		ct := model.CatalogTheatre{ID: th.ID, Name: th.Name, City: th.City, TimeZone: th.TimeZone,
			URL: "/admin/theatres/" + th.ID, NewScreenURL: "/admin/theatres/" + th.ID + "/screens/new"}
		for _, sc := range screens {
			n := 0
			if l, err := booking.ParseLayout(sc.Layout); err == nil {
				n = len(l.Seats)
			}
			ct.Screens = append(ct.Screens, model.CatalogScreen{ID: sc.ID, Name: sc.Name, URL: "/admin/screens/" + sc.ID,
				NewShowURL: "/admin/shows/new?screen=" + sc.ID, Seats: n})
		}
		m.Theatres = append(m.Theatres, ct)
	}
	for _, mv := range movies {
		details := strings.Join(nonEmpty(mv.Language, mv.Rating, runtime(mv.RuntimeMin)), " · ")
		m.Movies = append(m.Movies, model.CatalogMovie{ID: mv.ID, Title: mv.Title, Details: details, URL: "/admin/movies/" + mv.ID})
	}
	return s.render(c, http.StatusOK, pages.AdminCatalog(m))
}

func nonEmpty(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// form is an admin form being shown: its fields and, after a refused
// save, their problems.
func (s *Server) form(c echo.Context, heading, action, submit string, fs []model.Field, err error) model.AdminForm {
	var inv booking.InvalidFields
	if errors.As(err, &inv) {
		for i := range fs {
			fs[i].Error = inv.For(fs[i].Name)
		}
	}
	return model.AdminForm{AdminPage: s.adminPage(c, heading), Heading: heading, Action: action, Submit: submit,
		Fields: fs, Back: catalogPath, Notice: refusal(err)}
}

// formStatus is 422 for a form shown again after a refused save.
func formStatus(err error) int {
	if err != nil {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

// saveOrShow runs save; a refusal of the person's input is shown with
// show, any other error is returned.
func saveOrShow(err error, show func(error) error) (bool, error) {
	if err == nil {
		return true, nil
	}
	if booking.ErrorCode(err) == booking.EINVALID {
		return false, show(err)
	}
	return false, err
}

// deleted answers a deletion: back to the catalog, or the reason it was
// refused (409, with what to do instead).
func (s *Server) deleted(c echo.Context, err error) error {
	if err != nil {
		return err
	}
	return redirect(c, catalogPath+"?deleted=1")
}

// urlQuery is s as a query parameter's value.
func urlQuery(s string) string { return url.QueryEscape(s) }
