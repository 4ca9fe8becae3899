package web_test

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/web"
)

// counterPolicy is testPolicy with the box office's close 30 minutes after
// the start, online sales closing a day before it and a cap of 2 seats
// per address, neither of which the counter obeys.
var counterPolicy = booking.Policy{HoldTTL: 15 * time.Minute, MaxSeats: 4, AllowGaps: true,
	SalesClose: -24 * time.Hour, BoxOfficeClose: 30 * time.Minute, SeatsPerAddress: 2}

// newCounterApp is an app with the typed show, an admin and a staff
// account, HOLD_RATE 1 and counterPolicy.
func newCounterApp(t *testing.T) *app {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	a := startAppWith(t, path, booking.NewManualClock(testStart), counterPolicy, func(o *web.Options) {
		// The tests move the clock years at a time: sessions outlive it.
		o.AdminPasswordCost, o.HoldRate = bcrypt.MinCost, 1
		o.AdminIdle, o.SessionIdle = 50*365*24*time.Hour, 50*365*24*time.Hour
	})
	if _, err := a.svc.Catalog().SaveTheatre(context.Background(), booking.Theatre{ID: "t1", Name: "Lalbagh Cinemas", City: "Bengaluru", TimeZone: "UTC", Currency: "INR"}); err != nil {
		t.Fatalf("SaveTheatre: %v", err)
	}
	a.typedShow()
	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), adminEmail, adminPassword, booking.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	a.addStaff(t)
	return a
}

// staffClient is a client signed in as email.
func (a *app) staffClient(email, password string) *client {
	a.t.Helper()
	c := a.client()
	wantStatus(a.t, c.login(email, password), http.StatusSeeOther)
	return c
}

// counterCSRF is the CSRF token of the box office's page.
func (c *client) counterCSRF() string {
	c.t.Helper()
	tok, _ := c.get("/admin/boxoffice?show=" + typedShowID).doc(c.t).Find(`meta[name="csrf-token"]`).Attr("content")
	if tok == "" {
		c.t.Fatal("no csrf-token on the box office's page")
	}
	return tok
}

func (c *client) counterHold(seats ...string) response {
	c.t.Helper()
	return c.post("/admin/boxoffice/holds", url.Values{"_csrf": {c.counterCSRF()}, "show": {typedShowID}, "seat": seats})
}

// mustCounterHold holds seats at the counter and returns the hold's page.
func (c *client) mustCounterHold(seats ...string) string {
	c.t.Helper()
	res := c.counterHold(seats...)
	wantStatus(c.t, res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/admin/boxoffice/holds/") {
		c.t.Fatalf("counter hold went to %q", loc)
	}
	return loc
}

func (c *client) sell(holdPath string, form url.Values) response {
	c.t.Helper()
	form.Set("_csrf", c.counterCSRF())
	return c.post(holdPath+"/sell", form)
}

// mustSell sells the hold and returns the booking page's path.
func (c *client) mustSell(holdPath string, form url.Values) string {
	c.t.Helper()
	res := c.sell(holdPath, form)
	wantStatus(c.t, res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	if !strings.HasPrefix(loc, "/admin/boxoffice/bookings/") {
		c.t.Fatalf("Sell went to %q", loc)
	}
	return loc
}

func bookingIDOf(path string) string {
	id := strings.TrimPrefix(path, "/admin/boxoffice/bookings/")
	id, _, _ = strings.Cut(id, "?")
	return id
}

func attr(t *testing.T, d *goquery.Document, sel, name string) string {
	t.Helper()
	v, ok := d.Find(sel).First().Attr(name)
	if !ok {
		t.Errorf("no %s on %s", name, sel)
	}
	return v
}

// TestCounterSale: staff hold three seats at the counter (over the cap per
// address, after online sales closed, with HOLD_RATE 1), choose a type
// per seat and sell for cash; the answer has the §20 hooks, the ticket,
// the change, and a link to the print page; the web's map shows the seats
// booked.
func TestCounterSale(t *testing.T) {
	a := newCounterApp(t)
	// Two hours before the start: online sales closed (SALES_CLOSE -24h),
	// and the show is offered first at the counter.
	a.clock.Set(testShowStart.Add(-2 * time.Hour))
	staff := a.staffClient(staffEmail, staffPassword)
	d := staff.get("/admin/boxoffice").doc(t)
	if got := d.Find(`form[action="/admin/boxoffice/holds"] input[type="checkbox"][name="seat"]`).Length(); got != 30 {
		t.Fatalf("the counter's map has %d seat checkboxes, want 30", got)
	}
	if v, _ := d.Find(`select[name="show"] option[selected]`).Attr("value"); v != typedShowID {
		t.Errorf("show chosen %q, want %s", v, typedShowID)
	}
	// Two holds in a row: the second replaces the first (one customer at
	// a time), HOLD_RATE 1 notwithstanding.
	staff.mustCounterHold("A4")
	second := staff.counterHold("A1", "A2", "A3")
	wantStatus(t, second, http.StatusSeeOther)
	holdPath := second.Header.Get("Location")
	// The session has its counter id from the first hold: the second
	// does not write it again (a written session sets its cookie).
	for _, ck := range second.Cookies() {
		if ck.Name == "boxoffice_session" {
			t.Errorf("the second counter hold rewrote the session (Set-Cookie %s)", ck.Name)
		}
	}
	states := seatStates(a.client().get("/shows/" + typedShowID).doc(t))
	if states["A4"] != "available" || states["A1"] != "held" {
		t.Errorf("online map after the second counter hold: A4 %s, A1 %s; want available, held", states["A4"], states["A1"])
	}
	d = staff.get(holdPath).doc(t)
	if n := d.Find(`select[name="type_A1"] option`).Length(); n != 4 {
		t.Errorf("seat A1 offers %d types at the box office, want 4 (adult, child, senior, comp)", n)
	}
	res := staff.sell(holdPath, url.Values{"method": {"cash"}, "type_A1": {"adult"}, "type_A2": {"child"}, "type_A3": {"senior"},
		"tendered": {"500"}, "email": {testEmail}})
	wantStatus(t, res, http.StatusSeeOther)
	page := res.Header.Get("Location")
	d = staff.get(page).doc(t)
	b := d.Find("[data-booking-id]")
	for name, want := range map[string]string{
		"data-booking-id": bookingIDOf(page), "data-state": "confirmed", "data-channel": "box_office",
		"data-method": "cash", "data-amount": "39600",
	} {
		if got, _ := b.Attr(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for seat, want := range map[string][2]string{"A1": {"adult", "18000"}, "A2": {"child", "9000"}, "A3": {"senior", "12600"}} {
		el := d.Find(`[data-seat-id="` + seat + `"][data-ticket-type]`)
		if typ, _ := el.Attr("data-ticket-type"); typ != want[0] {
			t.Errorf("seat %s type %q, want %s", seat, typ, want[0])
		}
		if price, _ := el.Attr("data-price"); price != want[1] {
			t.Errorf("seat %s price %q, want %s", seat, price, want[1])
		}
	}
	bk, err := a.store.Booking(context.Background(), bookingIDOf(page))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Find(".counter-ticket [data-ticket-code]").Text(); got != bk.TicketCode {
		t.Errorf("ticket code shown %q, want %q", got, bk.TicketCode)
	}
	if d.Find(".counter-qr svg.ticket-qr").Length() != 1 {
		t.Error("no QR code on the counter's answer")
	}
	// The page prints itself: the print page's tickets, one per seat, in
	// print media only (print.css, linked for print), all else hidden there.
	tickets := d.Find(".print-only [data-ticket]")
	var seats []string
	tickets.Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		seats = append(seats, id)
		if code, _ := s.Attr("data-ticket-code"); code != bk.TicketCode {
			t.Errorf("the printed ticket of %s has code %q, want %q", id, code, bk.TicketCode)
		}
		if s.Find("svg.ticket-qr").Length() != 1 {
			t.Errorf("the printed ticket of %s has no QR code", id)
		}
	})
	if strings.Join(seats, " ") != "A1 A2 A3" {
		t.Errorf("the answer's printed tickets are for %q, want A1 A2 A3, one per seat", seats)
	}
	if n := d.Find("[data-ticket]").Length(); n != tickets.Length() {
		t.Errorf("%d [data-ticket] on the answer, %d of them print-only: all should be", n, tickets.Length())
	}
	if d.Find(`link[rel="stylesheet"][href*="print.css"][media="print"]`).Length() != 1 {
		t.Error("the answer does not link print.css for print media")
	}
	if !d.Find("[data-booking-id]").HasClass("screen-only") {
		t.Error("the answer's booking is not hidden in print media (.screen-only)")
	}
	if href := attr(t, d, "[data-print-url]", "href"); href != "/bookings/"+bk.ID+"/print?print=1" {
		t.Errorf("print link %q, want /bookings/%s/print?print=1 (printing as it opens)", href, bk.ID)
	}
	if u := attr(t, d, "[data-print-url]", "data-print-url"); u != "/bookings/"+bk.ID+"/print" {
		t.Errorf("the print page %q, want /bookings/%s/print", u, bk.ID)
	}
	if _, ok := d.Find("[data-print-auto]").Attr("data-print-auto"); !ok {
		t.Error("the answer to Sell does not open the print dialog")
	}
	if d.Find(`script[src*="counterprint.js"]`).Length() != 1 {
		t.Error("the answer to Sell has no print script")
	}
	if got := strings.TrimSpace(d.Find("[data-change] strong").Text()); got != "₹104" {
		t.Errorf("change to give %q, want ₹104 (500 − 396)", got)
	}
	if bk.SoldBy != staffEmail || bk.Email != testEmail {
		t.Errorf("sold by %q to %q, want %s, %s", bk.SoldBy, bk.Email, staffEmail, testEmail)
	}
	states = seatStates(a.client().get("/shows/" + typedShowID).doc(t))
	for _, s := range []string{"A1", "A2", "A3"} {
		if states[s] != "booked" {
			t.Errorf("online map: %s is %s, want booked", s, states[s])
		}
	}
}

// TestCounterHoldRefused: a taken seat is 409 with data-conflict on it,
// too many seats 422, a show the box office closed or a cancelled one
// 410; someone not signed in goes to the sign-in page.
func TestCounterHoldRefused(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	staff.mustCounterHold("B1")
	other := a.staffClient(adminEmail, adminPassword)
	res := other.counterHold("B1", "B2")
	wantStatus(t, res, http.StatusConflict)
	if v, _ := res.doc(t).Find(`[data-seat-id="B1"]`).Attr("data-conflict"); v != "true" {
		t.Errorf("the lost seat B1 has data-conflict %q, want true", v)
	}
	wantStatus(t, other.counterHold("C1", "C2", "C3", "C4", "C5"), http.StatusUnprocessableEntity)
	res = a.client().get("/admin/boxoffice")
	if wantStatus(t, res, http.StatusSeeOther); res.Header.Get("Location") != "/admin/login" {
		t.Errorf("the box office for someone not signed in goes to %q, want /admin/login", res.Header.Get("Location"))
	}

	// BOXOFFICE_CLOSE: open 29 minutes after the start, closed at 30.
	a.clock.Set(testShowStart.Add(29 * time.Minute))
	other.mustCounterHold("C1")
	a.clock.Set(testShowStart.Add(30 * time.Minute))
	wantStatus(t, other.counterHold("C2"), http.StatusGone)
}

// TestCounterClosedAndCancelled: Sell of a hold is 410 once
// BOXOFFICE_CLOSE has passed, and so are hold and Sell of a cancelled
// show.
func TestCounterClosedAndCancelled(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	a.clock.Set(testShowStart.Add(20 * time.Minute))
	holdPath := staff.mustCounterHold("A1")
	a.clock.Set(testShowStart.Add(30 * time.Minute))
	wantStatus(t, staff.sell(holdPath, url.Values{"method": {"cash"}}), http.StatusGone)

	b := newCounterApp(t)
	staff = b.staffClient(staffEmail, staffPassword)
	holdPath = staff.mustCounterHold("A1")
	if _, _, err := b.svc.CancelShow(context.Background(), typedShowID); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, staff.sell(holdPath, url.Values{"method": {"cash"}}), http.StatusGone)
	wantStatus(t, staff.counterHold("A2"), http.StatusGone)
}

// TestCounterSellRefused: an unknown method, comp without a reason, a
// type not sold for the seat, or only accompanied seats is 422 naming the
// rule or seat, with nothing sold; a seat lost since the hold lapsed is
// 409 naming it; another staff session's hold is 404.
func TestCounterSellRefused(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	holdPath := staff.mustCounterHold("A1", "D2")
	for _, c := range []struct {
		name       string
		form       url.Values
		seat, rule string
	}{
		{"unknown method", url.Values{"method": {"cheque"}}, "", "method"},
		{"no method", url.Values{}, "", "method"},
		{"comp without a reason", url.Values{"method": {"comp"}, "reason": {"  "}}, "", "reason"},
		{"senior on a Prime seat", url.Values{"method": {"cash"}, "type_D2": {"senior"}}, "D2", ""},
		{"accompanied only", url.Values{"method": {"cash"}, "type_A1": {"child"}, "type_D2": {"child"}}, "", "accompanied"},
	} {
		res := staff.sell(holdPath, c.form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if c.seat != "" {
			if got, _ := d.Find("[data-error-seat]").Attr("data-error-seat"); got != c.seat {
				t.Errorf("%s: data-error-seat %q, want %s", c.name, got, c.seat)
			}
		}
		if c.rule != "" {
			if got, _ := d.Find("[data-rule]").Attr("data-rule"); got != c.rule {
				t.Errorf("%s: data-rule %q, want %s", c.name, got, c.rule)
			}
		}
	}
	for _, seat := range mustSeats(t, a, typedShowID) {
		if seat.Status == booking.SeatBooked {
			t.Errorf("seat %s booked after refused Sells", seat.ID)
		}
	}
	if n := countBookings(t, a, typedShowID); n != 0 {
		t.Errorf("%d bookings after refused Sells, want 0", n)
	}

	// Another staff session: 404 on the hold, its Sell and its total.
	other := a.staffClient(adminEmail, adminPassword)
	wantStatus(t, other.get(holdPath), http.StatusNotFound)
	wantStatus(t, other.sell(holdPath, url.Values{"method": {"cash"}}), http.StatusNotFound)

	// The counter's lock lapses and the web takes D2: Sell is 409 on it.
	a.clock.Set(testShowStart.Add(-25 * time.Hour)) // online sales still open
	web := a.client()
	res := web.post("/shows/"+typedShowID+"/holds", url.Values{"_csrf": {webCSRF(t, web)}, "seat": {"D2"}})
	wantStatus(t, res, http.StatusSeeOther)
	res = staff.sell(holdPath, url.Values{"method": {"cash"}})
	wantStatus(t, res, http.StatusConflict)
	if v, _ := res.doc(t).Find(`[data-seat-id="D2"][data-conflict]`).Attr("data-conflict"); v != "true" {
		t.Errorf("lost seat D2 has data-conflict %q, want true", v)
	}
	// The hold keeps A1 (its lock has lapsed, and is still its own).
	holdID := strings.TrimPrefix(holdPath, "/admin/boxoffice/holds/")
	for _, seat := range mustSeats(t, a, typedShowID) {
		if seat.ID == "A1" && (seat.Status != booking.SeatLocked || seat.HoldID != holdID) {
			t.Errorf("A1 is %s by %q after the lost Sell, want locked by the counter's hold", seat.Status, seat.HoldID)
		}
	}
}

// webCSRF is the CSRF token of the typed show's online map.
func webCSRF(t *testing.T, c *client) string {
	t.Helper()
	tok, _ := c.get("/shows/" + typedShowID).doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	return tok
}

func mustSeats(t *testing.T, a *app, showID string) []booking.Seat {
	t.Helper()
	seats, err := a.store.Seats(context.Background(), showID)
	if err != nil {
		t.Fatal(err)
	}
	return seats
}

func countBookings(t *testing.T, a *app, showID string) int {
	t.Helper()
	list, err := a.store.ShowBookings(context.Background(), showID)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// TestCounterComp: comp with a reason sells every seat at 0.
func TestCounterComp(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	page := staff.mustSell(staff.mustCounterHold("A1", "D2"), url.Values{"method": {"comp"}, "reason": {"manager's guest"}, "type_A1": {"comp"}})
	d := staff.get(page).doc(t)
	if got := amountOf(t, d); got != "0" {
		t.Errorf("comp amount %s, want 0", got)
	}
	if m, _ := d.Find("[data-method]").Attr("data-method"); m != "comp" {
		t.Errorf("data-method %q, want comp", m)
	}
	d.Find("[data-seat-id][data-price]").Each(func(_ int, s *goquery.Selection) {
		if p, _ := s.Attr("data-price"); p != "0" {
			t.Errorf("comp seat priced %s", p)
		}
	})
}

// TestCounterRefund: a box-office booking is refunded at the counter
// before its show starts (its seats free again); refunding it again, an
// online booking, or one after the start is 409 with why.
func TestCounterRefund(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	page := staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"card"}, "reference": {"T-77"}})
	id := bookingIDOf(page)
	refund := func(c *client, id string, form url.Values) response {
		form.Set("_csrf", c.counterCSRF())
		return c.post("/admin/boxoffice/bookings/"+id+"/refund", form)
	}
	res := refund(staff, id, url.Values{})
	wantStatus(t, res, http.StatusSeeOther)
	d := staff.get(res.Header.Get("Location")).doc(t)
	if s, _ := d.Find("[data-booking-id]").Attr("data-state"); s != "refunded" {
		t.Errorf("after the refund data-state %q, want refunded", s)
	}
	bk, _ := a.store.Booking(context.Background(), id)
	if bk.RefundMethod != booking.MethodCard || bk.RefundedBy != staffEmail {
		t.Errorf("refunded by %s, %q; want card (the sale's), %s", bk.RefundMethod, bk.RefundedBy, staffEmail)
	}
	if got := seatStates(a.client().get("/shows/" + typedShowID).doc(t)); got["A1"] != "available" {
		t.Errorf("A1 is %s after the refund, want available", got["A1"])
	}
	res = refund(staff, id, url.Values{})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.doc(t).Text(), "already") {
		t.Error("refunding again does not say it was refunded already")
	}

	// An online booking: 409, refund it in the queue.
	a.clock.Set(testShowStart.Add(-25 * time.Hour))
	online := a.bookAt(typedShowID, "C1")
	res = refund(staff, online.ID, url.Values{})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.doc(t).Text(), "refund online bookings in the refund queue") {
		t.Error("refunding an online booking at the counter does not send it to the refund queue")
	}

	// After the start: 409.
	later := staff.mustSell(staff.mustCounterHold("B1"), url.Values{"method": {"cash"}})
	a.clock.Set(testShowStart)
	wantStatus(t, refund(staff, bookingIDOf(later), url.Values{}), http.StatusConflict)
}

// TestCashUp: per staff account, a day's sales by method, comp seats and
// refunds at the counter, net cash; staff see their own row, admins
// everyone's; the CSV has the same.
func TestCashUp(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	admin := a.staffClient(adminEmail, adminPassword)
	staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"cash"}})                             // 36000
	refunded := staff.mustSell(staff.mustCounterHold("B1"), url.Values{"method": {"cash"}, "type_B1": {"adult"}}) // 18000
	staff.mustSell(staff.mustCounterHold("D2"), url.Values{"method": {"card"}})                                   // 25000
	staff.mustSell(staff.mustCounterHold("C1"), url.Values{"method": {"comp"}, "reason": {"critic"}})             // 0
	admin.mustSell(admin.mustCounterHold("E2", "E3"), url.Values{"method": {"card"}})                             // 50000
	form := url.Values{"_csrf": {staff.counterCSRF()}}
	wantStatus(t, staff.post("/admin/boxoffice/bookings/"+bookingIDOf(refunded)+"/refund", form), http.StatusSeeOther)
	day := testStart.Format(time.DateOnly)

	cells := func(d *goquery.Document, who string) map[string]string {
		out := map[string]string{}
		d.Find(`[data-staff="` + who + `"] [data-col]`).Each(func(_ int, s *goquery.Selection) {
			col, _ := s.Attr("data-col")
			out[col], _ = s.Attr("data-value")
		})
		return out
	}
	d := staff.get("/admin/boxoffice/cashup?date=" + day).doc(t)
	want := map[string]string{"sales": "4", "seats": "5", "cash": "54000", "card": "25000", "comp": "1",
		"cash_refunds": "18000", "card_refunds": "0", "net": "36000"}
	if got := cells(d, staffEmail); !mapsEqual(got, want) {
		t.Errorf("staff's own row %v, want %v", got, want)
	}
	if n := d.Find("[data-staff]").Length(); n != 1 {
		t.Errorf("staff see %d rows, want their own only", n)
	}
	d = admin.get("/admin/boxoffice/cashup?date=" + day + "&theatre=t1").doc(t)
	if got := cells(d, adminEmail); got["sales"] != "1" || got["card"] != "50000" || got["net"] != "0" {
		t.Errorf("admin's row %v, want 1 sale, 50000 by card", got)
	}
	if got := cells(d, staffEmail); !mapsEqual(got, want) {
		t.Errorf("staff's row as the admin sees it %v, want %v", got, want)
	}
	res := admin.get("/admin/boxoffice/cashup?date=" + day + "&theatre=t1&format=csv")
	wantStatus(t, res, http.StatusOK)
	body := res.body
	if !strings.Contains(body, day+",t1,"+staffEmail+",INR,4,5,54000,25000,1,18000,0,36000") {
		t.Errorf("CSV lacks the staff's line:\n%s", body)
	}
	// The next day: nothing.
	d = staff.get("/admin/boxoffice/cashup?date=" + testStart.AddDate(0, 0, 1).Format(time.DateOnly)).doc(t)
	if got := cells(d, staffEmail); got["sales"] != "0" {
		t.Errorf("the next day's row %v, want no sales", got)
	}
	wantStatus(t, staff.get("/admin/boxoffice/cashup?date=yesterday"), http.StatusUnprocessableEntity)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCounterCancelledShow: cancelling a show with box-office bookings
// makes them refund_due without a provider, REFUND_AUTOMATICALLY
// notwithstanding; a comp (amount 0) is refunded at once; the refund
// queue sends the others to the counter, where they are refunded, after
// the start too.
func TestCounterCancelledShow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	p := counterPolicy
	p.RefundAutomatically = true
	a := startAppWith(t, path, booking.NewManualClock(testStart), p, func(o *web.Options) {
		o.AdminPasswordCost = bcrypt.MinCost
		o.AdminIdle, o.SessionIdle = 50*365*24*time.Hour, 50*365*24*time.Hour
	})
	a.typedShow()
	if _, err := booking.NewAdmins(a.store, nil, bcrypt.MinCost).Ensure(context.Background(), adminEmail, adminPassword, booking.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	admin := a.staffClient(adminEmail, adminPassword)
	paid := bookingIDOf(admin.mustSell(admin.mustCounterHold("A1"), url.Values{"method": {"cash"}}))
	comp := bookingIDOf(admin.mustSell(admin.mustCounterHold("A2"), url.Values{"method": {"comp"}, "reason": {"press"}}))
	res := admin.post("/admin/shows/"+typedShowID+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}})
	wantStatus(t, res, http.StatusSeeOther)
	got := func(id string) booking.Booking {
		b, err := a.store.Booking(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if b := got(paid); b.State != booking.BookingRefundDue || b.RefundID != "" {
		t.Errorf("paid box-office booking %s (refund %q), want refund_due and never sent to the provider", b.State, b.RefundID)
	}
	if b := got(comp); b.State != booking.BookingRefunded {
		t.Errorf("comp booking %s, want refunded at once", b.State)
	}
	d := admin.get("/admin/shows/" + typedShowID).doc(t)
	q := d.Find(`[data-refund-due][data-booking-id="` + paid + `"]`)
	if q.Find("[data-refund-at-counter]").Length() != 1 || q.Find("form").Length() != 0 {
		t.Error("the refund queue does not send the box-office booking to the counter")
	}
	wantStatus(t, admin.post("/admin/bookings/"+paid+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusConflict)
	// Nor is it "refunded elsewhere": its money goes back at the counter.
	wantStatus(t, admin.post("/admin/bookings/"+paid+"/refunded", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusConflict)
	if b := got(paid); b.State != booking.BookingRefundDue {
		t.Errorf("after refunded elsewhere: %s, want refund_due still", b.State)
	}
	a.clock.Set(testShowStart.Add(time.Hour))
	res = admin.post("/admin/boxoffice/bookings/"+paid+"/refund", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, res, http.StatusSeeOther)
	if b := got(paid); b.State != booking.BookingRefunded || b.RefundMethod != booking.MethodCash || b.RefundedBy != adminEmail {
		t.Errorf("after the counter refund: %s by %s, %q; want refunded by cash, %s", b.State, b.RefundMethod, b.RefundedBy, adminEmail)
	}
}

// TestCounterHouseSeats: the counter's map offers a house seat as any
// free seat, and the counter holds and sells it; a blocked seat is taken
// at the counter too (SPEC §16), and online both stay unavailable.
func TestCounterHouseSeats(t *testing.T) {
	a := newCounterApp(t)
	a.clock.Set(testShowStart.Add(-2 * time.Hour))
	admin := a.staffClient(adminEmail, adminPassword)
	reserve := func(reserve string, seats ...string) {
		t.Helper()
		res := admin.post("/admin/shows/"+typedShowID+"/reserve", url.Values{"_csrf": {admin.adminCSRF()}, "reserve": {reserve}, "seat": seats})
		wantStatus(t, res, http.StatusSeeOther)
	}
	reserve("house", "A1", "A2")
	reserve("blocked", "A3")

	staff := a.staffClient(staffEmail, staffPassword)
	counter := seatStates(staff.get("/admin/boxoffice?show=" + typedShowID).doc(t))
	online := seatStates(a.client().get("/shows/" + typedShowID).doc(t))
	for seat, want := range map[string][2]string{"A1": {"available", "unavailable"}, "A3": {"unavailable", "unavailable"}, "A4": {"available", "available"}} {
		if counter[seat] != want[0] || online[seat] != want[1] {
			t.Errorf("%s is %s at the counter and %s online; want %s and %s", seat, counter[seat], online[seat], want[0], want[1])
		}
	}
	res := staff.counterHold("A3", "A4")
	wantStatus(t, res, http.StatusConflict)
	if v, _ := res.doc(t).Find(`[data-seat-id="A3"]`).Attr("data-conflict"); v != "true" {
		t.Errorf("the blocked seat A3 has data-conflict %q, want true", v)
	}
	page := staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"cash"}, "type_A1": {"adult"}, "type_A2": {"adult"}})
	if got := seatStates(a.client().get("/shows/" + typedShowID).doc(t)); got["A1"] != "booked" || got["A2"] != "booked" {
		t.Errorf("online after the counter sold A1, A2 (%s): %s, %s; want booked", page, got["A1"], got["A2"])
	}
}
