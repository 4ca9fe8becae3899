package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
)

// TestAxe runs axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules and its
// best practices in a real Chromium on every page: home, the error page
// (404, a bad date's 400, a hold refused 410), the seat map on a phone, on
// a laptop and in the dark, and before its sales open, a conflict
// answered in place, the seats as a list, checkout, with ticket types
// too, the sandbox's checkout, the booking in each of its states,
// find-my-booking and its answer, the sign-in page and every admin page:
// the overview, a show, the catalog's pages (theatre, screen, movie,
// ticket type, price card), accounts, a payment, the on-sales, the box
// office, the door's answers (admitted, already, refused: unknown, another
// show, refunded, tomorrow), the refund queue, the two reports and the
// admin's error page (404, 422). The queue's pages are TestQueueBrowser's,
// the listing and find-my-booking in Hindi and Tamil
// TestBrowserSeatMapInHindi's. Any violation fails it. It skips without
// node_modules/axe-core (make assets), as NeedBrowser says.
func TestAxe(t *testing.T) {
	testkit.NeedBrowser(t)
	testkit.NeedAxe(t)
	a := newAdminApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	ctx := t.Context()
	found := a.book("C1")
	// A 409 answered in place, the 422 of a refused choice of types, and
	// the error pages' 400, 404, 410 and 422 are expected; the browser
	// logs them anyway.
	br := testkit.NewBrowser(t, func(text string) bool {
		for _, status := range []string{"400", "404", "409", "410", "422"} {
			if strings.Contains(text, "status of "+status) {
				return true
			}
		}
		return false
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
	visit("/?city=Chennai", `a[data-availability="sold-out"][href]`)
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
	br.Do(
		chromedp.SetValue(chromedp.CSS("#find-email"), testEmail),
		chromedp.SetValue(chromedp.CSS("#find-code"), found.TicketCode),
		chromedp.Submit(chromedp.CSS("#find-code")),
		chromedp.WaitVisible(chromedp.CSS("[data-find-sent]")),
	)
	testkit.Axe(br, "find my booking, answered")

	// The error page: a page that is not there, a date that is not one.
	for _, p := range []struct{ path, status string }{{"/nope", "404"}, {"/?date=bad", "400"}} {
		visit(p.path, `.error-page[data-status="`+p.status+`"]`)
		testkit.Axe(br, "error page, "+p.status)
	}
	// A show whose on-sale opens in two days: its map says when, and a
	// hold sent anyway (by a form of the test's own, since the map offers
	// none) is refused on the error page, 410.
	a.secondShow("show2")
	onSale, err := a.svc.CreateOnSale(ctx, booking.OnSaleRequest{Name: "Later", OpensAt: a.clock.Now().Add(48 * time.Hour), Rate: 10, ShowIDs: []string{"show2"}})
	if err != nil {
		t.Fatal(err)
	}
	visit("/shows/show2", `[data-on-sale="false"]`)
	testkit.Axe(br, "seat map, not on sale yet")
	br.JS(`(() => {
	const f = document.createElement('form');
	f.method = 'post';
	f.action = '/shows/show2/holds';
	for (const [name, value] of [['_csrf', document.querySelector('meta[name="csrf-token"]').content], ['seat', 'A1']]) {
		const input = document.createElement('input');
		input.type = 'hidden';
		input.name = name;
		input.value = value;
		f.append(input);
	}
	document.body.append(f);
	f.submit();
	return true
})()`)
	br.Do(chromedp.WaitVisible(chromedp.CSS(`.error-page[data-status="410"]`)))
	testkit.Axe(br, "error page, 410")

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
	// The booking in its other states, opened by its link.
	inState := map[booking.BookingState]booking.Booking{}
	for i, state := range []booking.BookingState{booking.BookingPending, booking.BookingFailed, booking.BookingRefunded, booking.BookingRefundDue} {
		b := a.book("B" + itoa(i+1))
		a.exec(`UPDATE bookings SET state = ? WHERE id = ?`, []any{string(state), b.ID})
		stored, err := a.store.Booking(ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		visit("/bookings/"+b.ID+"?key="+url.QueryEscape(stored.Key), `[data-booking-id][data-state="`+string(state)+`"]`)
		testkit.Axe(br, "booking, "+string(state))
		inState[state] = b
	}

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
	// A payment to look at, and the catalog's records.
	paying := a.client().mustPay("B5", "B6")
	a.catalog()
	admins, err := a.store.ListAdmins(ctx)
	if err != nil {
		t.Fatal(err)
	}

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
		{"/admin/payments/" + paying.ID, "main"},
		{"/admin/accounts/" + admins[0].ID, "main form"},
		{"/admin/theatres/th1", "#f-time_zone"},
		{"/admin/theatres/th1/screens/new", "main form"},
		{"/admin/screens/sc1", "main"},
		{"/admin/theatres/th1/types", "main"},
		{"/admin/theatres/th1/types/adult", "main form"},
		{"/admin/theatres/th1/cards", "main"},
		{"/admin/theatres/th1/cards/new", "main form"},
		{"/admin/cards/card1", "main form"},
		{"/admin/movies/new", "main form"},
		{"/admin/movies/mv1", "main form"},
		{"/admin/shows/new", "main form"},
		{"/admin/onsales", "main form"},
		{"/admin/onsales/" + onSale.ID, "main"},
		{"/admin/boxoffice", "main"},
		{"/admin/nope", `.error-page[data-status="404"]`},
		{"/admin?page=x", `.error-page[data-status="422"]`},
	} {
		visit(p.path, p.visible)
		testkit.Axe(br, p.path)
	}

	// The door's answers: Admit pressed twice (admitted, then already),
	// and refusals looked up: a code it does not know, a ticket for
	// another show than the door's, one refunded, one never paid.
	today := a.bookAt(a.soonShow(t, "soon", a.clock.Now().Add(45*time.Minute)), "A1")
	for _, want := range []string{"admitted", "already"} {
		br.Do(
			chromedp.Navigate(a.srv.URL+"/admin/checkin?show="),
			chromedp.WaitVisible(chromedp.CSS(`[data-door-code]`)),
			chromedp.SendKeys(chromedp.CSS(`[data-door-code]`), today.TicketCode),
			chromedp.Click(chromedp.CSS(`.door-admit`)),
		)
		br.WaitFor(`document.querySelector('[data-checkin="`+want+`"]') !== null`, 10*time.Second)
		testkit.Axe(br, "door, "+want)
	}
	for _, p := range []struct{ reason, query string }{
		{"unknown", "show=&code=ZZZZ-ZZZZ"},
		{"other_show", "show=" + testShowID + "&code=" + today.TicketCode},
		{"refunded", "show=&code=" + refundDue.TicketCode},
		{"not_confirmed", "show=&code=" + inState[booking.BookingFailed].TicketCode},
	} {
		visit("/admin/checkin?"+p.query, `[data-checkin="refused"][data-reason="`+p.reason+`"]`)
		testkit.Axe(br, "door, refused "+p.reason)
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
