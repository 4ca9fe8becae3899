package model

// FilmReport is the film report for distributors (SPEC §17) of one report
// week.
type FilmReport struct {
	AdminPage
	Week      string // its first day, YYYY-MM-DD: the picker's value
	WeekLabel string // "Fri 27 Nov – Thu 3 Dec 2026"
	WeekStart string // "Friday": the weekday report weeks start on
	PrevURL   string
	NextURL   string
	CSVURL    string
	Films     []FilmReportFilm
	// Refused is the week asked for, refused (422), said on this page with
	// a way on: the picker, and links to the week it names and back.
	Refused *ReportRefusal
}

// ReportRefusal is a report's query that was not one (422), shown on the
// report's own page: why, and links to reports it can show.
type ReportRefusal struct {
	Message string
	Links   []ReportLink
}

// ReportLink is a link to a report; Rel names it for tests (data-rel).
type ReportLink struct {
	URL, Label, Rel string
}

// FilmReportFilm is one film at one theatre: a row per day of the week,
// then the week's totals, the previous week's and the totals to date.
type FilmReportFilm struct {
	MovieID, Title     string
	TheatreID, Theatre string
	Terms              string // its rental terms as people read them
	Rows               []FilmReportRow
}

// FilmReportRow is a day (Day YYYY-MM-DD) or a total (week, previous,
// to-date): data-day.
type FilmReportRow struct {
	Day   string
	Label string
	Total bool
	Note  string // the week of the run and its percent, for a day
	Cells []FilmReportCell
}

// FilmReportCell is one column (data-col) with its value (data-value: a
// count or minor units) and its text.
type FilmReportCell struct {
	Col   string
	Value int64
	Text  string
}

// FilmReportColumns are the columns' data-col names and headings.
var FilmReportColumns = []struct{ Col, Heading string }{
	{"shows", "Shows"}, {"admissions", "Admissions"}, {"comps", "Comps"},
	{"gross", "Gross"}, {"tax", "Tax"}, {"net", "Net"}, {"rent", "Film rent"},
}

// SalesReport is the sales report (SPEC §17) of a range of sale days.
type SalesReport struct {
	AdminPage
	From, To string // YYYY-MM-DD: the pickers' values
	Label    string // "Thu 26 Nov – Wed 2 Dec 2026"
	CSVURL   string
	Theatres []SalesReportTheatre
	Refused  *ReportRefusal // the range asked for, refused (422)
}

// SalesReportTheatre is one theatre's rows, by day.
type SalesReportTheatre struct {
	TheatreID, Theatre string
	Rows               []SalesReportRow
}

// SalesReportRow is one day, channel, method, currency and ticket type
// (data-ticket-type: a type's id, or all), with its cells in the order of
// SalesReportColumns.
type SalesReportRow struct {
	Day        string // YYYY-MM-DD
	DayLabel   string
	Channel    string // online, box_office, unsold
	ChannelLbl string
	Method     string
	Currency   string
	TicketType string
	TypeName   string
	All        bool // the row counting each booking once
	Cells      []FilmReportCell
}

// SalesReportColumns are the sales report's data-col names and headings.
var SalesReportColumns = []struct{ Col, Heading string }{
	{"bookings", "Bookings"}, {"seats", "Seats"}, {"gross", "Gross"}, {"refunds", "Refunds"},
}
