package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// Movies in the catalog: the form, create, update and delete.

func movieFields(m booking.Movie, runtimeText, rentText string) []model.Field {
	return []model.Field{
		{Name: "title", Label: "Title", Value: m.Title},
		{Name: "language", Label: "Language", Value: m.Language},
		{Name: "rating", Label: "Certificate", Value: m.Rating, Hint: "U, UA 13+, A…"},
		{Name: "runtime", Label: "Runtime (minutes)", Value: runtimeText},
		{Name: "rent", Label: "Rental terms (% of net per week)", Value: rentText, Hint: "The distributor's percent of the net for each week of its run at a theatre, like 50,45,40: the last applies to every later week. Empty for none."},
	}
}

func movieFromForm(c echo.Context) (booking.Movie, string, string) {
	rt := strings.TrimSpace(c.FormValue("runtime"))
	n, err := strconv.Atoi(rt)
	if err != nil {
		n = 0 // ValidateMovie names the field
	}
	return booking.Movie{Title: c.FormValue("title"), Language: c.FormValue("language"), Rating: c.FormValue("rating"), RuntimeMin: n}, rt, c.FormValue("rent")
}

// handleAdminMovieNew is GET /admin/movies/new.
func (s *Server) handleAdminMovieNew(c echo.Context) error {
	return s.render(c, http.StatusOK, pages.AdminForm(s.form(c, "New movie", "/admin/movies", "Create movie", movieFields(booking.Movie{}, "", ""), nil)))
}

// handleAdminMovieCreate is POST /admin/movies.
func (s *Server) handleAdminMovieCreate(c echo.Context) error {
	m, rt, rent := movieFromForm(c)
	_, err := s.catalog.SaveMovieRented(c.Request().Context(), m, rent)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.form(c, "New movie", "/admin/movies", "Create movie", movieFields(m, rt, rent), err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(m.Title))
}

// handleAdminMovie is GET /admin/movies/:id.
func (s *Server) handleAdminMovie(c echo.Context) error {
	m, err := s.catalog.Movie(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminForm(s.movieForm(c, m, strconv.Itoa(m.RuntimeMin), m.Rent, nil)))
}

func (s *Server) movieForm(c echo.Context, m booking.Movie, rt, rent string, err error) model.AdminForm {
	f := s.form(c, "Movie "+m.Title, "/admin/movies/"+m.ID, "Save movie", movieFields(m, rt, rent), err)
	f.DeleteAction = "/admin/movies/" + m.ID + "/delete"
	return f
}

// handleAdminMovieUpdate is POST /admin/movies/:id.
func (s *Server) handleAdminMovieUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.catalog.Movie(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	m, rt, rent := movieFromForm(c)
	m.ID = old.ID
	_, err = s.catalog.SaveMovieRented(ctx, m, rent)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.movieForm(c, m, rt, rent, err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(m.Title))
}

// handleAdminMovieDelete is POST /admin/movies/:id/delete.
func (s *Server) handleAdminMovieDelete(c echo.Context) error {
	return s.deleted(c, s.catalog.DeleteMovie(c.Request().Context(), c.Param("id")))
}
