package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// Screens in the catalog, with their seat layouts: the form with its
// preview, create, update, the layout's export and delete.

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
		f.Preview = s.layoutPreview(l.Seats)
		f.Categories, f.SeatCount = l.CategoryNames(), len(l.Seats)
	}
	return f
}

func screenFromForm(c echo.Context) booking.Screen {
	return booking.Screen{Name: c.FormValue("name"), Layout: c.FormValue("layout")}
}

// handleAdminScreenNew is GET /admin/theatres/:id/screens/new.
func (s *Server) handleAdminScreenNew(c echo.Context) error {
	th, err := s.catalog.Theatre(c.Request().Context(), c.Param("id"))
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
	th, err := s.catalog.Theatre(ctx, c.Param("id"))
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
	_, err := s.catalog.SaveScreen(c.Request().Context(), sc)
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
	sc, err := s.catalog.Screen(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	th, err := s.catalog.Theatre(ctx, sc.TheatreID)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminScreenForm(s.screenForm(c, th, sc, "/admin/screens/"+sc.ID, nil)))
}

// handleAdminScreenUpdate is POST /admin/screens/:id (or a preview).
func (s *Server) handleAdminScreenUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.catalog.Screen(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	th, err := s.catalog.Theatre(ctx, old.TheatreID)
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
	sc, err := s.catalog.Screen(c.Request().Context(), c.Param("id"))
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

// handleAdminScreenDelete is POST /admin/screens/:id/delete.
func (s *Server) handleAdminScreenDelete(c echo.Context) error {
	return s.deleted(c, s.catalog.DeleteScreen(c.Request().Context(), c.Param("id")))
}
