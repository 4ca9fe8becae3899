package web

import (
	"slices"
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// homeModel groups upcoming shows by movie (soonest first), then day (a
// show's date in its theatre's zone), then theatre. A time names its zone
// when the listing has shows of more than one zone (or of one not the
// server's).
func (s *Server) homeModel(shows []booking.ShowSummary, now time.Time) model.Home {
	var m model.Home
	movieIdx := map[string]int{}
	zones := map[*time.Location]bool{}
	for _, sh := range shows {
		zones[s.showLocation(sh.Show)] = true
	}
	for _, sh := range shows {
		mi, ok := movieIdx[sh.Movie.ID]
		if !ok {
			mi = len(m.Movies)
			movieIdx[sh.Movie.ID] = mi
			m.Movies = append(m.Movies, model.Movie{
				Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
				Runtime: runtime(sh.Movie.RuntimeMin),
			})
		}
		mv := &m.Movies[mi]
		local := sh.StartsAt.In(s.showLocation(sh.Show))
		date := local.Format(time.DateOnly)
		di := slices.IndexFunc(mv.Days, func(d model.Day) bool { return d.Date == date })
		if di < 0 {
			di = len(mv.Days)
			mv.Days = append(mv.Days, model.Day{Date: date, Label: dayLabel(local, now, zones)})
		}
		d := &mv.Days[di]
		ti := -1
		for i, t := range d.Theatres {
			if t.Theatre == sh.Theatre.Name && t.City == sh.Theatre.City {
				ti = i
			}
		}
		if ti < 0 {
			ti = len(d.Theatres)
			d.Theatres = append(d.Theatres, model.TheatreShows{Theatre: sh.Theatre.Name, City: sh.Theatre.City})
		}
		d.Theatres[ti].Shows = append(d.Theatres[ti].Shows, s.showTime(sh, now, len(zones) > 1))
	}
	for i := range m.Movies {
		// Shows come by their instant; in two zones a later date can
		// start first (00:30 in Kolkata is 20:00 the day before in Berlin).
		slices.SortStableFunc(m.Movies[i].Days, func(a, b model.Day) int { return strings.Compare(a.Date, b.Date) })
	}
	return m
}

// showTime is one showtime of the listing at now; a show whose sales
// opening is still to come says when it opens, in its theatre's zone.
func (s *Server) showTime(sh booking.ShowSummary, now time.Time, manyZones bool) model.ShowTime {
	prices := sh.MinPrice.Format(sh.Currency)
	if sh.MaxPrice != sh.MinPrice {
		prices += "–" + sh.MaxPrice.Format(sh.Currency)
	}
	t, zone := s.showClock(sh.Show)
	if manyZones {
		zone, _ = t.Zone()
	}
	var opensAt, opens string
	if sh.NotOpenYet(now) {
		opensAt = sh.SalesOpenAt.Format(time.RFC3339)
		opens = sh.SalesOpenAt.In(s.showLocation(sh.Show)).Format("Mon 2 Jan 15:04 MST")
	}
	return model.ShowTime{
		OpensAt: opensAt, Opens: opens,
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID), Time: t.Format("15:04"),
		Screen: sh.Screen, PriceRange: prices,
		SeatsLeft: sh.SeatsLeft, SeatsTotal: sh.SeatsTotal,
		SoldOut: sh.SeatsLeft == 0,
		FewLeft: sh.SeatsLeft > 0 && sh.SeatsLeft <= max(5, sh.SeatsTotal/10),
	}
}

// dayLabel names the day of t (a show's start in its theatre's zone):
// "Today, Sat 14 Mar" when its date is today at now in every zone of the
// listing, "Tomorrow, …" when it is tomorrow in every one, else the date
// alone. A date that is today in Kolkata is still tomorrow in Berlin for
// some hours: it is then neither, rather than one date called both, or
// two dates called today.
func dayLabel(t, now time.Time, zones map[*time.Location]bool) string {
	rel, first := -1, true
	for loc := range zones {
		r := daysBetween(now.In(loc), t)
		if !first && r != rel {
			rel = -1
			break
		}
		rel, first = r, false
	}
	switch rel {
	case 0:
		return "Today, " + t.Format("Mon 2 Jan")
	case 1:
		return "Tomorrow, " + t.Format("Mon 2 Jan")
	default:
		return t.Format("Monday 2 Jan")
	}
}

// daysBetween is the number of calendar days from a's date to b's, each
// read in its own zone.
func daysBetween(a, b time.Time) int {
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	return int(time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC).Sub(time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC)).Hours() / 24)
}
