package web

import (
	"encoding/csv"
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

// filmReportPath is the film report for distributors (SPEC §17).
const filmReportPath = "/admin/reports/films"

// handleAdminFilmReport is GET /admin/reports/films?week=YYYY-MM-DD
// (&format=csv): the film report of the report week from that day, or of
// this week without one. A date that is not a week's first day is 422
// naming that week's first day, on the report's own page
// (refuseFilmReport).
func (s *Server) handleAdminFilmReport(c echo.Context) error {
	start := s.opts.ReportWeekStart
	first := booking.WeekStart(booking.DayOf(s.svc.Now().Now, s.loc), start)
	if w := c.QueryParam("week"); w != "" {
		week, err := booking.ParseReportWeek(w, start)
		if err != nil {
			return s.refuseFilmReport(c, err, w, first)
		}
		first = week
	}
	asCSV, err := reportAsCSV(c)
	if err != nil {
		return s.refuseFilmReport(c, err, first.Format(booking.DateLayout), first)
	}
	r, err := s.svc.FilmReport(c.Request().Context(), first, start, s.loc)
	if err != nil {
		return err
	}
	if asCSV {
		return writeFilmReportCSV(startCSV(c, "films-"+first.Format(booking.DateLayout)), r)
	}
	return s.render(c, http.StatusOK, pages.AdminFilmReport(s.filmReportModel(c, r)))
}

// refuseFilmReport answers a week or format the film report refused
// (EINVALID) with 422 on the report's own page rather than the error
// page, so that the admin has a way on: the message, the picker at the
// week that week names (the week of a date that is not its first day),
// or at this week when it names none, a link to that week's report, and
// one back to this week's.
func (s *Server) refuseFilmReport(c echo.Context, err error, week string, this time.Time) error {
	if booking.ErrorCode(err) != booking.EINVALID {
		return err
	}
	first := this
	var links []model.ReportLink
	if day, perr := time.Parse(booking.DateLayout, week); perr == nil {
		first = booking.WeekStart(day, s.opts.ReportWeekStart)
		links = append(links, model.ReportLink{URL: filmReportURL(first, ""), Rel: "week",
			Label: "Show the week from " + first.Format(booking.DateLayout)})
	}
	links = append(links, model.ReportLink{URL: filmReportPath, Label: "Back to this week's report", Rel: "back"})
	m := s.filmReportModel(c, booking.FilmReport{Week: first, WeekStart: s.opts.ReportWeekStart})
	m.CSVURL = ""
	m.Refused = &model.ReportRefusal{Message: booking.ErrorMessage(err), Links: links}
	return s.render(c, http.StatusUnprocessableEntity, pages.AdminFilmReport(m))
}

// reportAsCSV reads a report's format: none for the page, csv for the
// CSV; anything else is 422.
func reportAsCSV(c echo.Context) (bool, error) {
	switch format := c.QueryParam("format"); format {
	case "":
		return false, nil
	case "csv":
		return true, nil
	default:
		return false, booking.Errorf(booking.EINVALID, "The format %q is not one this report has: leave it out, or ask for csv.", booking.Truncate(format, 20))
	}
}

func filmReportURL(week time.Time, format string) string {
	q := url.Values{"week": {week.Format(booking.DateLayout)}}
	if format != "" {
		q.Set("format", format)
	}
	return filmReportPath + "?" + q.Encode()
}

func (s *Server) filmReportModel(c echo.Context, r booking.FilmReport) model.FilmReport {
	last := r.Week.AddDate(0, 0, 6)
	m := model.FilmReport{
		AdminPage: s.adminPage(c, "Film report"),
		Week:      r.Week.Format(booking.DateLayout),
		WeekLabel: r.Week.Format("Mon 2 Jan") + " – " + last.Format("Mon 2 Jan 2006"),
		WeekStart: r.WeekStart.String(),
		PrevURL:   filmReportURL(r.Week.AddDate(0, 0, -7), ""),
		NextURL:   filmReportURL(r.Week.AddDate(0, 0, 7), ""),
		CSVURL:    filmReportURL(r.Week, "csv"),
	}
	for _, f := range r.Films {
		terms := "none (rent 0)"
		if f.Rent != "" {
			terms = strings.ReplaceAll(f.Rent, ",", " %, ") + " % of net per week of the run"
		}
		mf := model.FilmReportFilm{MovieID: f.MovieID, Title: f.Title, TheatreID: f.TheatreID, Theatre: f.Theatre, Terms: terms}
		for _, d := range f.Days {
			mf.Rows = append(mf.Rows, model.FilmReportRow{
				Day: d.Date.Format(booking.DateLayout), Label: d.Date.Format("Mon 2 Jan"),
				Note:  "week " + strconv.Itoa(d.Week) + " of the run, rent " + strconv.Itoa(d.Percent) + " %",
				Cells: filmCells(d.FilmFigures, f.Currency),
			})
		}
		for _, t := range []struct {
			day, label string
			fig        booking.FilmFigures
		}{{"week", "This week", f.Week}, {"previous", "Previous week", f.Previous}, {"to-date", "To date", f.ToDate}} {
			mf.Rows = append(mf.Rows, model.FilmReportRow{Day: t.day, Label: t.label, Total: true, Cells: filmCells(t.fig, f.Currency)})
		}
		m.Films = append(m.Films, mf)
	}
	return m
}

// filmCells are f's columns (model.FilmReportColumns) in order.
func filmCells(f booking.FilmFigures, currency string) []model.FilmReportCell {
	count := func(col string, n int) model.FilmReportCell {
		return model.FilmReportCell{Col: col, Value: int64(n), Text: strconv.Itoa(n)}
	}
	money := func(col string, m booking.Money) model.FilmReportCell {
		return model.FilmReportCell{Col: col, Value: int64(m), Text: m.Format(currency)}
	}
	return []model.FilmReportCell{
		count("shows", f.Shows), count("admissions", f.Admissions), count("comps", f.Comps),
		money("gross", f.Gross), money("tax", f.Tax), money("net", f.Net), money("rent", f.Rent),
	}
}

var filmCSVHeader = []string{"film_id", "film", "theatre_id", "theatre", "day", "shows", "admissions", "comps",
	"gross", "tax", "net", "rent", "currency", "week_of_run", "rent_percent"}

// writeFilmReportCSV writes one row per film × theatre × day of r, money
// in major units with its currency (SPEC §17), every cell through csvCell.
func writeFilmReportCSV(w interface{ Write([]byte) (int, error) }, r booking.FilmReport) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(filmCSVHeader); err != nil {
		return err
	}
	for _, f := range r.Films {
		for _, d := range f.Days {
			row := []string{f.MovieID, f.Title, f.TheatreID, f.Theatre, d.Date.Format(booking.DateLayout),
				strconv.Itoa(d.Shows), strconv.Itoa(d.Admissions), strconv.Itoa(d.Comps),
				majorUnits(d.Gross, f.Currency), majorUnits(d.Tax, f.Currency), majorUnits(d.Net, f.Currency), majorUnits(d.Rent, f.Currency),
				f.Currency, strconv.Itoa(d.Week), strconv.Itoa(d.Percent)}
			for i := range row {
				row[i] = csvCell(row[i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
