package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestAxe runs axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules in a real
// Chromium on every kind of page: home, the seat map on a phone, on a
// laptop and in the dark, a conflict answered in place, the seats as a
// list, checkout, with ticket types too, the sandbox's checkout, the booking, find-my-booking, the
// sign-in page and the admin's pages, the door (with a ticket for
// tomorrow), the refund queue, the new-theatre form and the two reports
// among them. Any violation
// fails it. It skips without node_modules/axe-core (make assets), as
// NeedBrowser says.
func TestAxe(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newAdminApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	a.book("C1")
	// A 409 answered in place, and the 422 of a refused choice of types,
	// are expected; the browser logs them anyway.
	br := testkit.NewBrowser(t, func(text string) bool {
		return strings.Contains(text, "status of 409") || strings.Contains(text, "status of 422")
	})
	seatmap := a.srv.URL + "/shows/" + testShowID
	visit := func(path, visible string) {
		t.Helper()
		br.Do(chromedp.Navigate(a.srv.URL+path), chromedp.WaitVisible(chromedp.CSS(visible)))
	}

	visit("/", "main")
	testkit.Axe(br, "home")
	// The listing of a city, with a few-left and a sold-out showtime (an
	// online cut-off leaves 3 of 30 seats, or none), on a phone, a laptop
	// and in the dark; then a date without shows.
	for i, cutoff := range []int{27, 30} {
		id := "cutoff-" + itoa(cutoff)
		addListed(t, a, listing{id, "a", "t", "Chennai", kolkataZone, testShowStart.Add(time.Duration(i) * time.Hour)})
		if err := a.svc.SetOnlineCutoff(context.Background(), id, cutoff); err != nil {
			t.Fatal(err)
		}
	}
	visit("/?city=Chennai", `[data-availability="sold-out"]`)
	testkit.Axe(br, "listing of a city, phone")
	br.Do(chromedp.EmulateViewport(1280, 800))
	testkit.Axe(br, "listing of a city, laptop")
	br.Do(darkMode(true))
	testkit.Axe(br, "listing of a city, laptop, dark")
	br.Do(darkMode(false), chromedp.EmulateViewport(testkit.PhoneWidth, testkit.PhoneHeight))
	visit("/?city=all&date="+time.Now().Format(time.DateOnly), "main")
	testkit.Axe(br, "listing of a date without shows")
	visit("/bookings/find", "main form")
	testkit.Axe(br, "find my booking")

	br.Do(chromedp.Navigate(seatmap), chromedp.WaitVisible(chromedp.CSS(".holdbar-button")))
	testkit.Axe(br, "seat map, phone")
	br.Do(chromedp.EmulateViewport(1280, 800))
	testkit.Axe(br, "seat map, laptop")
	br.Do(darkMode(true))
	testkit.Axe(br, "seat map, laptop, dark")
	br.Do(darkMode(false), chromedp.EmulateViewport(testkit.PhoneWidth, testkit.PhoneHeight))

	// A conflict answered in place.
	br.Do(
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A3"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A4"]`)),
	)
	a.client().mustHold("A3")
	br.Do(
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`[data-conflict]`)),
	)
	testkit.Axe(br, "conflict")
	visit("/shows/"+testShowID+"?view=list", "#seatlist")
	testkit.Axe(br, "seat list")

	// Checkout, the sandbox's checkout, the booking.
	br.Do(
		chromedp.Navigate(seatmap),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="D5"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(".pay-form button")),
	)
	testkit.Axe(br, "checkout")
	br.Do(darkMode(true))
	testkit.Axe(br, "checkout, dark")
	br.Do(
		darkMode(false),
		chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`.sandbox__actions`)),
	)
	testkit.Axe(br, "sandbox checkout")
	br.Do(
		chromedp.Click(chromedp.CSS(`button[value="succeed"]`)),
		chromedp.WaitVisible(chromedp.CSS("[data-booking-id]")),
	)
	br.WaitFor(`document.querySelector('[data-booking-id]').dataset.state === 'confirmed'`, 10*time.Second)
	testkit.Axe(br, "booking, confirmed")

	// Checkout with ticket types: a select per seat, the total after a
	// choice, and a choice refused (children alone) with its seat marked.
	a.typedShow()
	br.Do(
		chromedp.Navigate(a.srv.URL+"/shows/"+typedShowID),
		chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
		chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
		chromedp.Click(chromedp.CSS(".holdbar-button")),
		chromedp.WaitVisible(chromedp.CSS(`select[name="type_A2"]`)),
	)
	testkit.Axe(br, "checkout with types")
	for _, c := range []struct{ seat, total string }{{"A1", "27000"}, {"A2", "18000"}} {
		seat, total := c.seat, c.total
		br.JS(`(() => { const s = document.querySelector('select[name="type_` + seat + `"]'); s.value = 'child'; s.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
		br.WaitFor(`document.querySelector('[data-amount]').dataset.amount === '`+total+`'`, 10*time.Second)
	}
	testkit.Axe(br, "checkout with types, total updated")
	br.Do(
		chromedp.SetValue(chromedp.CSS("#pay-email"), testEmail),
		chromedp.Click(chromedp.CSS(".pay-form button")),
		chromedp.WaitVisible(chromedp.CSS(`[data-rule="accompanied"]`)),
	)
	testkit.Axe(br, "checkout with types, refused")
	br.Do(darkMode(true))
	testkit.Axe(br, "checkout with types, refused, dark")
	br.Do(darkMode(false))

	// A ticket for tomorrow, refused at the door (not_today), and a booking
	// due a refund, for the refund queue.
	tomorrowTicket := a.bookAt(a.soonShow(t, "tomorrow", time.Now().Add(26*time.Hour)), "A1")
	refundDue := a.book("E6")
	a.exec(`UPDATE bookings SET state = 'refund_due', reason = 'show cancelled' WHERE id = ?`, []any{refundDue.ID})

	// The admin's pages, signed in with the form.
	visit("/admin/login", "#password")
	testkit.Axe(br, "sign-in")
	br.Do(
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-show-id="`+testShowID+`"]`)),
	)
	testkit.Axe(br, "admin overview")
	for _, p := range []struct{ path, visible string }{
		{"/admin/shows/" + testShowID, ".admin-seatmap"},
		{"/admin/catalog", "main"},
		{"/admin/accounts", "main"},
		{"/admin/checkin", "[data-door-code]"},
		{"/admin/checkin?show=&code=" + tomorrowTicket.TicketCode, "[data-door-confirm]"},
		{"/admin/theatres/new", "#f-time_zone"},
		{"/admin/refunds", "[data-refund-due]"},
		{"/admin?when=past", "main"},
		{"/admin?when=all&theatre=t1", "tr[data-show-id]"},
		// The reports, each with rows: the week of the test show, which
		// has bookings; the sales of the last seven days, made today.
		{"/admin/reports/films?week=" + booking.WeekStart(booking.DayOf(testShowStart, time.UTC), time.Friday).Format(booking.DateLayout), "tr[data-film]"},
		{"/admin/reports/sales", "tr[data-theatre][data-channel]"},
		// A week and a range refused (422) on the reports' own pages.
		{"/admin/reports/films?week=2036-03-17", "[data-refused]"},
		{"/admin/reports/sales?from=2026-03-15&to=2026-03-14", "[data-refused]"},
	} {
		visit(p.path, p.visible)
		testkit.Axe(br, p.path)
	}
	visit("/admin/shows/"+testShowID, ".admin-seatmap")
	br.Do(darkMode(true))
	testkit.Axe(br, "/admin/shows/"+testShowID+", dark")
}

// darkMode makes the page prefer a dark colour scheme, or stop preferring
// one.
func darkMode(on bool) chromedp.Action[chromedp.Void] {
	value := "light"
	if on {
		value = "dark"
	}
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	})
}
