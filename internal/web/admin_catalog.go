package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// The catalog pages (SPEC §10): theatres, screens with their seat layouts,
// movies, and new shows. Every form posts back to itself; a refused save
// shows the form again, 422, with what was typed and each field's problem,
// and nothing is stored.

const catalogPath = "/admin/catalog"

// handleAdminCatalog is GET /admin/catalog: the theatres with their
// screens, and the movies.
func (s *Server) handleAdminCatalog(c echo.Context) error {
	ctx := c.Request().Context()
	theatres, err := s.svc.ListTheatres(ctx)
	if err != nil {
		return err
	}
	movies, err := s.svc.ListMovies(ctx)
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
		screens, err := s.svc.ListScreens(ctx, th.ID)
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

// Theatres.

func theatreFields(t booking.Theatre) []model.Field {
	return []model.Field{
		{Name: "name", Label: "Name", Value: t.Name},
		{Name: "city", Label: "City", Value: t.City},
		{Name: "time_zone", Label: "Time zone", Value: t.TimeZone, Hint: "IANA name, like Asia/Kolkata or Europe/London: show times are entered and shown in it."},
	}
}

func theatreFromForm(c echo.Context) booking.Theatre {
	return booking.Theatre{Name: c.FormValue("name"), City: c.FormValue("city"), TimeZone: c.FormValue("time_zone")}
}

// handleAdminTheatreNew is GET /admin/theatres/new.
func (s *Server) handleAdminTheatreNew(c echo.Context) error {
	return s.render(c, http.StatusOK, pages.AdminForm(s.form(c, "New theatre", "/admin/theatres", "Create theatre",
		theatreFields(booking.Theatre{TimeZone: s.defaultZoneName()}), nil)))
}

// defaultZoneName is the server's zone (TZ) as an IANA name for a new
// theatre's form, "" when it has none ("Local").
func (s *Server) defaultZoneName() string {
	if name := s.loc.String(); name != "Local" && name != "" {
		return name
	}
	return ""
}

// handleAdminTheatreCreate is POST /admin/theatres.
func (s *Server) handleAdminTheatreCreate(c echo.Context) error {
	t := theatreFromForm(c)
	_, err := s.svc.SaveTheatre(c.Request().Context(), t)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.form(c, "New theatre", "/admin/theatres", "Create theatre", theatreFields(t), err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(t.Name))
}

// handleAdminTheatre is GET /admin/theatres/:id.
func (s *Server) handleAdminTheatre(c echo.Context) error {
	t, err := s.svc.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminForm(s.theatreForm(c, t, nil)))
}

func (s *Server) theatreForm(c echo.Context, t booking.Theatre, err error) model.AdminForm {
	f := s.form(c, "Theatre "+t.Name, "/admin/theatres/"+t.ID, "Save theatre", theatreFields(t), err)
	f.DeleteAction = "/admin/theatres/" + t.ID + "/delete"
	return f
}

// handleAdminTheatreUpdate is POST /admin/theatres/:id.
func (s *Server) handleAdminTheatreUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.svc.Theatre(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	t := theatreFromForm(c)
	t.ID = old.ID
	_, err = s.svc.SaveTheatre(ctx, t)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.theatreForm(c, t, err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(t.Name))
}

// Movies.

func movieFields(m booking.Movie, runtimeText string) []model.Field {
	return []model.Field{
		{Name: "title", Label: "Title", Value: m.Title},
		{Name: "language", Label: "Language", Value: m.Language},
		{Name: "rating", Label: "Certificate", Value: m.Rating, Hint: "U, UA 13+, A…"},
		{Name: "runtime", Label: "Runtime (minutes)", Value: runtimeText},
	}
}

func movieFromForm(c echo.Context) (booking.Movie, string) {
	rt := strings.TrimSpace(c.FormValue("runtime"))
	n, err := strconv.Atoi(rt)
	if err != nil {
		n = 0 // ValidateMovie names the field
	}
	return booking.Movie{Title: c.FormValue("title"), Language: c.FormValue("language"), Rating: c.FormValue("rating"), RuntimeMin: n}, rt
}

// handleAdminMovieNew is GET /admin/movies/new.
func (s *Server) handleAdminMovieNew(c echo.Context) error {
	return s.render(c, http.StatusOK, pages.AdminForm(s.form(c, "New movie", "/admin/movies", "Create movie", movieFields(booking.Movie{}, ""), nil)))
}

// handleAdminMovieCreate is POST /admin/movies.
func (s *Server) handleAdminMovieCreate(c echo.Context) error {
	m, rt := movieFromForm(c)
	_, err := s.svc.SaveMovie(c.Request().Context(), m)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.form(c, "New movie", "/admin/movies", "Create movie", movieFields(m, rt), err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(m.Title))
}

// handleAdminMovie is GET /admin/movies/:id.
func (s *Server) handleAdminMovie(c echo.Context) error {
	m, err := s.svc.Movie(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminForm(s.movieForm(c, m, strconv.Itoa(m.RuntimeMin), nil)))
}

func (s *Server) movieForm(c echo.Context, m booking.Movie, rt string, err error) model.AdminForm {
	f := s.form(c, "Movie "+m.Title, "/admin/movies/"+m.ID, "Save movie", movieFields(m, rt), err)
	f.DeleteAction = "/admin/movies/" + m.ID + "/delete"
	return f
}

// handleAdminMovieUpdate is POST /admin/movies/:id.
func (s *Server) handleAdminMovieUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.svc.Movie(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	m, rt := movieFromForm(c)
	m.ID = old.ID
	_, err = s.svc.SaveMovie(ctx, m)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.movieForm(c, m, rt, err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(m.Title))
}

// Screens.

// screenForm is a screen's form; with preview the layout is drawn as the
// seat map when it parses.
func (s *Server) screenForm(c echo.Context, th booking.Theatre, sc booking.Screen, action string, err error) model.AdminScreenForm {
	heading, submit := "Screen "+sc.Name, "Save screen"
	if sc.ID == "" {
		heading, submit = "New screen", "Create screen"
	}
	f := model.AdminScreenForm{
		AdminForm: s.form(c, heading, action, submit, []model.Field{{Name: "name", Label: "Name", Value: sc.Name}}, err),
		Theatre:   th.Name + ", " + th.City,
		Layout:    model.Field{Name: "layout", Label: "Seat layout", Value: sc.Layout},
		Example:   booking.LayoutExample,
	}
	var inv booking.InvalidFields
	if errors.As(err, &inv) {
		f.Layout.Error = inv.For("layout")
	}
	if sc.ID != "" {
		f.DeleteAction = "/admin/screens/" + sc.ID + "/delete"
		f.ExportURL = "/admin/screens/" + sc.ID + "/layout.txt"
	}
	if l, perr := booking.ParseLayout(sc.Layout); perr == nil && sc.Layout != "" {
		f.Preview = s.adminSeatRows(l.Seats, s.svc.Now(), s.loc)
		f.Categories, f.SeatCount = l.CategoryNames(), len(l.Seats)
	}
	return f
}

func screenFromForm(c echo.Context) booking.Screen {
	return booking.Screen{Name: c.FormValue("name"), Layout: c.FormValue("layout")}
}

// handleAdminScreenNew is GET /admin/theatres/:id/screens/new.
func (s *Server) handleAdminScreenNew(c echo.Context) error {
	th, err := s.svc.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	sc := booking.Screen{TheatreID: th.ID}
	return s.render(c, http.StatusOK, pages.AdminScreenForm(s.screenForm(c, th, sc, "/admin/theatres/"+th.ID+"/screens", nil)))
}

// handleAdminScreenCreate is POST /admin/theatres/:id/screens: action
// preview draws the layout without saving.
func (s *Server) handleAdminScreenCreate(c echo.Context) error {
	ctx := c.Request().Context()
	th, err := s.svc.Theatre(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	sc := screenFromForm(c)
	sc.TheatreID = th.ID
	return s.saveScreen(c, th, sc, "/admin/theatres/"+th.ID+"/screens")
}

// saveScreen is the screen form's post: with action=preview it draws the
// layout and saves nothing; otherwise it saves, or shows why not.
func (s *Server) saveScreen(c echo.Context, th booking.Theatre, sc booking.Screen, action string) error {
	if c.FormValue("action") == "preview" {
		_, verr := booking.ValidateScreen(sc)
		return s.render(c, formStatus(verr), pages.AdminScreenForm(s.screenForm(c, th, sc, action, verr)))
	}
	_, err := s.svc.SaveScreen(c.Request().Context(), sc)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminScreenForm(s.screenForm(c, th, sc, action, err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(sc.Name))
}

// handleAdminScreen is GET /admin/screens/:id.
func (s *Server) handleAdminScreen(c echo.Context) error {
	ctx := c.Request().Context()
	sc, err := s.svc.Screen(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	th, err := s.svc.Theatre(ctx, sc.TheatreID)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminScreenForm(s.screenForm(c, th, sc, "/admin/screens/"+sc.ID, nil)))
}

// handleAdminScreenUpdate is POST /admin/screens/:id (or a preview).
func (s *Server) handleAdminScreenUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.svc.Screen(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	th, err := s.svc.Theatre(ctx, old.TheatreID)
	if err != nil {
		return err
	}
	sc := screenFromForm(c)
	sc.ID, sc.TheatreID = old.ID, old.TheatreID
	return s.saveScreen(c, th, sc, "/admin/screens/"+sc.ID)
}

// handleAdminScreenExport is GET /admin/screens/:id/layout.txt: the layout
// in the form the editor reads.
func (s *Server) handleAdminScreenExport(c echo.Context) error {
	sc, err := s.svc.Screen(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	l, err := booking.ParseLayout(sc.Layout)
	if err != nil {
		return errorf("web: stored layout of screen %s does not parse: %w", sc.ID, err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, `attachment; filename="layout-`+safeFilePart(sc.Name)+`.txt"`)
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(l.Text()))
}

// Shows.

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
	sc, err := s.svc.Screen(ctx, screenID)
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
	show, err := s.svc.NewShow(ctx, movieID, screenID, start, prices, "INR")
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
	theatres, err := s.svc.ListTheatres(ctx)
	if err != nil {
		return f, err
	}
	var chosen booking.Screen
	var theatre booking.Theatre
	for _, th := range theatres {
		screens, err := s.svc.ListScreens(ctx, th.ID)
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
	movies, err := s.svc.ListMovies(ctx)
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
	for _, name := range l.CategoryNames() {
		f.Prices = append(f.Prices, model.Field{Name: "price_" + name, Label: "Price of a " + name + " seat (₹)",
			Value: prices[name], Error: inv.For("price_" + name)})
	}
	return f, nil
}

// Deletions.

func (s *Server) handleAdminTheatreDelete(c echo.Context) error {
	return s.deleted(c, s.svc.DeleteTheatre(c.Request().Context(), c.Param("id")))
}

func (s *Server) handleAdminScreenDelete(c echo.Context) error {
	return s.deleted(c, s.svc.DeleteScreen(c.Request().Context(), c.Param("id")))
}

func (s *Server) handleAdminMovieDelete(c echo.Context) error {
	return s.deleted(c, s.svc.DeleteMovie(c.Request().Context(), c.Param("id")))
}

func (s *Server) handleAdminShowDelete(c echo.Context) error {
	return s.deleted(c, s.svc.DeleteShow(c.Request().Context(), c.Param("showID")))
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
