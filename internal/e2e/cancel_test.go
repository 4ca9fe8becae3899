package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestCancelledShow: someone buys a seat of a show; the admin cancels the
// show. The buyer's booking page says the show was cancelled, that the
// money is due back, and offers the film's other shows; the admin's page
// of the show counts nothing booked and all of it off sale. Then the
// admin opens a screen of the catalog, its layout previewed as the seat
// map. Screenshots: booking-cancelled-phone, admin-show-cancelled-laptop,
// layout-preview-laptop.
func TestCancelledShow(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t, "ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword)
	showID := s.showIDs(t)[6]

	buyer := newBrowser(t, "buyer", nil)
	buyer.buy(s, showID, "D4", "D5")
	booking := buyer.Location()

	admin := newBrowser(t, "admin", nil)
	admin.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	admin.open(s, "/admin/login", "#password")
	admin.Do(
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)),
	)
	admin.open(s, "/admin/shows/"+showID, "form[data-cancel-show]")
	admin.Do(
		chromedp.Click(chromedp.CSS(`form[data-cancel-show] input[name="confirm"]`)),
		chromedp.Click(chromedp.CSS(`form[data-cancel-show] button`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-count="off-sale"]`)),
	)
	if got := admin.text(`.admin-counts [data-count="booked"]`); got != "0" {
		t.Errorf("the cancelled show counts %s booked, want 0", got)
	}
	admin.shot("admin-show-cancelled-laptop", "")

	buyer.Do(chromedp.Navigate(booking), chromedp.WaitVisible(chromedp.CSS("[data-other-shows]")))
	if got := buyer.text("#booking h1"); got != "This show was cancelled" {
		t.Errorf("the booking's heading is %q", got)
	}
	if !buyer.JS(`document.querySelector('[data-refund="due"]') !== null && document.querySelectorAll('[data-other-shows] a[data-show-id]').length > 0`) {
		t.Error("the booking page does not say the refund is due, or offers no other show")
	}
	if buyer.JS(`document.querySelector('#booking a[href="/shows/` + showID + `"]') !== null`) {
		t.Error("the booking page links to the cancelled show's map")
	}
	buyer.shot("booking-cancelled-phone", "")
	other := eval[string](buyer, `document.querySelector('[data-other-shows] a[data-show-id]').dataset.showId`)
	buyer.Do(
		chromedp.Click(chromedp.CSS(`[data-other-shows] a[data-show-id="`+other+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
	)

	admin.open(s, "/admin/catalog", "main")
	screen := eval[string](admin, `[...document.querySelectorAll('main a')].map((a) => a.getAttribute('href')).find((h) => /^\/admin\/screens\/[^/]+$/.test(h)) || ''`)
	if screen == "" {
		t.Fatal("the catalog lists no screen")
	}
	admin.open(s, screen, "[data-layout-preview] .seatmap-grid")
	if !admin.JS(`document.querySelectorAll('[data-layout-preview] .band').length > 0`) {
		t.Error("the screen's layout preview draws no band")
	}
	admin.shot("layout-preview-laptop", "h2")
}
