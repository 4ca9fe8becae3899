package web

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// stripDays is how many dates the listing's strip offers: today and the
// next six.
const stripDays = 7

// listingAsk is what a visitor asked of the listing: a city ("" for every
// city) and a date (zero for the first with shows on sale).
type listingAsk struct {
	City    string
	SetCity bool      // City came from ?city=: remember it when it has shows
	Date    time.Time // a civil date: midnight UTC
}

// homeModel is the listing of shows (the store's one read of what is on
// sale) for ask at m: the chosen city's shows, else every city's, on the
// date asked, else on the first date with a show on sale. A show's date is
// its start's date in its theatre's zone. The strip starts on today in
// the zones of those shows (the earliest, when they disagree) and runs
// stripDays; a date shown outside it is added to it. A time names its
// zone when the page lists shows of more than one zone (or of one not the
// server's). Its text is in loc's language.
func (s *Server) homeModel(loc *i18n.Localizer, all []booking.ShowSummary, m booking.Moment, ask listingAsk) model.Home {
	var h model.Home
	for _, sh := range all {
		if c := sh.Theatre.City; c != "" && !slices.Contains(h.Cities, c) {
			h.Cities = append(h.Cities, c)
		}
	}
	slices.Sort(h.Cities)
	if ask.City != "" {
		i := slices.IndexFunc(h.Cities, func(c string) bool { return strings.EqualFold(c, ask.City) })
		if i >= 0 {
			h.City = h.Cities[i]
		} else {
			h.Notice = loc.F("home.no_city", "City", ask.City)
		}
	}
	var shows []booking.ShowSummary
	zones := map[*time.Location]bool{}
	for _, sh := range all {
		if h.City == "" || sh.Theatre.City == h.City {
			shows = append(shows, sh)
			zones[s.showLocation(sh.Show)] = true
		}
	}
	if len(zones) == 0 {
		zones[s.loc] = true
	}

	// Dates as civil dates (midnight UTC) compare and step by days.
	var start time.Time
	for z := range zones {
		if d := civil(m.Now.In(z)); start.IsZero() || d.Before(start) {
			start = d
		}
	}
	byDate := map[time.Time][]booking.ShowSummary{}
	var first, firstOnSale time.Time
	for _, sh := range shows {
		d := civil(sh.StartsAt.In(s.showLocation(sh.Show)))
		byDate[d] = append(byDate[d], sh)
		if first.IsZero() || d.Before(first) {
			first = d
		}
		if sh.OnSale(m) && (firstOnSale.IsZero() || d.Before(firstOnSale)) {
			firstOnSale = d
		}
	}
	date := cmp.Or(firstOnSale, first, start)
	end := start.AddDate(0, 0, stripDays-1)
	if !ask.Date.IsZero() {
		if len(byDate[ask.Date]) > 0 || !ask.Date.Before(start) && !ask.Date.After(end) {
			date = ask.Date
		} else if h.Notice == "" {
			h.Notice = loc.F("home.no_date", "Date", loc.Date(ask.Date, "Mon 2 Jan 2006"), "Day", dayLabel(loc, date, m.Now, zones))
		}
	}

	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		h.Dates = append(h.Dates, dateTab(loc, d, date, m.Now, zones, len(byDate[d]) == 0))
	}
	if date.Before(start) || date.After(end) {
		h.Dates = append(h.Dates, dateTab(loc, date, date, m.Now, zones, false))
		slices.SortFunc(h.Dates, func(a, b model.DateTab) int { return strings.Compare(a.Date, b.Date) })
	}
	h.DateLabel = dayLabel(loc, date, m.Now, zones)

	listed := byDate[date]
	pageZones := map[*time.Location]bool{}
	for _, sh := range listed {
		pageZones[s.showLocation(sh.Show)] = true
	}
	movieIdx := map[string]int{}
	for _, sh := range listed {
		mi, ok := movieIdx[sh.Movie.ID]
		if !ok {
			mi = len(h.Movies)
			movieIdx[sh.Movie.ID] = mi
			h.Movies = append(h.Movies, model.Movie{
				ID: sh.Movie.ID, Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
				Runtime: homeRuntime(loc, sh.Movie.RuntimeMin),
			})
		}
		mv := &h.Movies[mi]
		ti := slices.IndexFunc(mv.Theatres, func(t model.TheatreShows) bool {
			return t.Theatre == sh.Theatre.Name && t.City == sh.Theatre.City
		})
		if ti < 0 {
			ti = len(mv.Theatres)
			mv.Theatres = append(mv.Theatres, model.TheatreShows{Theatre: sh.Theatre.Name, City: sh.Theatre.City})
		}
		mv.Theatres[ti].Shows = append(mv.Theatres[ti].Shows, s.showTime(loc, sh, m.Now, len(pageZones) > 1))
	}
	return h
}

// civil is t's date in t's zone, as midnight UTC.
func civil(t time.Time) time.Time {
	y, mo, d := t.Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
}

// dateTab is date's entry of the strip, current when it is the date shown.
func dateTab(loc *i18n.Localizer, date, shown, now time.Time, zones map[*time.Location]bool, empty bool) model.DateTab {
	day := loc.Date(date, "Mon")
	switch relativeDay(date, now, zones) {
	case 0:
		day = loc.T("home.today")
	case 1:
		day = loc.T("home.tomorrow")
	}
	short := loc.Date(date, "2 Jan")
	if date.Year() != now.Year() {
		short = loc.Date(date, "2 Jan 2006")
	}
	d := date.Format(time.DateOnly)
	return model.DateTab{Date: d, Day: day, Short: short, URL: "/?date=" + d, Current: date.Equal(shown), Empty: empty}
}

// showTime is one showtime of the listing at now; a show whose sales
// opening is still to come says when it opens, in its theatre's zone.
// Prices and dates are in loc's language.
func (s *Server) showTime(loc *i18n.Localizer, sh booking.ShowSummary, now time.Time, manyZones bool) model.ShowTime {
	prices := loc.Money(int64(sh.MinPrice), sh.Currency)
	if sh.MaxPrice != sh.MinPrice {
		prices += "–" + loc.Money(int64(sh.MaxPrice), sh.Currency)
	}
	t, zone := s.showClock(sh.Show)
	if manyZones {
		zone, _ = t.Zone()
	}
	var opensAt, opens string
	if sh.NotOpenYet(now) {
		opensAt = sh.SalesOpenAt.Format(time.RFC3339)
		opens = loc.Date(sh.SalesOpenAt.In(s.showLocation(sh.Show)), "Mon 2 Jan 15:04 MST")
	}
	return model.ShowTime{
		OpensAt: opensAt, Opens: opens,
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID), Time: t.Format("15:04"),
		Screen: sh.Screen, PriceRange: prices,
		Availability: availability(sh),
	}
}

// availability is a listed show's data-availability (SPEC §20): "sold-out"
// when no seat is left to sell online (none available, or no more than its
// online cut-off keeps for the box office), "few" when what is left online
// is at most 10 % of its seats, else "".
func availability(sh booking.ShowSummary) string {
	left := sh.SeatsLeft
	if sh.OnlineCutoff > 0 {
		left -= sh.OnlineCutoff
	}
	switch {
	case left <= 0:
		return "sold-out"
	case left*10 <= sh.SeatsTotal:
		return "few"
	}
	return ""
}

// dayLabel names date (a civil date) for people, in loc's language:
// "Today, Sat 14 Mar" when it is today at now in every zone of the page,
// "Tomorrow, …" when it is tomorrow in every one, else the date alone. A
// date that is today in Kolkata is still tomorrow in Berlin for some
// hours: it is then neither, rather than one date called both, or two
// dates called today.
func dayLabel(loc *i18n.Localizer, date, now time.Time, zones map[*time.Location]bool) string {
	switch relativeDay(date, now, zones) {
	case 0:
		return loc.F("home.today_on", "Date", loc.Date(date, "Mon 2 Jan"))
	case 1:
		return loc.F("home.tomorrow_on", "Date", loc.Date(date, "Mon 2 Jan"))
	}
	if date.Year() != now.Year() {
		return loc.Date(date, "Monday 2 Jan 2006")
	}
	return loc.Date(date, "Monday 2 Jan")
}

// homeRuntime is a film's running time on the listing, in loc's
// language: "2h 28m", "45m", "2h"; "" when unknown.
func homeRuntime(loc *i18n.Localizer, min int) string {
	switch {
	case min <= 0:
		return ""
	case min < 60:
		return loc.F("home.runtime_minutes", "Minutes", min)
	case min%60 == 0:
		return loc.F("home.runtime_hours", "Hours", min/60)
	default:
		return loc.F("home.runtime_hours_minutes", "Hours", min/60, "Minutes", min%60)
	}
}

// relativeDay is the number of days from today to date (a civil date) at
// now, when every zone agrees on it, else -1.
func relativeDay(date, now time.Time, zones map[*time.Location]bool) int {
	rel, first := -1, true
	for loc := range zones {
		r := int(date.Sub(civil(now.In(loc))).Hours() / 24)
		if !first && r != rel {
			return -1
		}
		rel, first = r, false
	}
	return rel
}
