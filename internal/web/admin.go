package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// adminShowLimit bounds the overview: a catalog of thousands of shows is
// narrowed by date or theatre.
const adminShowLimit = 500

// handleAdmin is GET /admin?date=YYYY-MM-DD&theatre=ID: every show the
// filter selects with booked, held and available seats counted by the seat
// rule in the database, revenue and refunds due.
func (s *Server) handleAdmin(c echo.Context) error {
	ctx := c.Request().Context()
	f := booking.ShowFilter{TheatreID: c.QueryParam("theatre"), Limit: adminShowLimit + 1}
	date := c.QueryParam("date")
	if date != "" {
		day, err := time.ParseInLocation(time.DateOnly, date, s.loc)
		if err != nil {
			return booking.Errorf(booking.EINVALID, "%q is not a date; use YYYY-MM-DD.", booking.Truncate(date, 20))
		}
		f.From, f.To = day, day.AddDate(0, 0, 1)
	}
	list, err := s.svc.ListOccupancy(ctx, f)
	if err != nil {
		return err
	}
	theatres, err := s.svc.Theatres(ctx)
	if err != nil {
		return err
	}
	m := model.AdminOverview{
		AdminPage: s.adminPage(c, "Occupancy"),
		Date:      date, TheatreID: f.TheatreID, Limit: adminShowLimit,
	}
	if len(list) > adminShowLimit {
		list, m.Truncated = list[:adminShowLimit], true
	}
	for _, th := range theatres {
		label := th.Name
		if th.City != "" {
			label += ", " + th.City
		}
		m.Theatres = append(m.Theatres, model.AdminTheatre{ID: th.ID, Label: label, Selected: th.ID == f.TheatreID})
	}
	for _, so := range list {
		m.Shows = append(m.Shows, model.AdminShowRow{
			Show: s.showModel(so.Show), URL: adminShowURL(so.ID),
			Counts:  countsModel(so.Occupancy),
			Revenue: so.Revenue.Format(so.Currency), RefundsDue: so.RefundsDue,
		})
	}
	return s.render(c, http.StatusOK, pages.AdminOverview(m))
}
