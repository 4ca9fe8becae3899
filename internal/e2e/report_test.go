package e2e

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
	"boxoffice/internal/testkit"
)

// firstFilmShow is a show of the demo catalog (which the server seeds,
// naming every show alike in any process) at least two hours ahead, with
// seats D5 and D6, whose film and theatre come first in the film report of
// its week (films by title, then theatre name), so that a screenshot of
// the report's top shows it under the week picker.
func firstFilmShow(t *testing.T) catalog.ShowSeats {
	t.Helper()
	now := time.Now()
	demo := catalog.Demo(now)
	kolkata := time.FixedZone("IST", 5*3600+30*60)
	week := func(sh booking.Show) time.Time {
		return booking.WeekStart(booking.DayOf(sh.StartsAt, kolkata), time.Friday)
	}
	key := func(sh booking.Show) string { return sh.Movie.Title + "\x00" + sh.Theatre.Name }
	first := map[time.Time]string{}
	for _, s := range demo.Shows {
		if k, ok := first[week(s.Show)]; !ok || key(s.Show) < k {
			first[week(s.Show)] = key(s.Show)
		}
	}
	has := func(seats []booking.Seat, id string) bool {
		return slices.ContainsFunc(seats, func(s booking.Seat) bool { return s.ID == id })
	}
	for _, s := range demo.Shows {
		if s.Show.StartsAt.After(now.Add(2*time.Hour)) && key(s.Show) == first[week(s.Show)] && has(s.Seats, "D5") && has(s.Seats, "D6") {
			return s
		}
	}
	t.Fatal("no demo show comes first in its week's film report")
	return catalog.ShowSeats{}
}

// TestReports: the admin gives the theatre a tax rate of 18 % and the
// movie rental terms on their pages, two seats are bought online, and the
// admin reads them in the film report (the week of the show, by show
// date: tax, net and rent not 0) and in the sales report (today, online,
// by the sandbox) on a laptop: the screenshots film-report-laptop (with
// its week picker) and sales-report-laptop.
func TestReports(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t, "ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword)
	show := firstFilmShow(t).Show

	admin := newBrowser(t, "admin", nil)
	admin.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	admin.open(s, "/admin/login", "#password")
	admin.Do(
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)),
	)
	// Before the sale: a seat's tax rate is fixed when it is sold.
	admin.open(s, "/admin/theatres/"+show.Theatre.ID, "#f-tax_rate")
	admin.Do(
		chromedp.SetValue(chromedp.CSS(`#f-tax_rate`), "18"),
		chromedp.Submit(chromedp.CSS(`#f-tax_rate`)),
		chromedp.WaitVisible(chromedp.CSS(`li[data-theatre-id]`)),
	)
	admin.open(s, "/admin/movies/"+show.Movie.ID, "#f-rent")
	admin.Do(
		chromedp.SetValue(chromedp.CSS(`#f-rent`), "50,45,40"),
		chromedp.Submit(chromedp.CSS(`#f-rent`)),
		chromedp.WaitVisible(chromedp.CSS(`li[data-movie-id]`)),
	)

	buyer := newBrowser(t, "buyer", nil)
	buyer.buy(s, show.ID, "D5", "D6")

	// This week's report, or the next one's when the show is on a day of
	// it (a report week starts on Friday).
	sold := `document.querySelector('tr[data-film] [data-col="admissions"]:not([data-value="0"])') !== null`
	admin.open(s, "/admin/reports/films", "h1")
	if !eval[bool](admin, sold) {
		admin.Do(chromedp.Click(chromedp.CSS(`[data-week-next]`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-film]`)))
	}
	if !eval[bool](admin, sold) {
		t.Fatal("the film report shows no admission in this week or the next")
	}
	if got := eval[int](admin, `[...document.querySelectorAll('tr[data-film][data-day="week"] [data-col="admissions"]')].reduce((n, c) => n + Number(c.dataset.value), 0)`); got != 2 {
		t.Errorf("the film report's week counts %d admissions; want the 2 seats sold", got)
	}
	// The film sold comes first, under the picker; its week's tax, net and
	// rent are not 0, and net is gross less tax.
	if got := eval[string](admin, `document.querySelector('section.film-report').dataset.filmSection`); got != show.Movie.ID {
		t.Errorf("the film report's first film is %q; want %q, the one sold", got, show.Movie.ID)
	}
	week := `section.film-report tr[data-day="week"] `
	cell := func(col string) int {
		v, err := strconv.Atoi(eval[string](admin, `document.querySelector('`+week+`[data-col="`+col+`"]').dataset.value`))
		if err != nil {
			t.Errorf("the week's %s: %v", col, err)
		}
		return v
	}
	gross, tax, net, rent := cell("gross"), cell("tax"), cell("net"), cell("rent")
	if tax == 0 || rent == 0 || net != gross-tax {
		t.Errorf("the sold film's week: gross %d, tax %d, net %d, rent %d; want tax and rent not 0, net gross − tax", gross, tax, net, rent)
	}
	admin.shot("film-report-laptop", "h1")

	admin.open(s, "/admin/reports/sales", `tr[data-theatre][data-channel="online"][data-method="sandbox"][data-ticket-type="all"]`)
	if got := admin.text(`tr[data-channel="online"][data-method="sandbox"][data-ticket-type="all"] [data-col="seats"]`); got != "2" {
		t.Errorf("the sales report's online seats today %q; want 2", got)
	}
	admin.shot("sales-report-laptop", "")
}
