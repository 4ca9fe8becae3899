package web

import (
	"strconv"
	"sync"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// The present*.go files turn domain values into view models, one file per
// view (present_seatmap.go, present_checkout.go, present_booking.go,
// present_home.go; admin_present.go for the admin pages): every decision
// about how a seat, a price or a time is shown to a person is made there,
// once. This file holds what several views share: a show, its times, and
// the times the page's scripts compare.

func showURL(showID string) string  { return "/shows/" + showID }
func seatsURL(showID string) string { return "/shows/" + showID + "/seats" }
func holdsURL(showID string) string { return "/shows/" + showID + "/holds" }
func holdURL(holdID string) string  { return "/holds/" + holdID }

// showModelIn is the show as the head of its pages names it, in loc's
// language: its weekday and month names (loc.Date) and its runtime's
// units; the catalog's names (film, theatre, screen) as entered, and
// StartsAt (RFC 3339) the same in every language.
func (s *Server) showModelIn(loc *i18n.Localizer, sh booking.Show) model.Show {
	t, zone := s.showClock(sh)
	return model.Show{
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID),
		Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
		Runtime: runtimeIn(loc, sh.Movie.RuntimeMin),
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		Date: loc.Date(t, "Mon 2 Jan"), Time: t.Format("15:04"), StartsAt: sh.StartsAt.Format(time.RFC3339),
		State: showState(sh),
	}
}

// showModel is showModelIn in English: for the admin's pages, and callers
// whose page is not translated yet (a translated page passes its
// localizer(c) to showModelIn).
func (s *Server) showModel(sh booking.Show) model.Show {
	return s.showModelIn(i18n.For(i18n.English), sh)
}

// adminShowModel is showModel for the admin pages, which name the zone
// of every time (SPEC §10): a chain's staff read shows of several zones.
func (s *Server) adminShowModel(sh booking.Show) model.Show {
	m := s.showModel(sh)
	m.Zone, _ = sh.StartsAt.In(s.showLocation(sh)).Zone()
	return m
}

// showLocation is the zone a show's times are given in: its theatre's,
// or the server's (TZ) for a show whose theatre has none.
func (s *Server) showLocation(sh booking.Show) *time.Location {
	if loc, err := s.zones.load(sh.Theatre.TimeZone); err == nil {
		return loc
	}
	return s.loc
}

// showClock is the show's start in its theatre's zone, with the zone's
// name when it is not the server's (TZ), so that the page says whose time
// it is.
func (s *Server) showClock(sh booking.Show) (time.Time, string) {
	t := sh.StartsAt.In(s.showLocation(sh))
	name, _ := t.Zone()
	if def, _ := sh.StartsAt.In(s.loc).Zone(); name == def {
		name = ""
	}
	return t, name
}

// showState is data-show-state.
func showState(sh booking.Show) string {
	if sh.Cancelled() {
		return "cancelled"
	}
	return "scheduled"
}

// runtime is a film's length in hours and minutes, in English ("2h 28m").
func runtime(min int) string { return runtimeIn(i18n.For(i18n.English), min) }

// runtimeIn is a film's length in hours and minutes ("2h 28m"), in loc's
// units.
func runtimeIn(loc *i18n.Localizer, min int) string {
	w := runtimeWordsOf(loc)
	switch {
	case min <= 0:
		return ""
	case min < 60:
		return w.m.Fill(strconv.Itoa(min))
	case min%60 == 0:
		return w.h.Fill(strconv.Itoa(min / 60))
	default:
		return w.hm.Fill(strconv.Itoa(min/60), strconv.Itoa(min%60))
	}
}

// runtimeWords are a runtime's patterns in one language, compiled once:
// every page about a show writes one, and go-i18n's Localize costs a
// template execution.
type runtimeWords struct{ m, h, hm i18n.Pattern }

var runtimeWordsByLoc sync.Map // *i18n.Localizer -> *runtimeWords

func runtimeWordsOf(loc *i18n.Localizer) *runtimeWords {
	if w, ok := runtimeWordsByLoc.Load(loc); ok {
		return w.(*runtimeWords)
	}
	w, _ := runtimeWordsByLoc.LoadOrStore(loc, &runtimeWords{
		m:  loc.Pattern("seatmap.runtime_m", "M"),
		h:  loc.Pattern("seatmap.runtime_h", "H"),
		hm: loc.Pattern("seatmap.runtime_hm", "H", "M"),
	})
	return w.(*runtimeWords)
}

// serverNow formats the server's clock for the page's scripts, which keep
// the offset of the device's clock from it: a phone whose clock is minutes
// fast must not free held seats, or end a countdown, before the server does.
func serverNow(t time.Time) string { return t.UTC().Format(rfc3339Milli) }

// rfc3339Milli is RFC 3339 with milliseconds: every time the page's script
// compares (SPEC §14).
const rfc3339Milli = "2006-01-02T15:04:05.000Z07:00"

// expiryAttr is an expiry for data-expires-at: to the millisecond, rounded
// up, so that the page never frees a seat before the server does.
func expiryAttr(t time.Time) string {
	return t.UTC().Add(time.Millisecond - time.Nanosecond).Truncate(time.Millisecond).Format(rfc3339Milli)
}
