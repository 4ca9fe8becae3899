package booking_test

import (
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

func date(s string) time.Time {
	d, err := time.Parse(booking.DateLayout, s)
	if err != nil {
		panic(err)
	}
	return d
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestReportDays: a show's date is its start's date in its theatre's zone,
// and its week the report week holding that date (SPEC §17).
func TestReportDays(t *testing.T) {
	kolkata, newYork, london := zone(t, "Asia/Kolkata"), zone(t, "America/New_York"), zone(t, "Europe/London")
	tests := []struct {
		name  string
		start time.Time
		loc   *time.Location
		week  time.Weekday
		day   string
		first string
	}{
		// 2026-12-03 is a Thursday: with weeks from Friday it ends the
		// week of Friday 2026-11-27.
		{"23:30 on Thursday is Thursday's", time.Date(2026, 12, 3, 23, 30, 0, 0, kolkata), kolkata, time.Friday, "2026-12-03", "2026-11-27"},
		{"which is Friday in UTC", time.Date(2026, 12, 3, 23, 30, 0, 0, kolkata).UTC(), kolkata, time.Friday, "2026-12-03", "2026-11-27"},
		{"00:10 on Friday starts a week", time.Date(2026, 12, 4, 0, 10, 0, 0, kolkata), kolkata, time.Friday, "2026-12-04", "2026-12-04"},
		{"Thursday evening in New York is Friday in UTC", time.Date(2026, 12, 4, 3, 30, 0, 0, time.UTC), newYork, time.Friday, "2026-12-03", "2026-11-27"},
		// New York springs forward on Sunday 2026-03-08: a day of 23 hours.
		{"23:30 on the Saturday before the clocks go forward", time.Date(2026, 3, 7, 23, 30, 0, 0, newYork), newYork, time.Friday, "2026-03-07", "2026-03-06"},
		{"23:30 on the short Sunday", time.Date(2026, 3, 8, 23, 30, 0, 0, newYork), newYork, time.Friday, "2026-03-08", "2026-03-06"},
		{"23:30 on Thursday after the change", time.Date(2026, 3, 12, 23, 30, 0, 0, newYork), newYork, time.Friday, "2026-03-12", "2026-03-06"},
		{"Friday after the change", time.Date(2026, 3, 13, 0, 30, 0, 0, newYork), newYork, time.Friday, "2026-03-13", "2026-03-13"},
		// London falls back on Sunday 2026-10-25: 01:30 happens twice.
		{"the second 01:30 of the long Sunday", time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), london, time.Monday, "2026-10-25", "2026-10-19"},
		{"weeks from Monday", time.Date(2026, 12, 7, 9, 0, 0, 0, london), london, time.Monday, "2026-12-07", "2026-12-07"},
		{"Sunday ends a Monday week", time.Date(2026, 12, 6, 23, 59, 0, 0, london), london, time.Monday, "2026-12-06", "2026-11-30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			day := booking.DayOf(tt.start, tt.loc)
			if got := day.Format(booking.DateLayout); got != tt.day {
				t.Errorf("DayOf = %s; want %s", got, tt.day)
			}
			if got := booking.WeekStart(day, tt.week).Format(booking.DateLayout); got != tt.first {
				t.Errorf("WeekStart = %s; want %s", got, tt.first)
			}
			from, to := booking.InstantsOf(date(tt.first), date(tt.first).AddDate(0, 0, 6))
			if tt.start.Before(from) || !tt.start.Before(to) {
				t.Errorf("InstantsOf the week = [%v, %v): misses %v", from, to, tt.start)
			}
		})
	}
}

func TestParseReportWeek(t *testing.T) {
	tests := []struct {
		in      string
		start   time.Weekday
		want    string
		errWant string
	}{
		{"2026-11-27", time.Friday, "2026-11-27", ""},
		{"2026-11-30", time.Monday, "2026-11-30", ""},
		{"2026-12-02", time.Friday, "", "starts on 2026-11-27"},
		{"2026-12-03", time.Friday, "", "starts on 2026-11-27"},
		{"2026-11-27", time.Monday, "", "starts on 2026-11-23"},
		{"27/11/2026", time.Friday, "", "YYYY-MM-DD"},
		{"2026-02-30", time.Friday, "", "YYYY-MM-DD"},
	}
	for _, tt := range tests {
		got, err := booking.ParseReportWeek(tt.in, tt.start)
		if tt.errWant != "" {
			if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), tt.errWant) {
				t.Errorf("ParseReportWeek(%q, %s) = %v; want EINVALID saying %q", tt.in, tt.start, err, tt.errWant)
			}
			continue
		}
		if err != nil || got.Format(booking.DateLayout) != tt.want {
			t.Errorf("ParseReportWeek(%q, %s) = %v, %v; want %s", tt.in, tt.start, got, err, tt.want)
		}
	}
}

// TestRentWeeks: week 1 of a run is the report week of its first show, and
// the terms' last percent applies to every later week.
func TestRentWeeks(t *testing.T) {
	terms := []int{50, 45, 40}
	tests := []struct {
		name       string
		first, day string
		week       int
		percent    int
	}{
		{"the first show's day", "2026-11-28", "2026-11-28", 1, 50},
		{"the Thursday ending week 1", "2026-11-28", "2026-12-03", 1, 50},
		{"a first show on Thursday: its Friday is week 2", "2026-12-03", "2026-12-04", 2, 45},
		{"week 3", "2026-11-27", "2026-12-11", 3, 40},
		{"week 9 takes the last", "2026-11-27", "2027-01-22", 9, 40},
		{"a day before the first show", "2026-12-04", "2026-12-01", 1, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			week := booking.WeekOfRun(date(tt.first), date(tt.day), time.Friday)
			if week != tt.week {
				t.Errorf("WeekOfRun = %d; want %d", week, tt.week)
			}
			if got := booking.RentPercent(terms, week); got != tt.percent {
				t.Errorf("RentPercent = %d; want %d", got, tt.percent)
			}
		})
	}
	if got := booking.RentPercent(nil, 1); got != 0 {
		t.Errorf("RentPercent without terms = %d; want 0", got)
	}
}
