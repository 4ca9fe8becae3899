package e2e

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/testkit"
)

// TestAdminCounts: on a show of its own, one person buys a seat and another
// holds two; the admin, signed in with ADMIN_EMAIL and ADMIN_PASSWORD, reads
// exactly that in the show's counts and on its map.
func TestAdminCounts(t *testing.T) {
	t.Parallel()
	testkit.NeedBrowser(t)
	s := startServer(t, "ADMIN_EMAIL="+adminEmail, "ADMIN_PASSWORD="+adminPassword)
	showID := s.showIDs(t)[5]

	admin := newBrowser(t, "admin", nil)
	admin.open(s, "/admin/login", "#password")
	admin.Do(
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id]`)),
	)
	if loc := admin.Location(); loc != s.URL+"/admin" {
		t.Errorf("signed in, the admin is at %s, want /admin", loc)
	}

	buyer := newBrowser(t, "buyer", nil)
	buyer.buy(s, showID, "C4")
	holder := newBrowser(t, "holder", nil)
	holder.open(s, "/shows/"+showID, ".holdbar-button")
	seats := eval[int](holder, `document.querySelectorAll('#seatmap [data-seat-id]').length`)
	holder.pickSeats("C6", "C7")
	holder.holdSeats()

	// A third person looks at the map, on a phone and on a laptop, with a
	// couple of seats chosen.
	buyer.open(s, "/shows/"+showID, ".holdbar-button")
	if !buyer.JS(testkit.SeatState("C4") + ` === 'booked' && ` + testkit.SeatState("C6") + ` === 'held' && ` + testkit.SeatState("C7") + ` === 'held'`) {
		t.Error("the seat map does not show C4 booked and C6, C7 held")
	}
	buyer.pickSeats("E7", "E8")
	buyer.shot("seatmap-phone", "#hold-form")
	buyer.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	buyer.open(s, "/shows/"+showID, ".holdbar-button")
	buyer.pickSeats("E7", "E8")
	buyer.shot("seatmap-laptop", ".show-head")

	admin.Do(chromedp.EmulateViewport(laptopWidth, laptopHeight))
	admin.open(s, "/admin/shows/"+showID, ".admin-counts")
	want := map[string]int{"booked": 1, "held": 2, "available": seats - 3}
	for kind, n := range want {
		if got := admin.text(`.admin-counts [data-count="` + kind + `"]`); got != strconv.Itoa(n) {
			t.Errorf("%s count %s, want %d", kind, got, n)
		}
	}
	for seat, state := range map[string]string{"C4": "booked", "C6": "held", "C7": "held", "E7": "available"} {
		if got := eval[string](admin, `document.querySelector('.admin-seatmap [data-seat-id="`+seat+`"]').dataset.state`); got != state {
			t.Errorf("admin map: %s is %s, want %s", seat, got, state)
		}
	}
	admin.shot("admin-show-laptop", "#seats") // the map, drawn as the moviegoer's
}
