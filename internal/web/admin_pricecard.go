package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// A theatre's price cards (SPEC §15): the list, a card's form as a grid
// of its seat categories × its ticket types, delete. A refused save shows
// the grid again, 422, each problem beside its cell, nothing stored.

func cardsURL(theatreID string) string { return "/admin/theatres/" + theatreID + "/cards" }
func cardURL(id string) string         { return "/admin/cards/" + id }

// handleAdminCards is GET /admin/theatres/:id/cards.
func (s *Server) handleAdminCards(c echo.Context) error {
	ctx := c.Request().Context()
	th, err := s.catalog.Theatre(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	cards, err := s.catalog.PriceCards(ctx, th.ID)
	if err != nil {
		return err
	}
	m := model.AdminCards{AdminPage: s.adminPage(c, "Price cards"), Theatre: th.Name + ", " + th.City, TheatreID: th.ID,
		NewURL: cardsURL(th.ID) + "/new", TypesURL: typesURL(th.ID)}
	if c.QueryParam("saved") != "" {
		m.Notice = &model.Notice{Kind: "info", Text: "Saved."}
	}
	for _, card := range cards {
		m.Cards = append(m.Cards, model.AdminCardLink{ID: card.ID, Name: card.Name, URL: cardURL(card.ID),
			DeleteAction: cardURL(card.ID) + "/delete", Cells: len(card.Cells)})
	}
	return s.render(c, http.StatusOK, pages.AdminCards(m))
}

// cardForm is card's form for theatre th, typed as typed.
func (s *Server) cardForm(c echo.Context, th booking.Theatre, card booking.PriceCard, typed map[string]string, verr error) (model.AdminCardForm, error) {
	ctx := c.Request().Context()
	cats, err := s.catalog.TheatreCategories(ctx, th.ID)
	if err != nil {
		return model.AdminCardForm{}, err
	}
	types, err := s.catalog.TicketTypes(ctx, th.ID)
	if err != nil {
		return model.AdminCardForm{}, err
	}
	heading, action, submit := "New price card", cardsURL(th.ID), "Create card"
	if card.ID != "" {
		heading, action, submit = "Price card "+card.Name, cardURL(card.ID), "Save card"
	}
	f := model.AdminCardForm{
		AdminForm: s.form(c, heading, action, submit, []model.Field{{Name: "name", Label: "Name", Value: card.Name, Hint: "Like Weekday or Matinee."}}, verr),
		Theatre:   th.Name + ", " + th.City,
		Grid:      priceGrid(cats, booking.TypesOf(types), typed, verr),
	}
	f.Back = cardsURL(th.ID)
	if card.ID != "" {
		f.DeleteAction = cardURL(card.ID) + "/delete"
	}
	return f, nil
}

// handleAdminCardNew is GET /admin/theatres/:id/cards/new.
func (s *Server) handleAdminCardNew(c echo.Context) error {
	th, err := s.catalog.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	f, err := s.cardForm(c, th, booking.PriceCard{TheatreID: th.ID}, nil, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminCardForm(f))
}

// handleAdminCardCreate is POST /admin/theatres/:id/cards.
func (s *Server) handleAdminCardCreate(c echo.Context) error {
	th, err := s.catalog.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.saveCard(c, th, booking.PriceCard{TheatreID: th.ID})
}

// saveCard saves the posted card (old's id and theatre), or shows the
// grid again with why not.
func (s *Server) saveCard(c echo.Context, th booking.Theatre, old booking.PriceCard) error {
	ctx := c.Request().Context()
	cats, err := s.catalog.TheatreCategories(ctx, th.ID)
	if err != nil {
		return err
	}
	types, err := s.catalog.TicketTypes(ctx, th.ID)
	if err != nil {
		return err
	}
	card := booking.PriceCard{ID: old.ID, TheatreID: th.ID, Name: c.FormValue("name")}
	cells, typed, bad := gridFromForm(c, cats, booking.TypesOf(types))
	card.Cells = cells
	if len(bad) > 0 {
		err = bad
	} else {
		_, err = s.catalog.SavePriceCard(ctx, card)
	}
	if ok, err := saveOrShow(err, func(verr error) error {
		f, err := s.cardForm(c, th, card, typed, verr)
		if err != nil {
			return err
		}
		return s.render(c, http.StatusUnprocessableEntity, pages.AdminCardForm(f))
	}); !ok {
		return err
	}
	return redirect(c, cardsURL(th.ID)+"?saved=1")
}

// theatreCard reads the card of the request and its theatre.
func (s *Server) theatreCard(c echo.Context) (booking.Theatre, booking.PriceCard, error) {
	ctx := c.Request().Context()
	card, err := s.catalog.PriceCard(ctx, c.Param("cardID"))
	if err != nil {
		return booking.Theatre{}, card, err
	}
	th, err := s.catalog.Theatre(ctx, card.TheatreID)
	return th, card, err
}

// handleAdminCard is GET /admin/cards/:cardID.
func (s *Server) handleAdminCard(c echo.Context) error {
	th, card, err := s.theatreCard(c)
	if err != nil {
		return err
	}
	f, err := s.cardForm(c, th, card, typedGrid(card.Cells), nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminCardForm(f))
}

// handleAdminCardUpdate is POST /admin/cards/:cardID.
func (s *Server) handleAdminCardUpdate(c echo.Context) error {
	th, card, err := s.theatreCard(c)
	if err != nil {
		return err
	}
	return s.saveCard(c, th, card)
}

// handleAdminCardDelete is POST /admin/cards/:cardID/delete.
func (s *Server) handleAdminCardDelete(c echo.Context) error {
	th, card, err := s.theatreCard(c)
	if err != nil {
		return err
	}
	if err := s.catalog.DeletePriceCard(c.Request().Context(), card.ID); err != nil {
		return err
	}
	return redirect(c, cardsURL(th.ID))
}
