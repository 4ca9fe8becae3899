package web

import (
	"time"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// homeModel groups upcoming shows by movie (soonest first), then day, then
// theatre.
func (s *Server) homeModel(shows []booking.ShowSummary, now time.Time) model.Home {
	var m model.Home
	movieIdx := map[string]int{}
	today := now.In(s.loc)
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
		day := dayLabel(local, today.In(local.Location())) // today where the theatre is
		if len(mv.Days) == 0 || mv.Days[len(mv.Days)-1].Label != day {
			mv.Days = append(mv.Days, model.Day{Label: day})
		}
		d := &mv.Days[len(mv.Days)-1]
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
		d.Theatres[ti].Shows = append(d.Theatres[ti].Shows, s.showTime(sh, now))
	}
	return m
}

// showTime is one showtime of the listing at now; a show whose sales
// opening is still to come says when it opens, in its theatre's zone.
func (s *Server) showTime(sh booking.ShowSummary, now time.Time) model.ShowTime {
	prices := sh.MinPrice.Format(sh.Currency)
	if sh.MaxPrice != sh.MinPrice {
		prices += "–" + sh.MaxPrice.Format(sh.Currency)
	}
	t, zone := s.showClock(sh.Show)
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

func dayLabel(t, today time.Time) string {
	y1, m1, d1 := t.Date()
	y2, m2, d2 := today.Date()
	days := int(time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC).Sub(time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch days {
	case 0:
		return "Today, " + t.Format("Mon 2 Jan")
	case 1:
		return "Tomorrow, " + t.Format("Mon 2 Jan")
	default:
		return t.Format("Monday 2 Jan")
	}
}
