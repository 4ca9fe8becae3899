package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestReports: two seats bought online, the admin reads them in the film
// report (the week of the show, by show date) and in the sales report
// (today, online, by the sandbox) on a laptop: the screenshots
// film-report-laptop and sales-report-laptop.
func TestReports(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t, "ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword)
	showID := s.showIDs(t)[0]
	buyer := newBrowser(t, "buyer", nil)
	buyer.buy(s, showID, "D5", "D6")

	admin := newBrowser(t, "admin", nil)
	admin.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	admin.open(s, "/admin/login", "#password")
	admin.Do(
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)),
	)

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
	// The film sold, at the top (films are by title).
	admin.shot("film-report-laptop", `section.film-report:has([data-col="admissions"]:not([data-value="0"]))`)

	admin.open(s, "/admin/reports/sales", `tr[data-theatre][data-channel="online"][data-method="sandbox"][data-ticket-type="all"]`)
	if got := admin.text(`tr[data-channel="online"][data-method="sandbox"][data-ticket-type="all"] [data-col="seats"]`); got != "2" {
		t.Errorf("the sales report's online seats today %q; want 2", got)
	}
	admin.shot("sales-report-laptop", "")
}
