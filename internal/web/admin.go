package web

import (
	"net/http"
	"slices"
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
		day, err := time.Parse(time.DateOnly, date)
		if err != nil {
			return booking.Errorf(booking.EINVALID, "%q is not a date; use YYYY-MM-DD.", booking.Truncate(date, 20))
		}
		// A show is on date when it starts on it in its theatre's zone:
		// ask for every instant that is date somewhere (UTC+14 to
		// UTC-12), then keep the shows whose theatre says so.
		f.From, f.To = day.Add(-14*time.Hour), day.AddDate(0, 0, 1).Add(12*time.Hour)
		f.Limit = 0
	}
	list, err := s.svc.ListOccupancy(ctx, f)
	if err != nil {
		return err
	}
	if date != "" {
		list = slices.DeleteFunc(list, func(so booking.ShowOccupancy) bool {
			return so.StartsAt.In(s.showLocation(so.Show)).Format(time.DateOnly) != date
		})
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
			Show: s.adminShowModel(so.Show), URL: adminShowURL(so.ID),
			Counts:  countsModel(so.Occupancy),
			Revenue: so.Revenue.Format(so.Currency), RefundsDue: so.RefundsDue,
		})
	}
	return s.render(c, http.StatusOK, pages.AdminOverview(m))
}
