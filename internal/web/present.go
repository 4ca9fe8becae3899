package web

import (
	"fmt"
	"time"

	"boxoffice/internal/booking"
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

func (s *Server) showModel(sh booking.Show) model.Show {
	t, zone := s.showClock(sh)
	return model.Show{
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID),
		Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
		Runtime: runtime(sh.Movie.RuntimeMin),
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		Date: t.Format("Mon 2 Jan"), Time: t.Format("15:04"), StartsAt: sh.StartsAt.Format(time.RFC3339),
		State: showState(sh),
	}
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

func runtime(min int) string {
	switch {
	case min <= 0:
		return ""
	case min < 60:
		return fmt.Sprintf("%dm", min)
	case min%60 == 0:
		return fmt.Sprintf("%dh", min/60)
	default:
		return fmt.Sprintf("%dh %dm", min/60, min%60)
	}
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
