package web_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// viewport is a screen the page tests run on: a laptop and a 390 px phone.
type viewport struct {
	name          string
	width, height int64
}

var viewports = []viewport{{"laptop", 1280, 800}, {"phone", testkit.PhoneWidth, testkit.PhoneHeight}}

// noSideways is true when the page does not scroll sideways on the
// viewport v.
func noSideways(v viewport) string {
	return `document.scrollingElement.scrollWidth <= ` + strconv.FormatInt(v.width, 10)
}

// inView is true when the element matching css is wholly on screen.
func inView(css string) string {
	return `(() => { const e = document.querySelector('` + css + `'); if (!e) { return false; }
	  const r = e.getBoundingClientRect();
	  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; })()`
}

// signIn signs br in as the admin through the form.
func signIn(br *testkit.Browser, a *app) {
	br.T.Helper()
	br.Do(
		chromedp.Navigate(a.srv.URL+"/admin/login"),
		chromedp.WaitVisible(chromedp.CSS(`#password`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), adminEmail),
		chromedp.SendKeys(chromedp.CSS(`#password`), adminPassword),
		chromedp.Submit(chromedp.CSS(`#password`)),
	)
	br.WaitFor(`location.pathname === '/admin' && document.readyState === 'complete'`, 10*time.Second)
}

// TestBrowserCancelledPages (item 3 of issue 29): on a laptop and on a
// phone, the page of a booking whose show was cancelled says so and what
// becomes of the money, offers the film's other show, whose link leads to
// its seat map, and does not scroll sideways; the admin page of the
// cancelled show counts it off sale. axe-core finds nothing on either.
func TestBrowserCancelledPages(t *testing.T) {
	testkit.NeedBrowser(t)
	a, _, due, _ := cancelledShowApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	stored, err := a.store.Booking(context.Background(), due.ID)
	if err != nil {
		t.Fatal(err)
	}
	link := "/bookings/" + due.ID + "?key=" + url.QueryEscape(stored.Key)
	br := testkit.NewBrowser(t, nil)
	signIn(br, a)
	for _, v := range viewports {
		br.Do(chromedp.EmulateViewport(v.width, v.height), chromedp.Navigate(a.srv.URL+link), chromedp.WaitVisible(chromedp.CSS("#booking h1")))
		if got := br.Text("#booking h1"); got != "This show was cancelled" {
			t.Errorf("%s: the booking's heading is %q", v.name, got)
		}
		if !br.JS(`document.querySelector('[data-refund="due"]') !== null`) {
			t.Errorf("%s: the booking page does not say the refund is due", v.name)
		}
		if !br.JS(noSideways(v)) {
			t.Errorf("%s: the cancelled booking's page scrolls sideways", v.name)
		}
		br.Do(shot("cancelled-booking-" + v.name))
		testkit.Axe(br, "cancelled booking, "+v.name)
		br.Do(
			chromedp.Click(chromedp.CSS(`[data-other-shows] a[data-show-id="show2"]`)),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		)
		if loc := br.Location(); loc != a.srv.URL+"/shows/show2" {
			t.Errorf("%s: the other show's link led to %s", v.name, loc)
		}

		br.Do(chromedp.Navigate(a.srv.URL+"/admin/shows/"+testShowID), chromedp.WaitVisible(chromedp.CSS(".admin-counts")))
		if got := br.Text(`.admin-counts [data-count="off-sale"]`); got != "30" {
			t.Errorf("%s: the cancelled show's admin page counts %q seats off sale, want 30", v.name, got)
		}
		if got := br.Text(`.admin-counts [data-count="booked"]`); got != "0" {
			t.Errorf("%s: the cancelled show's admin page counts %q booked", v.name, got)
		}
		testkit.Axe(br, "cancelled show's admin page, "+v.name)
	}
}

// TestBrowserBackKeepsChoice (item 5 of issue 29): on a laptop and on a
// phone, Back from checkout returns to the map with the seats still ticked,
// the hold bar counting them, the party size kept, and a message that
// the hold was released.
func TestBrowserBackKeepsChoice(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	br := testkit.NewBrowser(t, nil)
	for _, v := range viewports {
		br.Do(
			chromedp.EmulateViewport(v.width, v.height),
			chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="B1"]`)),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="B2"]`)),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="B3"]`)),
			chromedp.Click(chromedp.CSS(".holdbar-button")),
			chromedp.WaitVisible(chromedp.CSS(".release-form button")),
			chromedp.Click(chromedp.CSS(".release-form button")),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
		)
		br.WaitFor(`document.querySelectorAll('#seatmap .seat input:checked').length === 3`, 5*time.Second)
		got := testkit.Eval[string](br, `[...document.querySelectorAll('#seatmap .seat input:checked')].map((i) => i.value).join(',')`)
		if got != "B1,B2,B3" {
			t.Errorf("%s: after Back %q are ticked, want B1,B2,B3", v.name, got)
		}
		if got := br.Text(".holdbar-button"); got != "Hold 3 seats" {
			t.Errorf("%s: after Back the Hold button says %q", v.name, got)
		}
		if got := testkit.Eval[string](br, `document.querySelector('#best-party').value`); got != "3" {
			t.Errorf("%s: after Back the party size is %s, want 3", v.name, got)
		}
		if !br.JS(`(document.querySelector('#seatmap-answer [role="status"]') || {textContent: ''}).textContent.includes('Your hold was released.')`) {
			t.Errorf("%s: after Back no message (role=status) says the hold was released", v.name)
		}
		br.Do(shot("back-keeps-choice-" + v.name))
		testkit.Axe(br, "seat map after Back, "+v.name)
	}
}

// TestBrowserPhonePolish (item 6 of issue 29), on a laptop and on a 390
// px phone: the booking page and its booking link fit the screen; the
// header's links never touch; the email field is 44 px high with 16 px
// text (iOS zooms below that); focus lands on it after Hold; a hold
// refused for a single gap (422) brings its message, announced, into
// view; and without JavaScript the hold bar shows the total after "Find
// seats".
func TestBrowserPhonePolish(t *testing.T) {
	testkit.NeedBrowser(t)
	p := testPolicy
	p.AllowGaps = false
	a := newAppWith(t, p, func(o *web.Options) { o.AdminPasswordCost = bcrypt.MinCost })
	a.clock.Set(time.Now().UTC().Round(0))
	// A long address is one long word, as the booking link is.
	b := a.bookAs("reservations.for.the.whole.family@cinema-lovers-bengaluru.example.com", testShowID, "E5", "E6")
	stored, err := a.store.Booking(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	a.addTallShow(t, "tall", 16)
	br := testkit.NewBrowser(t, func(text string) bool { return strings.Contains(text, "status of 422") })
	for _, v := range viewports {
		br.Do(
			chromedp.EmulateViewport(v.width, v.height),
			chromedp.Navigate(a.srv.URL+"/bookings/"+b.ID+"?key="+url.QueryEscape(stored.Key)),
			chromedp.WaitVisible(chromedp.CSS("[data-booking-link]")),
		)
		if !br.JS(noSideways(v)) {
			t.Errorf("%s: the booking page is %v px wide", v.name, testkit.Eval[float64](br, `document.scrollingElement.scrollWidth`))
		}
		if !br.JS(`(() => { const [a, b] = document.querySelectorAll('.site-header nav a'); const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
		  return r.bottom + 4 <= s.top || (Math.abs(r.top - s.top) < 2 && r.right + 8 <= s.left); })()`) {
			t.Errorf("%s: the header's two links touch: %s", v.name, testkit.Eval[string](br, `JSON.stringify([...document.querySelectorAll('.site-header nav a')].map((a) => a.getBoundingClientRect()))`))
		}
		testkit.Axe(br, "confirmed booking with its link, "+v.name)

		// Hold: focus on the email field, which is big enough.
		br.Do(
			chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
			chromedp.WaitVisible(chromedp.CSS(".holdbar-button")),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A1"]`)),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A2"]`)),
			chromedp.Click(chromedp.CSS(`.seat[data-seat-id="A3"]`)),
			chromedp.Click(chromedp.CSS(".holdbar-button")),
			chromedp.WaitVisible(chromedp.CSS("#pay-email")),
		)
		br.WaitFor(`document.readyState === 'complete'`, 5*time.Second)
		if got := testkit.Eval[string](br, `document.activeElement ? document.activeElement.id || document.activeElement.tagName : ''`); got != "pay-email" {
			t.Errorf("%s: after Hold the focus is on %q, want the email field", v.name, got)
		}
		h := testkit.Eval[float64](br, `document.querySelector('#pay-email').getBoundingClientRect().height`)
		fs := testkit.Eval[float64](br, `parseFloat(getComputedStyle(document.querySelector('#pay-email')).fontSize)`)
		if h < 44 || fs < 16 {
			t.Errorf("%s: the email field is %v px high with %v px text, want at least 44 and 16", v.name, h, fs)
		}
		if !br.JS(noSideways(v)) {
			t.Errorf("%s: the checkout scrolls sideways", v.name)
		}
		br.Do(shot("checkout-focus-" + v.name))
		testkit.Axe(br, "checkout, email focused, "+v.name)
		br.Do(chromedp.Click(chromedp.CSS(".release-form button")), chromedp.WaitVisible(chromedp.CSS(".holdbar-button")))

		// A hold at the back of a tall hall that would strand P1: 422,
		// its message in view and announced.
		br.Do(chromedp.Navigate(a.srv.URL+"/shows/tall"), chromedp.WaitVisible(chromedp.CSS(".holdbar-button")))
		br.JS(`(() => { document.querySelector('.seat[data-seat-id="P2"]').scrollIntoView({block: 'center'}); return true; })()`)
		br.Do(chromedp.Click(chromedp.CSS(`.seat[data-seat-id="P2"]`)))
		br.JS(`(() => { window.scrollTo(0, document.scrollingElement.scrollHeight); return true; })()`)
		br.Do(chromedp.Click(chromedp.CSS(".holdbar-button")))
		br.WaitFor(`document.querySelector('#seatmap [data-gap-seat]') !== null`, 5*time.Second)
		br.WaitFor(inView(`#seatmap [data-gap-seat] [role="alert"]`), 3*time.Second)
		br.Do(shot("gap-refused-" + v.name))
		testkit.Axe(br, "hold refused for a gap, "+v.name)

		// Without JavaScript: Find seats, and the bar shows the total.
		br.Do(
			scripts(false),
			chromedp.Navigate(a.srv.URL+"/shows/"+testShowID),
			chromedp.WaitVisible(chromedp.CSS("[data-best-form] button")),
			chromedp.Click(chromedp.CSS("[data-best-form] button")),
			chromedp.WaitVisible(chromedp.CSS("[data-suggested]")),
		)
		// The suggested seats' prices added up (a seat's own, else its
		// band's), in rupees.
		sum := testkit.Eval[float64](br, `[...document.querySelectorAll('[data-suggested]')].reduce((t, s) => t + Number(s.closest('[data-price]').dataset.price), 0)`)
		if want := "₹" + strconv.FormatFloat(sum/100, 'f', -1, 64); sum != 500_00 || strings.TrimSpace(br.Text(".holdbar-total")) != want {
			t.Errorf("%s: without JavaScript the bar's total after Find seats is %q; the suggested seats cost %v paise (want 50000), %s",
				v.name, br.Text(".holdbar-total"), sum, want)
		}
		br.Do(scripts(true))
	}
}

// bookAs is bookAt with the buyer's email address.
func (a *app) bookAs(email, showID string, seats ...string) booking.Booking {
	a.t.Helper()
	ctx := context.Background()
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, showID, owner, seats)
	if err != nil {
		a.t.Fatalf("HoldSeats: %v", err)
	}
	p, _, err := a.svc.StartPayment(ctx, holdID, owner, email)
	if err != nil {
		a.t.Fatalf("StartPayment: %v", err)
	}
	s, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || s.Effect != booking.EffectBooked {
		a.t.Fatalf("SettlePayment: %v, %v", s.Effect, err)
	}
	return s.Booking
}

// addTallShow adds show id of testShow's film in a hall of rows rows
// (A, B, …) of six seats, an aisle after the third.
func (a *app) addTallShow(t testing.TB, id string, rows int) {
	t.Helper()
	show, _ := testShow()
	show.ID = id
	var seats []booking.Seat
	for r := range rows {
		row := string(rune('A' + r))
		for n := 1; n <= 6; n++ {
			col := n - 1
			if n > 3 {
				col++
			}
			seats = append(seats, booking.Seat{ShowID: id, ID: row + itoa(n), Row: row, Number: n, GridRow: r, GridCol: col,
				Category: "Classic", Price: 18000, Kind: booking.KindStandard, Status: booking.SeatAvailable})
		}
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
}

// scripts turns JavaScript on or off in the tab.
func scripts(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	})
}

// TestBrowserLayoutMaps (item 4 of issue 29): on a laptop and on a
// phone, the layout editor's preview and the admin show map are drawn as
// the moviegoer's map is: the wheelchair space in its own colour with ♿,
// the companion seat marked +, the bands' names (and a show's prices), an
// aisle as a real gap; the map scrolls in its own box, never the page;
// the admin map's seats still tick for a reserve. axe-core finds nothing.
func TestBrowserLayoutMaps(t *testing.T) {
	testkit.NeedBrowser(t)
	a := newAdminApp(t)
	a.clock.Set(time.Now().UTC().Round(0))
	th, err := a.svc.Catalog().SaveTheatre(context.Background(), booking.Theatre{Name: "Prince Charles", City: "London", TimeZone: "Europe/London", Currency: "GBP"})
	if err != nil {
		t.Fatal(err)
	}
	br := testkit.NewBrowser(t, nil)
	signIn(br, a)
	standardBorder := func(sel string) string {
		return `getComputedStyle(document.querySelector('` + sel + ` .seat:not([data-kind]) .seat-box')).borderTopColor`
	}
	for _, v := range viewports {
		br.Do(
			chromedp.EmulateViewport(v.width, v.height),
			chromedp.Navigate(a.srv.URL+"/admin/theatres/"+th+"/screens/new"),
			chromedp.WaitVisible(chromedp.CSS("#f-layout")),
			chromedp.SetValue(chromedp.CSS("#f-layout"), catalogLayout),
			chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Screen "+v.name),
			chromedp.Click(chromedp.CSS(`button[value="preview"]`)),
			chromedp.WaitVisible(chromedp.CSS("[data-layout-preview] .seatmap-grid")),
		)
		p := `[data-layout-preview]`
		if got := br.Text(p + ` .seat[data-seat-id="B1"] .seat-box`); got != "♿" {
			t.Errorf("%s: the preview's wheelchair space shows %q", v.name, got)
		}
		if !br.JS(`getComputedStyle(document.querySelector('` + p + ` .seat[data-kind="wheelchair"] .seat-box')).borderTopColor !== ` + standardBorder(p)) {
			t.Errorf("%s: the preview's wheelchair space looks like any seat", v.name)
		}
		if got := br.Text(p + ` .seat[data-seat-id="B2"] .seat-box`); !strings.HasSuffix(got, "+") {
			t.Errorf("%s: the preview's companion seat shows %q, want its number and +", v.name, got)
		}
		if got := testkit.Eval[string](br, `[...document.querySelectorAll('`+p+` .band-label')].map((e) => e.textContent.trim()).join(',')`); got != "Classic,Prime" {
			t.Errorf("%s: the preview's bands are %q", v.name, got)
		}
		if !br.JS(`document.querySelector('` + p + ` .row .gap').getBoundingClientRect().width >= 20`) {
			t.Errorf("%s: the preview's aisle is not a real gap", v.name)
		}
		if !br.JS(noSideways(v)) {
			t.Errorf("%s: the layout preview's page scrolls sideways: %s", v.name, widest(br, v))
		}
		br.Do(shot("layout-preview-" + v.name))
		testkit.Axe(br, "layout preview, "+v.name)

		br.Do(chromedp.Navigate(a.srv.URL+"/admin/shows/"+testShowID), chromedp.WaitVisible(chromedp.CSS(".admin-seatmap .seatmap-grid")))
		m := `.admin-seatmap`
		if got := br.Text(m + ` .seat[data-seat-id="D1"] .seat-box`); got != "♿" {
			t.Errorf("%s: the admin map's wheelchair space shows %q", v.name, got)
		}
		if got := testkit.Eval[string](br, `[...document.querySelectorAll('`+m+` .band-label')].map((e) => e.textContent.trim()).join(',')`); got != "Classic₹180,Prime₹250" {
			t.Errorf("%s: the admin map's bands are %q", v.name, got)
		}
		if !br.JS(noSideways(v)) {
			t.Errorf("%s: the admin show page scrolls sideways: %s", v.name, widest(br, v))
		}
		br.JS(`(() => { document.querySelector('` + m + ` .seat[data-seat-id="B2"]').scrollIntoView({block: 'center', inline: 'center'}); return true; })()`)
		br.Do(chromedp.Click(chromedp.CSS(m + ` .seat[data-seat-id="B2"]`)))
		br.WaitFor(`document.querySelector('`+m+` .seat[data-seat-id="B2"] input').checked`, 3*time.Second)
		br.Do(shot("admin-show-map-" + v.name))
		testkit.Axe(br, "admin show map, "+v.name)
	}
}

// widest names the elements that reach past the viewport's right edge.
func widest(br *testkit.Browser, v viewport) string {
	return testkit.Eval[string](br, `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > `+
		strconv.FormatInt(v.width, 10)+` && !e.closest('.seatmap-scroll')).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8).join('; ')`)
}
