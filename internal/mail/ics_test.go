package mail

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/i18n"
)

// unfold parses an iCalendar object into its content lines (RFC 5545
// §3.1), failing the test on a line not ended by CRLF or longer than 75
// octets.
func unfold(t *testing.T, ics string) []string {
	t.Helper()
	if !strings.HasSuffix(ics, "\r\n") {
		t.Fatalf("does not end with CRLF: %q", ics)
	}
	var lines []string
	for i, l := range strings.Split(strings.TrimSuffix(ics, "\r\n"), "\r\n") {
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Errorf("line %d is %d octets, want at most 75: %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d splits a UTF-8 character: %q", i+1, l)
		}
		if rest, ok := strings.CutPrefix(l, " "); ok && len(lines) > 0 {
			lines[len(lines)-1] += rest
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

// props are the content lines of the first VEVENT, by property name.
func props(lines []string) map[string]string {
	p := map[string]string{}
	in := false
	for _, l := range lines {
		switch l {
		case "BEGIN:VEVENT":
			in = true
			continue
		case "END:VEVENT":
			return p
		}
		if name, value, ok := strings.Cut(l, ":"); ok && in {
			p[name] = value
		}
	}
	return p
}

func TestCalendar(t *testing.T) {
	m := confirmed()
	m.Film = "Kill Bill; Vol. 1, the \\director's cut\\"
	m.Seats = []string{"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12"}
	now := time.Date(2026, 11, 20, 9, 15, 0, 0, time.FixedZone("IST", 19800))
	lines := unfold(t, string(calendar(i18n.For(i18n.English), m, "tickets.example.com", now)))

	wantHead := []string{"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//boxoffice//tickets//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "BEGIN:VEVENT"}
	if diff := cmp.Diff(wantHead, lines[:len(wantHead)]); diff != "" {
		t.Errorf("head (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"END:VEVENT", "END:VCALENDAR"}, lines[len(lines)-2:]); diff != "" {
		t.Errorf("tail (-want +got):\n%s", diff)
	}
	if n := strings.Count(strings.Join(lines, "\n"), "BEGIN:VEVENT"); n != 1 {
		t.Errorf("%d VEVENTs, want 1", n)
	}
	got := props(lines)
	want := map[string]string{
		"UID":         "bk_123@tickets.example.com",
		"DTSTAMP":     "20261120T034500Z",
		"DTSTART":     "20261201T123000Z",
		"DTEND":       "20261201T145200Z", // 142 minutes
		"SUMMARY":     `Kill Bill\; Vol. 1\, the \\director's cut\\`,
		"LOCATION":    `Screen 2\, Bioscope\, Pune`,
		"DESCRIPTION": `Seats: A1\, A2\, A3\, A4\, A5\, A6\, A7\, A8\, A9\, A10\, A11\, A12\nTicket code: 7K3M-Q9PA\nShow the code at the door.\nYour booking: ` + testLink,
		"URL":         testLink,
		"STATUS":      "CONFIRMED",
		"TRANSP":      "OPAQUE",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VEVENT (-want +got):\n%s", diff)
	}
}

func TestCalendarDefaultRuntime(t *testing.T) {
	m := confirmed()
	m.RuntimeMin = 0
	got := props(unfold(t, string(calendar(i18n.For(i18n.English), m, "h", time.Now()))))
	if got["DTEND"] != "20261201T153000Z" {
		t.Errorf("DTEND = %q, want three hours after DTSTART 20261201T123000Z", got["DTEND"])
	}
}

func TestComposeICS(t *testing.T) {
	c, err := Compose(confirmed())
	if err != nil {
		t.Fatal(err)
	}
	got := props(unfold(t, string(c.ICS)))
	if got["UID"] != "bk_123@tickets.example.com" || got["DTSTART"] != "20261201T123000Z" {
		t.Errorf("UID, DTSTART = %q, %q", got["UID"], got["DTSTART"])
	}
	if !regexp.MustCompile(`^\d{8}T\d{6}Z$`).MatchString(got["DTSTAMP"]) {
		t.Errorf("DTSTAMP = %q, want a UTC date-time", got["DTSTAMP"])
	}
}

func TestFold(t *testing.T) {
	tests := []struct {
		name, line string
	}{
		{"short", "SUMMARY:Hi"},
		{"exactly 75", "SUMMARY:" + strings.Repeat("x", 67)},
		{"76", "SUMMARY:" + strings.Repeat("x", 68)},
		{"long ASCII", "DESCRIPTION:" + strings.Repeat("abcdefghij", 30)},
		{"multi-byte across the limit", "SUMMARY:" + strings.Repeat("₹é字", 40)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unfold(t, fold(tt.line))
			if diff := cmp.Diff([]string{tt.line}, got); diff != "" {
				t.Errorf("unfolded (-want +got):\n%s", diff)
			}
		})
	}
}

func TestICSText(t *testing.T) {
	got := icsText("a,b;c\\d\ne\rf\x00g\th")
	if want := `a\,b\;c\\d\nefg` + "\th"; got != want {
		t.Errorf("icsText = %q, want %q", got, want)
	}
}
