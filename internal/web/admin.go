package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// adminPageSize is how many shows a page of the overview lists.
const adminPageSize = 50

// adminMaxPage bounds ?page=: past it the offset alone would be a scan.
const adminMaxPage = 10_000

// overviewWhen are the overview's choices of shows when no date is given:
// today's and upcoming (the default), past (newest first), or all.
var overviewWhen = []model.Option{
	{Value: "", Label: "Today and upcoming"},
	{Value: "past", Label: "Past, newest first"},
	{Value: "all", Label: "All, oldest first"},
}

// handleAdmin is GET /admin?date=YYYY-MM-DD&theatre=ID&when=past|all&page=N:
// the shows the filter selects, adminPageSize a page, with booked, held and
// available seats counted by the seat rule in the database, revenue and
// refunds due; each page groups its shows by theatre. Without a date it
// lists today's and upcoming shows (when=past: those before today, newest
// first; when=all: every show), paged in the store.
func (s *Server) handleAdmin(c echo.Context) error {
	ctx := c.Request().Context()
	q := c.QueryParams()
	f := booking.ShowFilter{TheatreID: q.Get("theatre")}
	page := 1
	if p := q.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > adminMaxPage {
			return booking.Errorf(booking.EINVALID, "%q is not a page: pages are whole numbers from 1.", booking.Truncate(p, 20))
		}
		page = n
	}
	when := q.Get("when")
	if !slices.ContainsFunc(overviewWhen, func(o model.Option) bool { return o.Value == when }) {
		return booking.Errorf(booking.EINVALID, "%q is not a choice of shows: leave it out for today's and upcoming, or use past or all.", booking.Truncate(when, 20))
	}
	date := q.Get("date")
	var list []booking.ShowOccupancy
	if date != "" {
		day, err := time.Parse(time.DateOnly, date)
		if err != nil {
			return booking.Errorf(booking.EINVALID, "%q is not a date; use YYYY-MM-DD.", booking.Truncate(date, 20))
		}
		// A show is on date when it starts on it in its theatre's zone:
		// ask for every instant that is date somewhere (UTC+14 to
		// UTC-12), then keep the shows whose theatre says so. A day's
		// shows are few: they are paged here.
		f.From, f.To = day.Add(-14*time.Hour), day.AddDate(0, 0, 1).Add(12*time.Hour)
		if list, err = s.svc.ListOccupancy(ctx, f); err != nil {
			return err
		}
		list = slices.DeleteFunc(list, func(so booking.ShowOccupancy) bool {
			return so.StartsAt.In(s.showLocation(so.Show)).Format(time.DateOnly) != date
		})
		from := min((page-1)*adminPageSize, len(list))
		list = list[from:min(from+adminPageSize+1, len(list))]
	} else {
		today, err := s.overviewToday(c)
		if err != nil {
			return err
		}
		switch when {
		case "":
			f.From = today
		case "past":
			f.To, f.Newest = today, true
		}
		f.Limit, f.Offset = adminPageSize+1, (page-1)*adminPageSize
		if list, err = s.svc.ListOccupancy(ctx, f); err != nil {
			return err
		}
	}
	theatres, err := s.svc.Theatres(ctx)
	if err != nil {
		return err
	}
	m := model.AdminOverview{
		AdminPage: s.adminPage(c, "Occupancy"),
		Date:      date, TheatreID: f.TheatreID, Page: page,
	}
	for _, o := range overviewWhen {
		o.Selected = o.Value == when
		m.When = append(m.When, o)
	}
	switch {
	case date != "":
		m.Heading = "Shows on " + date
	case when == "past":
		m.Heading = "Past shows, newest first"
	case when == "all":
		m.Heading = "All shows"
	default:
		m.Heading = "Today's and upcoming shows"
	}
	if len(list) > adminPageSize {
		list = list[:adminPageSize]
		m.NextURL = overviewURL(q, page+1)
	}
	if page > 1 {
		m.PrevURL = overviewURL(q, page-1)
	}
	for _, th := range theatres {
		label := th.Name
		if th.City != "" {
			label += ", " + th.City
		}
		m.Theatres = append(m.Theatres, model.AdminTheatre{ID: th.ID, Label: label, Selected: th.ID == f.TheatreID})
	}
	m.Groups = overviewGroups(list, func(so booking.ShowOccupancy) model.AdminShowRow {
		return model.AdminShowRow{
			Show: s.adminShowModel(so.Show), URL: adminShowURL(so.ID),
			Counts:  countsModel(so.Occupancy),
			Revenue: so.Revenue.Format(so.Currency), RefundsDue: so.RefundsDue,
		}
	})
	return s.render(c, http.StatusOK, pages.AdminOverview(m))
}

// overviewGroups groups a page's shows by theatre, the theatres by name
// (then id), each theatre's shows in the page's order.
func overviewGroups(list []booking.ShowOccupancy, row func(booking.ShowOccupancy) model.AdminShowRow) []model.AdminTheatreGroup {
	var groups []model.AdminTheatreGroup
	at := map[string]int{}
	for _, so := range list {
		i, ok := at[so.Theatre.ID]
		if !ok {
			i = len(groups)
			at[so.Theatre.ID] = i
			label := so.Theatre.Name
			if so.Theatre.City != "" {
				label += ", " + so.Theatre.City
			}
			groups = append(groups, model.AdminTheatreGroup{ID: so.Theatre.ID, Name: so.Theatre.Name, Label: label})
		}
		groups[i].Shows = append(groups[i].Shows, row(so))
	}
	slices.SortStableFunc(groups, func(a, b model.AdminTheatreGroup) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return groups
}

// overviewURL is the overview with the filters of q on page.
func overviewURL(q url.Values, page int) string {
	v := url.Values{}
	for _, k := range []string{"date", "theatre", "when"} {
		if q.Get(k) != "" {
			v.Set(k, q.Get(k))
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return "/admin"
	}
	return "/admin?" + v.Encode()
}

// overviewToday is where "today" starts for the overview: the earliest
// midnight of today among the theatres' zones and the server's (a show
// of a theatre without a zone is in the server's), so that no theatre's
// show of today is left out. (A show of the evening before, in a zone
// west of the easternmost, may be listed with today's.)
func (s *Server) overviewToday(c echo.Context) (time.Time, error) {
	theatres, err := s.catalog.ListTheatres(c.Request().Context())
	if err != nil {
		return time.Time{}, err
	}
	now := s.svc.Now().Now
	midnight := func(loc *time.Location) time.Time {
		y, mo, d := now.In(loc).Date()
		return time.Date(y, mo, d, 0, 0, 0, 0, loc)
	}
	start := midnight(s.loc)
	for _, th := range theatres {
		if loc, err := s.zones.load(th.TimeZone); err == nil && th.TimeZone != "" {
			start = minTime(start, midnight(loc))
		}
	}
	return start, nil
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
