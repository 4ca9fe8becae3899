package web

import (
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// What the sign-in, the door and the box office share to speak the
// page's language (SPEC §19): waits, and a show's date with its month and
// weekday names in the language.

// localWait is waitText in loc's language: "40 seconds", "12 minutes",
// "1 hour 30 minutes" (from 90 seconds on, rounded up to the minute).
func localWait(loc *i18n.Localizer, d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	if secs < 90 {
		return loc.N("login.seconds", secs)
	}
	mins := (secs + 59) / 60
	var parts []string
	if h := mins / 60; h > 0 {
		parts = append(parts, loc.N("login.hours", h))
	}
	if m := mins % 60; m > 0 {
		parts = append(parts, loc.N("login.minutes", m))
	}
	return strings.Join(parts, " ")
}

// localShow is showModel with its date in loc's language ("सोम 7 दिस॰").
func (s *Server) localShow(loc *i18n.Localizer, sh booking.Show) model.Show {
	m := s.showModel(sh)
	t, _ := s.showClock(sh)
	m.Date = loc.Date(t, "Mon 2 Jan")
	return m
}

// localAdminShow is adminShowModel with its date in loc's language.
func (s *Server) localAdminShow(loc *i18n.Localizer, sh booking.Show) model.Show {
	m := s.adminShowModel(sh)
	t, _ := s.showClock(sh)
	m.Date = loc.Date(t, "Mon 2 Jan")
	return m
}

// localSeats is bookingSeats with each price in loc's language.
func localSeats(loc *i18n.Localizer, b booking.Booking) []model.BookingSeat {
	seats := bookingSeats(b)
	for i, t := range booking.TicketsOf(b) {
		seats[i].Price = loc.Money(int64(t.Price), b.Currency)
	}
	return seats
}
