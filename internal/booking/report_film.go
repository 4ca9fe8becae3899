package booking

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// TicketSums are seats as the reports count them (SPEC §17): admissions
// (seats sold for more than 0), comps (seats sold for 0), and their gross
// and included tax, each a sum of per-seat figures so that totals add up
// exactly.
type TicketSums struct {
	Admissions, Comps int
	Gross, Tax        Money
}

// Add is s and o added up.
func (s TicketSums) Add(o TicketSums) TicketSums {
	return TicketSums{Admissions: s.Admissions + o.Admissions, Comps: s.Comps + o.Comps, Gross: s.Gross + o.Gross, Tax: s.Tax + o.Tax}
}

// SumTickets counts tickets as the reports do.
func SumTickets(tickets []SeatTicket) TicketSums {
	var s TicketSums
	for _, t := range tickets {
		if t.Price == 0 {
			s.Comps++
		} else {
			s.Admissions++
		}
		s.Gross += t.Price
		s.Tax += t.Tax()
	}
	return s
}

// Sums are b's seats as the reports count them (TicketsOf): what a store
// keeps with the booking for the film report's read.
func (b Booking) Sums() TicketSums { return SumTickets(TicketsOf(b)) }

// Counts reports whether the film report counts b (SPEC §17): confirmed,
// neither refunded nor due a refund.
func (b Booking) Counts() bool { return b.State == BookingConfirmed }

// ShowSales is one show as the film report reads it (FilmReportReader):
// its film, theatre and start, whether it was cancelled, and the sums of
// its bookings the report counts (Booking.Counts, Booking.Sums).
type ShowSales struct {
	ShowID    string
	MovieID   string
	Title     string
	Rent      string // the movie's rental terms now, as FormatRent writes them
	TheatreID string
	Theatre   string // its name
	TimeZone  string // the theatre's zone ("" when unknown: the caller's)
	Currency  string
	StartsAt  time.Time
	Cancelled bool
	Sums      TicketSums
}

// FilmReportReader reads the film report's shows; every Store does.
type FilmReportReader interface {
	// FilmShows lists, for every movie and theatre with a show not
	// cancelled starting in [from, to), each show of that movie at that
	// theatre starting before to, cancelled or not, with the sums of its
	// bookings in state confirmed (the report's dates and weeks are worked
	// out by BuildFilmReport, in each theatre's zone).
	FilmShows(ctx context.Context, from, to time.Time) ([]ShowSales, error)
}

// FilmFigures are the film report's columns (SPEC §17, §20).
type FilmFigures struct {
	Shows, Admissions, Comps int
	Gross, Tax, Net, Rent    Money
}

// Add is f and o added up.
func (f FilmFigures) Add(o FilmFigures) FilmFigures {
	return FilmFigures{
		Shows: f.Shows + o.Shows, Admissions: f.Admissions + o.Admissions, Comps: f.Comps + o.Comps,
		Gross: f.Gross + o.Gross, Tax: f.Tax + o.Tax, Net: f.Net + o.Net, Rent: f.Rent + o.Rent,
	}
}

// FilmDay is one day of a film at a theatre.
type FilmDay struct {
	Date time.Time // a date (DayOf)
	FilmFigures
	// Week is the week of the film's run at the theatre the day is in
	// (WeekOfRun), and Percent the rent's percent of net for it.
	Week, Percent int
}

// FilmAtTheatre is one film at one theatre in the film report: each day of
// the report week, the week's totals, the previous week's and the film's
// totals there to date (through the end of the report week).
type FilmAtTheatre struct {
	MovieID, Title     string
	TheatreID, Theatre string
	Currency           string
	Rent               string
	// FirstDay is the date of its first show there that was not
	// cancelled: the first day of week 1 of its run's report week.
	FirstDay               time.Time
	Days                   []FilmDay // the seven days of the report week
	Week, Previous, ToDate FilmFigures
}

// FilmReport is the film report for distributors (SPEC §17) of the report
// week from Week.
type FilmReport struct {
	Week      time.Time // its first day
	WeekStart time.Weekday
	Films     []FilmAtTheatre // by title, then theatre name
}

// BuildFilmReport is the film report of the week from first (weeks
// starting on start) out of shows as FilmShows reads them for that week:
// each show's date is its start's date in its theatre's zone (loc for a
// show without one), and a show dated after the week is left out. A film
// is reported at a theatre that has a show of it not cancelled in the
// week; a day's rent is its net × the percent of its week of the run
// (WeekOfRun from the first show there not cancelled, RentPercent),
// rounded half up, and every total sums the days.
func BuildFilmReport(first time.Time, start time.Weekday, shows []ShowSales, loc *time.Location) FilmReport {
	last := first.AddDate(0, 0, 6)
	prev := first.AddDate(0, 0, -7)
	type key struct{ movie, theatre string }
	type group struct {
		f    FilmAtTheatre
		days map[time.Time]*FilmDay
		any  bool // a show not cancelled in the report week
	}
	groups := map[key]*group{}
	var order []key
	zoneOf := zonesOr(loc)
	for _, s := range shows {
		day := DayOf(s.StartsAt, zoneOf(s.TimeZone))
		if day.After(last) {
			continue
		}
		k := key{s.MovieID, s.TheatreID}
		g, ok := groups[k]
		if !ok {
			g = &group{f: FilmAtTheatre{MovieID: s.MovieID, Title: s.Title, TheatreID: s.TheatreID, Theatre: s.Theatre, Currency: s.Currency, Rent: s.Rent}, days: map[time.Time]*FilmDay{}}
			groups[k] = g
			order = append(order, k)
		}
		if s.Cancelled {
			// Its bookings were all made due a refund; it is no show.
			continue
		}
		if g.f.FirstDay.IsZero() || day.Before(g.f.FirstDay) {
			g.f.FirstDay = day
		}
		if !day.Before(first) {
			g.any = true
		}
		d, ok := g.days[day]
		if !ok {
			d = &FilmDay{Date: day}
			g.days[day] = d
		}
		d.Shows++
		d.Admissions += s.Sums.Admissions
		d.Comps += s.Sums.Comps
		d.Gross += s.Sums.Gross
		d.Tax += s.Sums.Tax
	}
	out := FilmReport{Week: first, WeekStart: start}
	for _, k := range order {
		g := groups[k]
		if !g.any {
			continue
		}
		terms, _ := ParseRent(g.f.Rent)
		f := g.f
		for _, d := range g.days {
			d.Net = d.Gross - d.Tax
			d.Week = WeekOfRun(f.FirstDay, d.Date, start)
			d.Percent = RentPercent(terms, d.Week)
			d.Rent = Rent(d.Net, d.Percent)
			f.ToDate = f.ToDate.Add(d.FilmFigures)
			switch {
			case !d.Date.Before(first):
				f.Week = f.Week.Add(d.FilmFigures)
			case !d.Date.Before(prev):
				f.Previous = f.Previous.Add(d.FilmFigures)
			}
		}
		for _, date := range WeekDays(first) {
			if d, ok := g.days[date]; ok {
				f.Days = append(f.Days, *d)
				continue
			}
			week := WeekOfRun(f.FirstDay, date, start)
			f.Days = append(f.Days, FilmDay{Date: date, Week: week, Percent: RentPercent(terms, week)})
		}
		out.Films = append(out.Films, f)
	}
	slices.SortFunc(out.Films, func(a, b FilmAtTheatre) int {
		return cmp.Or(cmp.Compare(a.Title, b.Title), cmp.Compare(a.MovieID, b.MovieID), cmp.Compare(a.Theatre, b.Theatre), cmp.Compare(a.TheatreID, b.TheatreID))
	})
	return out
}

// FilmReport reads and builds the film report of the week from first
// (weeks starting on start; ParseReportWeek reads it), shows without a
// zone dated in loc.
func (s *Service) FilmReport(ctx context.Context, first time.Time, start time.Weekday, loc *time.Location) (FilmReport, error) {
	from, to := InstantsOf(first, first.AddDate(0, 0, 6))
	shows, err := s.store.FilmShows(ctx, from, to)
	if err != nil {
		return FilmReport{}, err
	}
	return BuildFilmReport(first, start, shows, loc), nil
}
