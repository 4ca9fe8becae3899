package mail

import (
	"strings"
	"time"
	"unicode/utf8"

	"boxoffice/internal/i18n"
)

// icsTime is an iCalendar UTC date-time (RFC 5545 §3.3.5, form #2): no
// VTIMEZONE needed, and every calendar shows it in its own zone.
const icsTime = "20060102T150405Z"

// defaultRuntime is how long the event lasts when the film's runtime is
// unknown: long enough for most films and their trailers.
const defaultRuntime = 3 * time.Hour

// calendar is m's show as an iCalendar object with one VEVENT (RFC 5545),
// published rather than sent as an invitation, so calendars add it without
// asking anyone to accept. The UID is the booking's, so a second copy (the
// booking link sent again) updates the first instead of adding another.
func calendar(loc *i18n.Localizer, m Message, host string, now time.Time) []byte {
	start := m.StartsAt.UTC()
	end := start.Add(defaultRuntime)
	if m.RuntimeMin > 0 {
		end = start.Add(time.Duration(m.RuntimeMin) * time.Minute)
	}
	var where []string
	for _, s := range []string{m.Screen, m.Theatre, m.City} {
		if s = oneLine(s); s != "" {
			where = append(where, s)
		}
	}
	desc := []string{
		loc.F("mail.ics_seats", "Seats", oneLine(strings.Join(m.Seats, ", "))),
		loc.F("mail.ics_code", "Code", oneLine(m.TicketCode)),
		loc.T("mail.ics_door"),
		loc.F("mail.ics_booking", "URL", m.BookingURL),
	}

	var b strings.Builder
	line := func(name, value string) {
		b.WriteString(fold(name + ":" + value))
	}
	line("BEGIN", "VCALENDAR")
	line("VERSION", "2.0")
	line("PRODID", "-//boxoffice//tickets//EN")
	line("CALSCALE", "GREGORIAN")
	line("METHOD", "PUBLISH")
	line("BEGIN", "VEVENT")
	line("UID", icsText(oneLine(m.BookingID)+"@"+host))
	line("DTSTAMP", now.UTC().Format(icsTime))
	line("DTSTART", start.Format(icsTime))
	line("DTEND", end.Format(icsTime))
	line("SUMMARY", icsText(oneLine(m.Film)))
	line("LOCATION", icsText(strings.Join(where, ", ")))
	line("DESCRIPTION", icsText(strings.Join(desc, "\n")))
	line("URL", oneLine(m.BookingURL))
	line("STATUS", "CONFIRMED")
	line("TRANSP", "OPAQUE")
	line("END", "VEVENT")
	line("END", "VCALENDAR")
	return []byte(b.String())
}

// icsText escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon,
// comma and newline; other control characters are not allowed and go.
func icsText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < ' ' && r != '\t', r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fold ends a content line with CRLF, breaking it so that no line is
// longer than 75 octets (RFC 5545 §3.1), never inside a UTF-8 character;
// each continuation begins with a space.
func fold(line string) string {
	const limit = 75
	var b strings.Builder
	room := limit
	for len(line) > room {
		cut := room
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b.WriteString(line[:cut])
		b.WriteString("\r\n ")
		line = line[cut:]
		room = limit - 1 // the leading space counts
	}
	b.WriteString(line)
	b.WriteString("\r\n")
	return b.String()
}
