package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
)

const typedShowID = "typed"

// typedPrices are the types and prices of typedShow: adult, child
// (accompanied, under 12), senior (door check; Classic only) and comp
// (box office only).
var typedPrices = booking.ShowPrices{
	Types: []booking.TicketType{
		{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
		{ID: "child", Name: "Child", Note: "under 12", Accompanied: true, Online: true, BoxOffice: true},
		{ID: "senior", Name: "Senior", Note: "ID needed", DoorCheck: true, Online: true, BoxOffice: true},
		{ID: "comp", Name: "Comp", BoxOffice: true},
	},
	Cells: booking.PriceTable{
		{Category: "Classic", Type: "adult", Price: 18000},
		{Category: "Classic", Type: "child", Price: 9000},
		{Category: "Classic", Type: "senior", Price: 12600},
		{Category: "Classic", Type: "comp", Price: 0},
		{Category: "Prime", Type: "adult", Price: 25000},
		{Category: "Prime", Type: "child", Price: 12500},
		{Category: "Prime", Type: "comp", Price: 0},
	},
}

// typedShow stores testShow's hall again as show typedShowID, with its own
// price table typedPrices.
func (a *app) typedShow() {
	a.t.Helper()
	show, seats := testShow()
	show.ID = typedShowID
	for i := range seats {
		seats[i].ShowID = typedShowID
	}
	if err := booking.CreatePricedShowStep(context.Background(), a.store, time.Now, show, seats, typedPrices); err != nil {
		a.t.Fatalf("CreatePricedShowStep: %v", err)
	}
}

// typedHold holds seats of the typed show and returns the hold's path.
func (c *client) typedHold(seats ...string) string {
	c.t.Helper()
	res := c.post("/shows/"+typedShowID+"/holds", url.Values{"_csrf": {c.csrf()}, "seat": seats})
	wantStatus(c.t, res, http.StatusSeeOther)
	return res.Header.Get("Location")
}

func amountOf(t *testing.T, d *goquery.Document) string {
	t.Helper()
	sel := d.Find("[data-amount]")
	if sel.Length() != 1 {
		t.Fatalf("%d elements with data-amount, want 1", sel.Length())
	}
	v, _ := sel.Attr("data-amount")
	return v
}

func selectedType(d *goquery.Document, seat string) string {
	v, _ := d.Find(`select[name="type_` + seat + `"] option[selected]`).Attr("value")
	return v
}

// pendingOf is the tickets of the hold's pending payment: none while Pay
// created nothing.
func (a *app) pendingOf(holdPath string) []booking.SeatTicket {
	a.t.Helper()
	ts, err := a.svc.PendingTickets(context.Background(), strings.TrimPrefix(holdPath, "/holds/"))
	if err != nil {
		a.t.Fatal(err)
	}
	return ts
}

func TestCheckoutOffersTypes(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "D2")
	res := c.get(hold)
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	options := func(seat string) map[string]string {
		out := map[string]string{}
		d.Find(`[data-seat-id="` + seat + `"] select[name="type_` + seat + `"] option`).Each(func(_ int, o *goquery.Selection) {
			v, _ := o.Attr("value")
			out[v], _ = o.Attr("data-price")
		})
		return out
	}
	if got := options("A1"); len(got) != 3 || got["adult"] != "18000" || got["child"] != "9000" || got["senior"] != "12600" {
		t.Errorf("A1 (Classic) offers %v, want adult 18000, child 9000, senior 12600 (no comp: box office only)", got)
	}
	if got := options("D2"); len(got) != 2 || got["adult"] != "25000" || got["child"] != "12500" {
		t.Errorf("D2 (Prime) offers %v, want adult 25000, child 12500", got)
	}
	if a1, d2 := selectedType(d, "A1"), selectedType(d, "D2"); a1 != "adult" || d2 != "adult" {
		t.Errorf("chosen at first: A1 %q, D2 %q; want adult (the first not accompanied)", a1, d2)
	}
	if got := amountOf(t, d); got != "43000" {
		t.Errorf("data-amount %s, want 43000", got)
	}
	if d.Find(`button[data-update-total]`).Length() != 1 {
		t.Error("no Update total button")
	}
}

func TestCheckoutUpdateTotal(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "D2")

	// Without JavaScript: the Update total button posts the form to
	// /total, which shows the checkout with the choice.
	res := c.post(hold+"/total", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}, "type_A1": {"child"}, "type_D2": {"adult"}})
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	if got := amountOf(t, d); got != "34000" {
		t.Errorf("updated data-amount %s, want 34000 (child 9000 + adult 25000)", got)
	}
	if got := selectedType(d, "A1"); got != "child" {
		t.Errorf("A1 shown as %q, want child", got)
	}
	if v, _ := d.Find(`#pay-email`).Attr("value"); v != testEmail {
		t.Errorf("email field %q, want the typed %q kept", v, testEmail)
	}
	// With htmx: the total alone, and the Pay button's amount.
	res = c.get(hold+"/total?type_A1=senior&type_D2=child", "HX-Request", "true")
	wantStatus(t, res, http.StatusOK)
	d = res.doc(t)
	if got := amountOf(t, d); got != "25100" {
		t.Errorf("htmx total data-amount %s, want 25100 (senior 12600 + child 12500)", got)
	}
	if d.Find(`#pay-total[hx-swap-oob]`).Length() != 1 || d.Find("select").Length() != 0 {
		t.Errorf("the htmx answer is not the total fragment:\n%s", res.body)
	}
	// The seats' own prices follow too, each swapped into its row.
	for seat, want := range map[string]string{"A1": "₹126", "D2": "₹125"} {
		if got := strings.TrimSpace(d.Find(`#seat-price-` + seat + `[hx-swap-oob]`).Text()); got != want {
			t.Errorf("the htmx answer gives %s's price as %q, want %s", seat, got, want)
		}
	}
	if got := a.pendingOf(hold); len(got) != 0 {
		t.Errorf("updating the total made a payment: %+v", got)
	}
}

func TestPayRefusesTypes(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "D2")
	cases := []struct {
		name        string
		types       url.Values
		attr, value string
	}{
		{"box office only", url.Values{"type_A1": {"comp"}}, "data-error-seat", "A1"},
		{"not offered in Prime", url.Values{"type_D2": {"senior"}}, "data-error-seat", "D2"},
		{"no such type", url.Values{"type_A1": {"vip"}, "type_D2": {"adult"}}, "data-error-seat", "A1"},
		{"children only", url.Values{"type_A1": {"child"}, "type_D2": {"child"}}, "data-rule", "accompanied"},
	}
	for _, tc := range cases {
		form := url.Values{"_csrf": {c.csrf()}, "email": {testEmail}}
		for k, v := range tc.types {
			form[k] = v
		}
		res := c.post(hold+"/pay", form)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422", tc.name, res.StatusCode)
			continue
		}
		d := res.doc(t)
		if d.Find(`[`+tc.attr+`="`+tc.value+`"]`).Length() != 1 {
			t.Errorf("%s: no [%s=%q] in the answer", tc.name, tc.attr, tc.value)
		}
		if got := a.pendingOf(hold); len(got) != 0 {
			t.Errorf("%s: a refused Pay made a payment: %+v", tc.name, got)
		}
	}
}

// payTyped presses Pay on hold with types and returns where it went.
func payTyped(t *testing.T, c *client, hold string, types ...string) string {
	t.Helper()
	form := url.Values{"_csrf": {c.csrf()}, "email": {testEmail}}
	for i := 0; i+1 < len(types); i += 2 {
		form.Set("type_"+types[i], types[i+1])
	}
	res := c.post(hold+"/pay", form)
	wantStatus(t, res, http.StatusSeeOther)
	return res.Header.Get("Location")
}

func TestPayWithTypes(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "D2")
	ctx := context.Background()

	first := payTyped(t, c, hold, "A1", "child", "D2", "adult")
	p1, err := a.svc.Payment(ctx, strings.TrimPrefix(first, payment.CheckoutPath))
	if err != nil {
		t.Fatalf("payment of %s: %v", first, err)
	}
	if p1.Amount != 34000 || len(p1.Tickets) != 2 || p1.Tickets[0].Type != "child" || p1.Tickets[1].Price != 25000 {
		t.Errorf("payment %d %+v, want 34000: A1 child, D2 adult 25000", p1.Amount, p1.Tickets)
	}
	if b, err := a.store.Booking(ctx, p1.BookingID); err != nil || b.Amount != 34000 || len(b.Tickets) != 2 {
		t.Errorf("booking %+v, %v; want 34000 with its tickets", b, err)
	}
	// Back at checkout, the pending payment's choice is shown.
	d := c.get(hold).doc(t)
	if got := selectedType(d, "A1"); got != "child" || amountOf(t, d) != "34000" {
		t.Errorf("checkout after Pay shows A1 %q, amount %s; want child, 34000", got, amountOf(t, d))
	}
	// The same choice again: the same payment.
	if again := payTyped(t, c, hold, "A1", "child", "D2", "adult"); again != first {
		t.Errorf("Pay again with the same choice went to %s, want %s", again, first)
	}
	// Another choice: a new payment; the old one's page says replaced.
	second := payTyped(t, c, hold, "A1", "adult")
	if second == first {
		t.Fatalf("Pay with another choice reused %s", first)
	}
	p2, err := a.svc.Payment(ctx, strings.TrimPrefix(second, payment.CheckoutPath))
	if err != nil || p2.Amount != 43000 {
		t.Errorf("new payment %+v, %v; want 43000 (D2 without a choice gets the first type, adult)", p2, err)
	}
	page := c.get(first)
	wantStatus(t, page, http.StatusOK)
	if page.doc(t).Find("[data-replaced]").Length() != 1 {
		t.Errorf("the replaced payment's sandbox page does not say so:\n%s", page.body)
	}
	if b, _ := a.store.Booking(ctx, p1.BookingID); b.State != booking.BookingFailed {
		t.Errorf("the replaced payment's booking is %s, want failed", b.State)
	}
}

func TestStripeLineItemsPerType(t *testing.T) {
	mock := testkit.StripeMock(t)
	a := newStripeApp(t, mock)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "A2", "A3", "D2")
	res := c.post(hold+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {testEmail},
		"type_A1": {"adult"}, "type_A2": {"child"}, "type_A3": {"child"}, "type_D2": {"adult"}})
	wantStatus(t, res, http.StatusSeeOther)
	form := a.rec.Last(t, "POST /v1/checkout/sessions").Form
	type line struct{ name, amount, qty string }
	var got []line
	for i := 0; form.Get("line_items["+itoa(i)+"][quantity]") != ""; i++ {
		p := "line_items[" + itoa(i) + "]"
		got = append(got, line{form.Get(p + "[price_data][product_data][name]"), form.Get(p + "[price_data][unit_amount]"), form.Get(p + "[quantity]")})
	}
	want := []line{
		{"Monsoon Express — Classic seat, Adult", "18000", "1"},
		{"Monsoon Express — Classic seat, Child", "9000", "2"},
		{"Monsoon Express — Prime seat, Adult", "25000", "1"},
	}
	if len(got) != len(want) {
		t.Fatalf("line items %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line item %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Another choice expires the first session and opens another.
	firstSession := a.rec.Last(t, "POST /v1/checkout/sessions").Form.Get("client_reference_id")
	res = c.post(hold+"/pay", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}, "type_A2": {"adult"}})
	wantStatus(t, res, http.StatusSeeOther)
	old, err := a.store.Payment(context.Background(), firstSession)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.rec.Calls("POST /v1/checkout/sessions/"+old.CheckoutRef+"/expire")) != 1 || old.CheckoutClosedAt.IsZero() || old.ReplacedAt.IsZero() {
		t.Errorf("the replaced payment's session %s: expired %d times, closed at %v, replaced at %v; want expired once, closed, replaced",
			old.CheckoutRef, len(a.rec.Calls("POST /v1/checkout/sessions/"+old.CheckoutRef+"/expire")), old.CheckoutClosedAt, old.ReplacedAt)
	}
	if next := a.rec.Last(t, "POST /v1/checkout/sessions").Form.Get("client_reference_id"); next == firstSession {
		t.Error("no new session for the new payment")
	}
}

// bookTyped books seats of the typed show as types, the way production
// does: hold, Pay with the choice, the provider's success.
func (a *app) bookTyped(types booking.TypeChoice, seats ...string) booking.Booking {
	a.t.Helper()
	ctx := context.Background()
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, typedShowID, owner, seats)
	if err != nil {
		a.t.Fatalf("HoldSeats: %v", err)
	}
	started, err := a.svc.StartTypedPayment(ctx, holdID, owner, testEmail, types)
	if err != nil {
		a.t.Fatalf("StartTypedPayment: %v", err)
	}
	p := started.Payment
	s, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{
		ID: booking.NewID(), Type: booking.EventPaymentSucceeded, PaymentID: p.ID,
		HoldID: holdID, Amount: p.Amount, Currency: p.Currency,
	})
	if err != nil || s.Effect != booking.EffectBooked {
		a.t.Fatalf("SettlePayment: %v, %v", s.Effect, err)
	}
	return s.Booking
}

// seatsOf reads the seats an answer lists: data-ticket-type and data-price
// by data-seat-id, among elements with all three.
func seatsOf(d *goquery.Document) map[string][2]string {
	out := map[string][2]string{}
	d.Find("[data-seat-id][data-ticket-type][data-price]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		typ, _ := s.Attr("data-ticket-type")
		price, _ := s.Attr("data-price")
		out[id] = [2]string{typ, price}
	})
	return out
}

func TestBookingPageShowsTypes(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	b := a.bookTyped(booking.TypeChoice{"A1": "senior", "A2": "child"}, "A1", "A2", "D2")
	res := a.client().get("/bookings/" + b.ID + "?key=" + url.QueryEscape(b.Key))
	wantStatus(t, res, http.StatusOK)
	got := seatsOf(res.doc(t))
	want := map[string][2]string{"A1": {"senior", "12600"}, "A2": {"child", "9000"}, "D2": {"adult", "25000"}}
	if len(got) != len(want) {
		t.Fatalf("the booking page lists %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("seat %s: %v, want %v", id, got[id], w)
		}
	}
	if !strings.Contains(res.body, "under 12") {
		t.Error("the child's note is not shown")
	}
}

func TestDoorSaysCheck(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	a.typedShow()
	senior := a.bookTyped(booking.TypeChoice{"A1": "senior"}, "A1", "A2")
	adults := a.bookTyped(nil, "B1")
	door := a.client()
	wantStatus(t, door.login(staffEmail, staffPassword), http.StatusSeeOther)

	// A look-up that would admit says check, as the admit does.
	res := door.get("/admin/checkin?show=" + typedShowID + "&code=" + url.QueryEscape(senior.TicketCode))
	d := res.doc(t)
	if r, _, _ := checkin(t, res); r != "valid" || d.Find(`[data-checkin][data-door-check="true"]`).Length() != 1 {
		t.Errorf("look-up of a senior's ticket: %s, door check %d; want valid with data-door-check", r, d.Find(`[data-door-check="true"]`).Length())
	}
	res = door.admit(senior.TicketCode, typedShowID)
	d = res.doc(t)
	if r, _, _ := checkin(t, res); r != "admitted" || d.Find(`[data-checkin][data-door-check="true"]`).Length() != 1 {
		t.Errorf("admit a senior's ticket: %s; want admitted with data-door-check=true:\n%s", r, res.body)
	}
	if note := d.Find("[data-door-check-note]").Text(); !strings.Contains(note, "Senior") || !strings.Contains(note, "ID needed") {
		t.Errorf("the door's check says %q, want the type and its note", note)
	}
	if got := seatsOf(d); got["A1"] != [2]string{"senior", "12600"} || got["A2"] != [2]string{"adult", "18000"} {
		t.Errorf("the door lists %v, want A1 senior and A2 adult", got)
	}
	res = door.admit(adults.TicketCode, typedShowID)
	if r, _, _ := checkin(t, res); r != "admitted" || res.doc(t).Find(`[data-door-check]`).Length() != 0 {
		t.Errorf("admit an adult's ticket: %s, with a door check; want admitted without", r)
	}
}
