package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

const onSalesPath = "/admin/onsales"

func onSaleURL(id string) string { return onSalesPath + "/" + id }

// adminTime is how an admin's time is shown and put back in a
// datetime-local field, in the server's zone (TZ).
const adminTime = "2006-01-02 15:04 MST"

// parseAdminTime reads an on-sale's time: RFC 3339, or a datetime-local
// value in loc.
func parseAdminTime(v string, loc *time.Location) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC(), true
	}
	for _, layout := range []string{booking.LocalTimeLayout, "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// onSaleRequestFrom reads the create form (SPEC §20's on-sale hook): name,
// opens_at, optional closes_at, movie or show repeated, rate, pass_ttl.
func (s *Server) onSaleRequestFrom(c echo.Context) (booking.OnSaleRequest, error) {
	form, err := c.FormParams()
	if err != nil {
		return booking.OnSaleRequest{}, echo.NewHTTPError(http.StatusBadRequest)
	}
	r := booking.OnSaleRequest{Name: strings.TrimSpace(form.Get("name")), MovieID: strings.TrimSpace(form.Get("movie"))}
	var bad booking.InvalidFields
	if v := form.Get("opens_at"); v != "" {
		var ok bool
		if r.OpensAt, ok = parseAdminTime(v, s.loc); !ok {
			bad = append(bad, booking.FieldError{Field: "opens_at", Message: "The opening time must be a date and time (RFC 3339)."})
		}
	}
	if v := form.Get("closes_at"); v != "" {
		var ok bool
		if r.ClosesAt, ok = parseAdminTime(v, s.loc); !ok {
			bad = append(bad, booking.FieldError{Field: "closes_at", Message: "The closing time must be a date and time (RFC 3339)."})
		}
	}
	for _, id := range form["show"] {
		if id = strings.TrimSpace(id); id != "" {
			r.ShowIDs = append(r.ShowIDs, id)
		}
	}
	if r.Rate, err = strconv.Atoi(strings.TrimSpace(form.Get("rate"))); err != nil {
		r.Rate = 0 // ValidateOnSale names it
	}
	if v := strings.TrimSpace(form.Get("pass_ttl")); v != "" {
		if r.PassTTL, err = time.ParseDuration(v); err != nil || r.PassTTL <= 0 {
			r.PassTTL = -1 // ValidateOnSale names it
		}
	}
	if len(bad) > 0 {
		return r, bad
	}
	return r, nil
}

// handleAdminOnSales is GET /admin/onsales: the list and the create form.
func (s *Server) handleAdminOnSales(c echo.Context) error {
	return s.renderOnSales(c, http.StatusOK, booking.OnSaleRequest{PassTTL: booking.DefaultPassTTL}, nil, nil)
}

// handleAdminOnSaleCreate is POST /admin/onsales: 303 to the new
// on-sale's page; bad input 422 with the form again.
func (s *Server) handleAdminOnSaleCreate(c echo.Context) error {
	r, err := s.onSaleRequestFrom(c)
	if err == nil {
		var o booking.OnSale
		if o, err = s.svc.CreateOnSale(c.Request().Context(), r); err == nil {
			s.onsales.invalidate()
			return redirect(c, onSaleURL(o.ID))
		}
	}
	status, serr := accountStatus(err)
	if serr != nil {
		return serr
	}
	form, _ := c.FormParams()
	return s.renderOnSales(c, status, r, form["show"], err)
}

func (s *Server) renderOnSales(c echo.Context, status int, r booking.OnSaleRequest, chosen []string, err error) error {
	ctx := c.Request().Context()
	list, lerr := s.svc.ListOnSales(ctx)
	if lerr != nil {
		return lerr
	}
	movies, lerr := s.catalog.ListMovies(ctx)
	if lerr != nil {
		return lerr
	}
	shows, lerr := s.svc.UpcomingShows(ctx, 200)
	if lerr != nil {
		return lerr
	}
	now := s.svc.Now().Now
	m := model.AdminOnSales{AdminPage: s.adminPage(c, "On-sales"), Notice: refusal(err)}
	for _, o := range list {
		m.OnSales = append(m.OnSales, model.AdminOnSaleRow{
			ID: o.ID, Name: o.Name, URL: onSaleURL(o.ID), Shows: len(o.Shows), State: onSaleState(o, now),
			OpensAt: o.OpensAt.In(s.loc).Format(adminTime), ClosesAt: o.ClosesAt.In(s.loc).Format(adminTime),
		})
	}
	zone, _ := now.In(s.loc).Zone()
	f := model.OnSaleForm{
		Action:   onSalesPath,
		Name:     model.Field{Name: "name", Label: "Name", Value: r.Name},
		OpensAt:  model.Field{Name: "opens_at", Label: "Opens (T0)", Value: localValue(r.OpensAt, s.loc)},
		ClosesAt: model.Field{Name: "closes_at", Label: "Closes", Value: localValue(r.ClosesAt, s.loc), Hint: "Empty: two hours after it opens."},
		Rate:     model.Field{Name: "rate", Label: "Admission rate (visitors a minute)", Value: strconv.Itoa(max(r.Rate, 0))},
		PassTTL:  model.Field{Name: "pass_ttl", Label: "Pass lifetime", Value: durationValue(r.PassTTL), Hint: "For example 15m."},
		ZoneNote: "Times are in " + zone + ".",
	}
	if r.Rate == 0 {
		f.Rate.Value = ""
	}
	for _, mv := range movies {
		f.Movies = append(f.Movies, model.Option{Value: mv.ID, Label: mv.Title, Selected: mv.ID == r.MovieID})
	}
	for _, sh := range shows {
		sm := s.adminShowModel(sh.Show)
		f.Shows = append(f.Shows, model.Option{Value: sh.ID, Label: sh.Movie.Title + " · " + sh.Theatre.Name + " · " + sm.Date + " " + sm.Time,
			Selected: slices.Contains(chosen, sh.ID)})
	}
	var inv booking.InvalidFields
	if errors.As(err, &inv) {
		f.Name.Error, f.OpensAt.Error, f.ClosesAt.Error = inv.For("name"), inv.For("opens_at"), inv.For("closes_at")
		f.Rate.Error, f.PassTTL.Error, f.MovieErr, f.ShowErr = inv.For("rate"), inv.For("pass_ttl"), inv.For("movie"), inv.For("show")
	}
	m.Form = f
	return s.render(c, status, pages.AdminOnSales(m))
}

func localValue(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(booking.LocalTimeLayout)
}

func durationValue(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return d.String()
}

// onSaleState is an on-sale's state for admins: before, open, paused or
// closed.
func onSaleState(o booking.OnSale, now time.Time) string {
	switch {
	case o.Closed(now):
		return "closed"
	case now.Before(o.OpensAt):
		return "before"
	case o.SegmentAt(now).Paused:
		return "paused"
	}
	return "open"
}

// handleAdminOnSale is GET /admin/onsales/:id.
func (s *Server) handleAdminOnSale(c echo.Context) error {
	return s.renderOnSale(c, http.StatusOK, nil)
}

func (s *Server) renderOnSale(c echo.Context, status int, notice *model.Notice) error {
	ctx := c.Request().Context()
	o, err := s.svc.OnSale(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	joined, err := s.svc.CountQueue(ctx, o.ID)
	if err != nil {
		return err
	}
	now := s.svc.Now().Now
	cur := o.SegmentAt(now)
	base := onSaleURL(o.ID)
	m := model.AdminOnSale{
		AdminPage: s.adminPage(c, o.Name), ID: o.ID, Name: o.Name, State: onSaleState(o, now),
		OpensAt: o.OpensAt.In(s.loc).Format(adminTime), ClosesAt: o.ClosesAt.In(s.loc).Format(adminTime),
		PassTTL: durationText(o.PassTTL), QueueURL: queueURL(o.ID), Rate: cur.Rate, Paused: cur.Paused,
		Admitted: booking.Admitted(o.Segments, o.OpensAt, now), Joined: joined, Notice: notice,
		PauseAction: base + "/pause", ResumeAction: base + "/resume", RateAction: base + "/rate",
		CloseAction: base + "/close", ExtendAction: base + "/extend", Closed: o.Closed(now),
		RateField:   model.Field{Name: "rate", Label: "Rate (visitors a minute)", Value: strconv.Itoa(cur.Rate)},
		ExtendField: model.Field{Name: "closes_at", Label: "Close at", Value: localValue(o.ClosesAt, s.loc)},
	}
	for _, id := range o.Shows {
		sh, ok, err := s.onsales.show(ctx, id)
		if err != nil {
			return err
		}
		if ok {
			sm := s.adminShowModel(sh)
			m.Shows = append(m.Shows, model.QueueShow{ID: id, Title: sh.Movie.Title, When: sm.Date + " " + sm.Time, Theatre: sh.Theatre.Name, URL: "/admin/shows/" + id})
		}
	}
	for _, sg := range o.Segments {
		m.Segments = append(m.Segments, model.AdminSegment{From: sg.From.In(s.loc).Format(adminTime), Rate: strconv.Itoa(sg.Rate), Paused: sg.Paused})
	}
	return s.render(c, status, pages.AdminOnSale(m))
}

// onSaleChange runs an admin's change of on-sale :id and goes back to its
// page (303); bad input is 422 and a closed on-sale 409, with the page.
func (s *Server) onSaleChange(c echo.Context, change func(id string) error) error {
	err := change(c.Param("id"))
	if err == nil {
		s.onsales.invalidate()
		return redirect(c, onSaleURL(c.Param("id")))
	}
	status, serr := accountStatus(err)
	if serr != nil {
		return serr
	}
	return s.renderOnSale(c, status, refusal(err))
}

// handleAdminOnSalePause is POST /admin/onsales/:id/pause.
func (s *Server) handleAdminOnSalePause(c echo.Context) error {
	return s.onSaleChange(c, func(id string) error {
		_, err := s.svc.PauseOnSale(c.Request().Context(), id)
		return err
	})
}

// handleAdminOnSaleResume is POST /admin/onsales/:id/resume.
func (s *Server) handleAdminOnSaleResume(c echo.Context) error {
	return s.onSaleChange(c, func(id string) error {
		_, err := s.svc.ResumeOnSale(c.Request().Context(), id)
		return err
	})
}

// handleAdminOnSaleRate is POST /admin/onsales/:id/rate, field rate.
func (s *Server) handleAdminOnSaleRate(c echo.Context) error {
	return s.onSaleChange(c, func(id string) error {
		rate, err := strconv.Atoi(strings.TrimSpace(c.FormValue("rate")))
		if err != nil {
			rate = 0 // CheckRate names it
		}
		_, err = s.svc.SetOnSaleRate(c.Request().Context(), id, rate)
		return err
	})
}

// handleAdminOnSaleClose is POST /admin/onsales/:id/close.
func (s *Server) handleAdminOnSaleClose(c echo.Context) error {
	return s.onSaleChange(c, func(id string) error {
		_, err := s.svc.CloseOnSale(c.Request().Context(), id)
		return err
	})
}

// handleAdminOnSaleExtend is POST /admin/onsales/:id/extend, field
// closes_at.
func (s *Server) handleAdminOnSaleExtend(c echo.Context) error {
	return s.onSaleChange(c, func(id string) error {
		at, ok := parseAdminTime(c.FormValue("closes_at"), s.loc)
		if !ok {
			return booking.InvalidFields{{Field: "closes_at", Message: "The closing time must be a date and time (RFC 3339)."}}
		}
		_, err := s.svc.ExtendOnSale(c.Request().Context(), id, at)
		return err
	})
}
