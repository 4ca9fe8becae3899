package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// A theatre's ticket types (SPEC §15): the list in order with the form to
// add one, edit, move up or down, delete. A refused save shows the form
// again, 422, with nothing stored; deleting a type, or changing where it
// is sold, while a card or a show uses it is 409 saying which.

func typesURL(theatreID string) string { return "/admin/theatres/" + theatreID + "/types" }
func typeURL(theatreID, id string) string {
	return typesURL(theatreID) + "/" + id
}

func typeFromForm(c echo.Context) booking.TicketType {
	on := func(name string) bool { return c.FormValue(name) != "" }
	return booking.TicketType{ID: c.FormValue("id"), Name: c.FormValue("name"), Note: c.FormValue("note"),
		DoorCheck: on("door_check"), Accompanied: on("accompanied"), Online: on("online"), BoxOffice: on("box_office")}
}

func soldText(t booking.TicketType) string {
	var where []string
	if t.Online {
		where = append(where, "online")
	}
	if t.BoxOffice {
		where = append(where, "box office")
	}
	return strings.Join(where, ", ")
}

// typesPage is the types page of th: the list and the add form with t as
// typed, or with editing the edit form of t alone.
func (s *Server) typesPage(c echo.Context, th booking.Theatre, t booking.TicketType, editing bool, verr error) (model.AdminTypes, error) {
	fields := []model.Field{
		{Name: "id", Label: "Id", Value: t.ID, Hint: "Lowercase letters, digits and -, like adult or child: it names the type in links and exports, and cannot change."},
		{Name: "name", Label: "Name", Value: t.Name},
		{Name: "note", Label: "Note (optional)", Value: t.Note, Hint: "Shown to buyers, on the ticket and at the door, like \"under 12\"."},
	}
	heading, action, submit := "Ticket types", typesURL(th.ID), "Add type"
	if editing {
		fields = fields[1:]
		heading, action, submit = "Ticket type "+t.ID, typeURL(th.ID, t.ID), "Save type"
	}
	m := model.AdminTypes{
		AdminForm: s.form(c, heading, action, submit, fields, verr),
		Theatre:   th.Name + ", " + th.City, TheatreID: th.ID, Editing: editing,
		DoorCheck: t.DoorCheck, Accompanied: t.Accompanied, Online: t.Online, BoxOffice: t.BoxOffice,
		CardsURL: cardsURL(th.ID),
	}
	m.Back = "/admin/theatres/" + th.ID
	var inv booking.InvalidFields
	if errors.As(verr, &inv) {
		m.SoldErr = inv.For("sold")
	}
	if editing {
		return m, nil
	}
	types, err := s.catalog.TicketTypes(c.Request().Context(), th.ID)
	if err != nil {
		return m, err
	}
	for i, ty := range types {
		var flags []string
		if ty.DoorCheck {
			flags = append(flags, "door check")
		}
		if ty.Accompanied {
			flags = append(flags, "accompanied")
		}
		u := typeURL(th.ID, ty.ID)
		m.Types = append(m.Types, model.AdminType{ID: ty.ID, Name: ty.Name, Note: ty.Note, Sold: soldText(ty), Flags: strings.Join(flags, " · "),
			EditURL: u, MoveAction: u + "/move", Delete: u + "/delete", First: i == 0, Last: i == len(types)-1})
	}
	return m, nil
}

// handleAdminTypes is GET /admin/theatres/:id/types.
func (s *Server) handleAdminTypes(c echo.Context) error {
	th, err := s.catalog.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	m, err := s.typesPage(c, th, booking.TicketType{Online: true, BoxOffice: true}, false, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminTypes(m))
}

// handleAdminTypeCreate is POST /admin/theatres/:id/types.
func (s *Server) handleAdminTypeCreate(c echo.Context) error {
	ctx := c.Request().Context()
	th, err := s.catalog.Theatre(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	t := typeFromForm(c)
	err = s.catalog.SaveTicketType(ctx, th.ID, "", t)
	if ok, err := saveOrShow(err, func(verr error) error {
		m, err := s.typesPage(c, th, t, false, verr)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusUnprocessableEntity, pages.AdminTypes(m))
	}); !ok {
		return err
	}
	return redirect(c, typesURL(th.ID))
}

// theatreType reads the theatre and its type of the request's ids.
func (s *Server) theatreType(c echo.Context) (booking.Theatre, booking.TicketType, error) {
	ctx := c.Request().Context()
	th, err := s.catalog.Theatre(ctx, c.Param("id"))
	if err != nil {
		return th, booking.TicketType{}, err
	}
	types, err := s.catalog.TicketTypes(ctx, th.ID)
	if err != nil {
		return th, booking.TicketType{}, err
	}
	t, ok := booking.TypeByID(types, c.Param("typeID"))
	if !ok {
		return th, t, booking.ErrTicketTypeNotFound
	}
	return th, t, nil
}

// handleAdminType is GET /admin/theatres/:id/types/:typeID: its form.
func (s *Server) handleAdminType(c echo.Context) error {
	th, t, err := s.theatreType(c)
	if err != nil {
		return err
	}
	m, err := s.typesPage(c, th, t, true, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminTypes(m))
}

// handleAdminTypeUpdate is POST /admin/theatres/:id/types/:typeID.
func (s *Server) handleAdminTypeUpdate(c echo.Context) error {
	th, old, err := s.theatreType(c)
	if err != nil {
		return err
	}
	t := typeFromForm(c)
	t.ID = old.ID
	err = s.catalog.SaveTicketType(c.Request().Context(), th.ID, old.ID, t)
	if ok, err := saveOrShow(err, func(verr error) error {
		m, err := s.typesPage(c, th, t, true, verr)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusUnprocessableEntity, pages.AdminTypes(m))
	}); !ok {
		return err
	}
	return redirect(c, typesURL(th.ID))
}

// handleAdminTypeMove is POST /admin/theatres/:id/types/:typeID/move,
// field dir = up or down.
func (s *Server) handleAdminTypeMove(c echo.Context) error {
	dir := c.FormValue("dir")
	if dir != "up" && dir != "down" {
		return booking.Errorf(booking.EINVALID, "Move a type up or down.")
	}
	if err := s.catalog.MoveTicketType(c.Request().Context(), c.Param("id"), c.Param("typeID"), dir == "up"); err != nil {
		return err
	}
	return redirect(c, typesURL(c.Param("id")))
}

// handleAdminTypeDelete is POST /admin/theatres/:id/types/:typeID/delete.
func (s *Server) handleAdminTypeDelete(c echo.Context) error {
	if err := s.catalog.DeleteTicketType(c.Request().Context(), c.Param("id"), c.Param("typeID")); err != nil {
		return err
	}
	return redirect(c, typesURL(c.Param("id")))
}

// priceInput is a price as the grid's input shows it: "250", "99.50".
func priceInput(m booking.Money) string {
	if m%100 == 0 {
		return fmt.Sprint(int64(m) / 100)
	}
	return fmt.Sprintf("%d.%02d", int64(m)/100, int64(m)%100)
}

// gridFromForm reads the grid's cells of categories × types as typed:
// an empty cell is not offered, one that is not a price is its field's
// problem.
func gridFromForm(c echo.Context, categories []string, types []booking.TicketType) (booking.PriceTable, map[string]string, booking.InvalidFields) {
	var cells booking.PriceTable
	typed := map[string]string{}
	var bad booking.InvalidFields
	for _, cat := range categories {
		for _, t := range types {
			field := booking.CellField(cat, t.ID)
			v := strings.TrimSpace(c.FormValue(field))
			typed[field] = v
			if v == "" {
				continue
			}
			p, err := booking.ParsePrice(v)
			if err != nil {
				bad = append(bad, booking.FieldError{Field: field, Message: fmt.Sprintf("%q is not a price for %s × %s; write it like 250 or 99.50.", booking.Truncate(v, 12), cat, t.Name)})
				continue
			}
			cells = append(cells, booking.PriceCell{Category: cat, Type: t.ID, Price: p})
		}
	}
	return cells, typed, bad
}

// typedGrid is cells as the grid's inputs show them.
func typedGrid(cells booking.PriceTable) map[string]string {
	typed := map[string]string{}
	for _, cell := range cells {
		typed[booking.CellField(cell.Category, cell.Type)] = priceInput(cell.Price)
	}
	return typed
}

// priceGrid is the grid of categories × types with typed values and the
// problems of verr beside their cells and categories.
func priceGrid(categories []string, types []booking.TicketType, typed map[string]string, verr error) model.PriceGrid {
	var inv booking.InvalidFields
	errors.As(verr, &inv)
	var g model.PriceGrid
	for _, t := range types {
		g.Types = append(g.Types, model.PriceGridType{ID: t.ID, Name: t.Name, Sold: soldText(t)})
	}
	for _, cat := range categories {
		row := model.PriceGridRow{Category: cat, Error: inv.For(booking.CategoryField(cat))}
		for _, t := range types {
			field := booking.CellField(cat, t.ID)
			row.Cells = append(row.Cells, model.Field{Name: field, Label: cat + " × " + t.Name, Value: typed[field], Error: inv.For(field)})
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}
