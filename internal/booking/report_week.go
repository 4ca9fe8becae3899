package booking

import "time"

// Report days and weeks (SPEC §17): a show's date is the date of its start
// in its theatre's zone, and a report week is seven such dates from the
// first, REPORT_WEEK_START (Friday, the cinema trade's week). A date is a
// time.Time at midnight UTC: a calendar day, the same in every zone, whose
// arithmetic (AddDate, Sub) knows no daylight saving.

// DateLayout is how a report's dates are written: YYYY-MM-DD.
const DateLayout = "2006-01-02"

// DayOf is the date of t in loc.
func DayOf(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// WeekStart is the first day of the report week day belongs to, weeks
// starting on start.
func WeekStart(day time.Time, start time.Weekday) time.Time {
	back := (int(day.Weekday()) - int(start) + 7) % 7
	return day.AddDate(0, 0, -back)
}

// WeekDays are the seven dates of the week from first.
func WeekDays(first time.Time) []time.Time {
	out := make([]time.Time, 7)
	for i := range out {
		out[i] = first.AddDate(0, 0, i)
	}
	return out
}

// ParseReportWeek reads a report week's first day, YYYY-MM-DD, weeks
// starting on start: a date that is not one is EINVALID naming the first
// day of its week (SPEC §17), so that the page can offer it.
func ParseReportWeek(s string, start time.Weekday) (time.Time, error) {
	day, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, Errorf(EINVALID, "The week %q must be a date, YYYY-MM-DD: the first day of a report week (a %s).", Truncate(s, 20), start)
	}
	if first := WeekStart(day, start); !first.Equal(day) {
		return time.Time{}, Errorf(EINVALID, "%s is a %s; report weeks start on a %s: the week of %s starts on %s.",
			s, day.Weekday(), start, s, first.Format(DateLayout))
	}
	return day, nil
}

// WeekOfRun is which week of its run at a theatre day is (SPEC §17): week
// 1 is the report week of first, the date of its first show there that
// was not cancelled; a day before it counts as week 1.
func WeekOfRun(first, day time.Time, start time.Weekday) int {
	weeks := int(WeekStart(day, start).Sub(WeekStart(first, start)).Hours()/24) / 7
	if weeks < 0 {
		return 1
	}
	return weeks + 1
}

// RentPercent is the percent of net a movie's rental terms take in week
// of its run: the week's own, the last for every later week, 0 without
// terms.
func RentPercent(terms []int, week int) int {
	switch {
	case len(terms) == 0:
		return 0
	case week < 1:
		return terms[0]
	case week > len(terms):
		return terms[len(terms)-1]
	}
	return terms[week-1]
}

// reportSlack bounds the instants of a range of dates in any zone: no zone
// is more than 14 hours from UTC.
const reportSlack = 14 * time.Hour

// InstantsOf is a range of instants that holds every instant whose date
// in some zone is from first to last (inclusive): what a store reads
// before the dates are worked out in each theatre's zone.
func InstantsOf(first, last time.Time) (from, to time.Time) {
	return first.Add(-reportSlack), last.AddDate(0, 0, 1).Add(reportSlack)
}

// zonesOr is a report's zone by name: each theatre's IANA zone, loaded
// once a report, or fallback for a theatre without one (or one the
// system does not know).
func zonesOr(fallback *time.Location) func(name string) *time.Location {
	zones := map[string]*time.Location{}
	return func(name string) *time.Location {
		if name == "" {
			return fallback
		}
		if l, ok := zones[name]; ok {
			return l
		}
		l, err := time.LoadLocation(name)
		if err != nil {
			l = fallback
		}
		zones[name] = l
		return l
	}
}
