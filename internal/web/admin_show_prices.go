package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// A show's price table on its admin page (SPEC §15): a grid of its
// categories × its types and the theatre's types it has not copied yet.
// A cell not offered may always gain a price; changing or removing an
// offered one is 409 while a seat is held or being paid for.

// showPricesModel is the show's price grid, typed as typed (nil: as
// stored) with the problems of verr.
func (s *Server) showPricesModel(c echo.Context, showID string, typed map[string]string, verr error) (*model.AdminShowPrices, error) {
	p, err := s.catalog.ShowPricing(c.Request().Context(), showID)
	if err != nil {
		return nil, err
	}
	if typed == nil {
		typed = typedGrid(p.Prices.Cells)
	}
	types := append(append([]booking.TicketType{}, p.Prices.Types...), p.More...)
	return &model.AdminShowPrices{Action: adminShowURL(showID) + "/prices", CSRF: s.csrfToken(c),
		Grid: priceGrid(p.Categories, types, typed, verr), Notice: refusal(verr)}, nil
}

// handleAdminShowPrices is POST /admin/shows/:showID/prices.
func (s *Server) handleAdminShowPrices(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	p, err := s.catalog.ShowPricing(ctx, showID)
	if err != nil {
		return err
	}
	types := append(append([]booking.TicketType{}, p.Prices.Types...), p.More...)
	cells, typed, bad := gridFromForm(c, p.Categories, types)
	if len(bad) > 0 {
		err = bad
	} else {
		err = s.catalog.SaveShowPrices(ctx, showID, cells)
	}
	if ok, err := saveOrShow(err, func(verr error) error {
		m, err := s.showPricesModel(c, showID, typed, verr)
		if err != nil {
			return err
		}
		return s.renderAdminShowWith(c, http.StatusUnprocessableEntity, nil, nil, m)
	}); !ok {
		return err
	}
	return redirect(c, adminShowURL(showID)+"?prices=1")
}
