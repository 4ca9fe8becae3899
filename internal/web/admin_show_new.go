package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// Shows in the catalog: the new show form (screen, then movie, start and
// prices), create and delete. A show's own page is admin_show.go.

// handleAdminShowNew is GET /admin/shows/new?screen=ID: the screen to
// choose, then the movie, start and prices of its categories.
func (s *Server) handleAdminShowNew(c echo.Context) error {
	f, err := s.showForm(c, c.QueryParam("screen"), "", "", nil, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminShowForm(f))
}

// handleAdminShowCreate is POST /admin/shows.
func (s *Server) handleAdminShowCreate(c echo.Context) error {
	ctx := c.Request().Context()
	screenID, movieID, start := c.FormValue("screen"), c.FormValue("movie"), c.FormValue("start")
	sc, err := s.catalog.Screen(ctx, screenID)
	switch {
	case booking.ErrorCode(err) == booking.ENOTFOUND:
		f, ferr := s.showForm(c, "", movieID, start, nil, booking.InvalidFields{{Field: "screen", Message: "Choose a screen."}})
		if ferr != nil {
			return ferr
		}
		return s.render(c, http.StatusUnprocessableEntity, pages.AdminShowForm(f))
	case err != nil:
		return err
	}
	prices := map[string]string{}
	if l, err := booking.ParseLayout(sc.Layout); err == nil {
		for _, name := range l.CategoryNames() {
			prices[name] = c.FormValue("price_" + name)
		}
	}
	cards, err := s.catalog.PriceCards(ctx, sc.TheatreID)
	if err != nil {
		return err
	}
	var show booking.Show
	if len(cards) > 0 {
		show, err = s.catalog.NewShowWithCard(ctx, movieID, screenID, start, c.FormValue("card"))
	} else {
		show, err = s.catalog.NewShow(ctx, movieID, screenID, start, prices)
	}
	if ok, err := saveOrShow(err, func(verr error) error {
		f, err := s.showForm(c, screenID, movieID, start, prices, verr)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusUnprocessableEntity, pages.AdminShowForm(f))
	}); !ok {
		return err
	}
	return redirect(c, adminShowURL(show.ID))
}

// showForm is the new show form for screenID (none chosen yet when empty
// or unknown).
func (s *Server) showForm(c echo.Context, screenID, movieID, start string, prices map[string]string, verr error) (model.AdminShowForm, error) {
	ctx := c.Request().Context()
	f := model.AdminShowForm{
		AdminForm: s.form(c, "New show", "/admin/shows", "Create show", nil, verr),
		Pick:      "/admin/shows/new",
		Start:     model.Field{Name: "start", Label: "Starts at", Value: start},
	}
	theatres, err := s.catalog.ListTheatres(ctx)
	if err != nil {
		return f, err
	}
	var chosen booking.Screen
	var theatre booking.Theatre
	for _, th := range theatres {
		screens, err := s.catalog.ListScreens(ctx, th.ID)
		if err != nil {
			return f, err
		}
		for _, sc := range screens {
			sel := sc.ID == screenID
			if sel {
				chosen, theatre = sc, th
			}
			f.Screens = append(f.Screens, model.Option{Value: sc.ID, Label: th.Name + ", " + th.City + " · " + sc.Name, Selected: sel})
		}
	}
	if chosen.ID == "" {
		return f, nil
	}
	movies, err := s.catalog.ListMovies(ctx)
	if err != nil {
		return f, err
	}
	for _, mv := range movies {
		f.Movies = append(f.Movies, model.Option{Value: mv.ID, Label: mv.Title, Selected: mv.ID == movieID})
	}
	f.ScreenOK, f.ScreenID = true, chosen.ID
	loc, lerr := theatre.Location()
	if lerr == nil {
		f.ZoneNote = fmt.Sprintf("In the theatre's time zone, %s (now %s there).", loc, time.Now().In(loc).Format("15:04"))
	}
	l, err := booking.ParseLayout(chosen.Layout)
	if err != nil {
		return f, errorf("web: stored layout of screen %s does not parse: %w", chosen.ID, err)
	}
	var inv booking.InvalidFields
	errors.As(verr, &inv)
	f.Start.Error = inv.For("start")
	f.MovieErr = inv.For("movie")
	cards, err := s.catalog.PriceCards(ctx, theatre.ID)
	if err != nil {
		return f, err
	}
	if len(cards) > 0 {
		// The theatre prices its shows by card: the card replaces the
		// prices per category.
		for _, card := range cards {
			f.Cards = append(f.Cards, model.Option{Value: card.ID, Label: card.Name, Selected: card.ID == c.FormValue("card")})
		}
		f.CardErr = inv.For("card")
		return f, nil
	}
	for _, name := range l.CategoryNames() {
		f.Prices = append(f.Prices, model.Field{Name: "price_" + name, Label: "Price of a " + name + " seat (" + theatre.Currency + ")",
			Value: prices[name], Error: inv.For("price_" + name)})
	}
	return f, nil
}

// handleAdminShowDelete is POST /admin/shows/:showID/delete.
func (s *Server) handleAdminShowDelete(c echo.Context) error {
	return s.deleted(c, s.catalog.DeleteShow(c.Request().Context(), c.Param("showID")))
}
