package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestCatalogBrowser (SPEC §10) in a real Chromium: an admin creates a
// theatre, a screen from a pasted layout (previewed as the seat map before
// saving), a movie and a show, with the forms alone; a moviegoer then
// holds a seat of the new show. No CSP violation or script error on the
// way.
func TestCatalogBrowser(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	a.clock.Set(time.Now().UTC())
	br := testkit.NewBrowser(t, nil)
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin"),
		chromedp.WaitVisible(css(`#password`)),
		chromedp.SendKeys(css(`#email`), adminEmail),
		chromedp.SendKeys(css(`#password`), adminPassword),
		chromedp.Submit(css(`#password`)),
		chromedp.WaitVisible(css(`.admin-bar`)),
		chromedp.Click(css(`.admin-bar a[href="/admin/catalog"]`)),
		chromedp.WaitVisible(css(`a[href="/admin/theatres/new"]`)),

		// Theatre.
		chromedp.Click(css(`a[href="/admin/theatres/new"]`)),
		chromedp.WaitVisible(css(`#f-name`)),
		chromedp.SendKeys(css(`#f-name`), "Picturehouse"),
		chromedp.SendKeys(css(`#f-city`), "Oxford"),
		chromedp.SetValue(css(`#f-time_zone`), "Europe/London"),
		chromedp.Click(css(`.admin-form button[type="submit"]`)),
		chromedp.WaitVisible(css(`[data-theatre-id]`)),

		// Screen: pasted, previewed, saved.
		chromedp.Click(css(`[data-theatre-id] a[href$="/screens/new"]`)),
		chromedp.WaitVisible(css(`#f-layout`)),
		chromedp.SendKeys(css(`#f-name`), "Screen 1"),
		chromedp.SetValue(css(`#f-layout`), catalogLayout),
		chromedp.Click(css(`button[value="preview"]`)),
		chromedp.WaitVisible(css(`[data-layout-preview]`)),
	)
	if n := br.Text(`[data-preview-seats]`); !strings.HasPrefix(n, "18 seats") {
		t.Errorf("preview says %q, want 18 seats", n)
	}
	br.Do(
		chromedp.Click(css(`button[value="save"]`)),
		chromedp.WaitVisible(css(`[data-screen-id]`)),

		// Movie.
		chromedp.Click(css(`a[href="/admin/movies/new"]`)),
		chromedp.WaitVisible(css(`#f-title`)),
		chromedp.SendKeys(css(`#f-title`), "Brief Encounter"),
		chromedp.SendKeys(css(`#f-runtime`), "86"),
		chromedp.Click(css(`.admin-form button[type="submit"]`)),
		chromedp.WaitVisible(css(`[data-movie-id]`)),

		// Show.
		chromedp.Click(css(`[data-screen-id] a[href^="/admin/shows/new"]`)),
		chromedp.WaitVisible(css(`#f-start`)),
		chromedp.SetValue(css(`#f-start`), time.Now().AddDate(0, 1, 0).Format("2006-01-02")+"T19:30"),
		chromedp.SendKeys(css(`#f-price_Classic`), "180"),
		chromedp.SendKeys(css(`#f-price_Prime`), "250"),
		chromedp.Click(css(`form[action="/admin/shows"] button[type="submit"]`)),
		chromedp.WaitVisible(css(`.admin-seatmap`)),
	)
	loc := br.Location()
	showID := loc[strings.LastIndex(loc, "/")+1:]
	if !strings.Contains(loc, "/admin/shows/") || showID == "" {
		t.Fatalf("after creating the show the browser is at %s", loc)
	}

	// A moviegoer, in a browser of their own, holds a seat of it.
	mg := testkit.NewBrowser(t, nil)
	mg.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+showID),
		chromedp.WaitVisible(css(".holdbar-button")),
		chromedp.Click(css(`.seat[data-seat-id="C2"]`)),
		chromedp.Click(css(".holdbar-button")),
		chromedp.WaitVisible(css(".checkout [data-seat-id]")),
	)
	if got := mg.Text(".checkout [data-seat-id]"); !strings.Contains(got, "C2") {
		t.Errorf("checkout shows %q, want seat C2", got)
	}
}
