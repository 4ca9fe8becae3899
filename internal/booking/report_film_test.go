package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestSumTickets(t *testing.T) {
	got := booking.SumTickets([]booking.SeatTicket{
		{Price: 250_00, TaxRate: 1800}, {Price: 0, TaxRate: 1800}, {Price: 125_00, TaxRate: 1200},
	})
	want := booking.TicketSums{Admissions: 2, Comps: 1, Gross: 375_00, Tax: 38_14 + 13_39} // 12500 × 12/112 = 1339.3
	if got != want {
		t.Errorf("SumTickets = %+v; want %+v", got, want)
	}
}

// TestBuildFilmReport: days by show date in each theatre's zone, shows not
// cancelled, rent by the week of the run from the first show not
// cancelled, totals summing the days, films without a show in the week
// left out.
func TestBuildFilmReport(t *testing.T) {
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	at := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, kolkata) }
	show := func(id, movie string, start time.Time, cancelled bool, sums booking.TicketSums) booking.ShowSales {
		return booking.ShowSales{ShowID: id, MovieID: movie, Title: movie, Rent: "50,40", TheatreID: "t1", Theatre: "Regal",
			TimeZone: "Asia/Kolkata", Currency: "INR", StartsAt: start, Cancelled: cancelled, Sums: sums}
	}
	sold := func(adm, comps int, gross booking.Money, tax booking.Money) booking.TicketSums {
		return booking.TicketSums{Admissions: adm, Comps: comps, Gross: gross, Tax: tax}
	}
	shows := []booking.ShowSales{
		show("c0", "film", at(2026, 11, 19, 19, 0), true, booking.TicketSums{}),    // cancelled before the run: not its start
		show("s0", "film", at(2026, 11, 26, 23, 30), false, sold(2, 0, 200_00, 0)), // Thursday: week 1, the previous week
		show("s1", "film", at(2026, 11, 27, 10, 0), false, sold(1, 1, 101, 0)),     // Friday: week 2 (40 %)
		show("s2", "film", at(2026, 11, 27, 19, 0), false, sold(3, 0, 300_00, 30)), // the same day
		show("s3", "film", at(2026, 12, 3, 23, 59), false, booking.TicketSums{}),   // Thursday, unsold: a show
		show("s4", "film", at(2026, 12, 1, 19, 0), true, booking.TicketSums{}),     // cancelled: no show
		show("x0", "gone", at(2026, 11, 20, 19, 0), false, sold(1, 0, 100_00, 0)),  // no show this week: not reported
		show("x1", "gone", at(2026, 11, 29, 19, 0), true, booking.TicketSums{}),
		show("late", "film", at(2026, 12, 4, 0, 0), false, sold(9, 0, 900_00, 0)), // after the week: read but not counted
	}
	r := booking.BuildFilmReport(date("2026-11-27"), time.Friday, shows, time.UTC)
	if len(r.Films) != 1 || r.Films[0].MovieID != "film" {
		t.Fatalf("films %+v; want film alone", r.Films)
	}
	f := r.Films[0]
	fig := func(shows, adm, comps int, gross, tax, rent booking.Money) booking.FilmFigures {
		return booking.FilmFigures{Shows: shows, Admissions: adm, Comps: comps, Gross: gross, Tax: tax, Net: gross - tax, Rent: rent}
	}
	friday := fig(2, 4, 1, 301_01, 30, 120_28) // 40 % of 300.71 = 120.284
	want := []booking.FilmDay{
		{Date: date("2026-11-27"), FilmFigures: friday, Week: 2, Percent: 40},
		{Date: date("2026-11-28"), Week: 2, Percent: 40},
		{Date: date("2026-11-29"), Week: 2, Percent: 40},
		{Date: date("2026-11-30"), Week: 2, Percent: 40},
		{Date: date("2026-12-01"), Week: 2, Percent: 40},
		{Date: date("2026-12-02"), Week: 2, Percent: 40},
		{Date: date("2026-12-03"), FilmFigures: fig(1, 0, 0, 0, 0, 0), Week: 2, Percent: 40},
	}
	if diff := cmp.Diff(want, f.Days); diff != "" {
		t.Errorf("days (-want +got):\n%s", diff)
	}
	week := friday.Add(fig(1, 0, 0, 0, 0, 0))
	previous := fig(1, 2, 0, 200_00, 0, 100_00)
	if f.Week != week || f.Previous != previous || f.ToDate != week.Add(previous) {
		t.Errorf("week %+v, previous %+v, to date %+v; want %+v, %+v and their sum", f.Week, f.Previous, f.ToDate, week, previous)
	}
	if !f.FirstDay.Equal(date("2026-11-26")) {
		t.Errorf("first day %v; want 2026-11-26, the first show not cancelled", f.FirstDay)
	}
}
