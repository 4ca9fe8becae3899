package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestSalesClose (SPEC §10): once a show's sales have closed (SALES_CLOSE
// 0: its start), its seat map says so (data-on-sale="false"), and Hold and
// Pay are 410 with a clear message; a payment started before the close
// still settles.
func TestSalesClose(t *testing.T) {
	a := newApp(t)
	c := a.client()
	if v, _ := c.get("/shows/" + testShowID).doc(t).Find("form#hold-form").Attr("data-on-sale"); v != "true" {
		t.Errorf("data-on-sale %q before the start, want true", v)
	}
	payer := a.client()
	holdPath := payer.mustHold("A1")
	paid := payer.pay(holdPath)
	wantStatus(t, paid, http.StatusSeeOther)
	// Five minutes before the start someone holds a seat: the hold is
	// still live at the start, when Pay must be refused for the close.
	a.clock.Set(testShowStart.Add(-5 * time.Minute))
	late := a.client()
	latePath := late.mustHold("B1")
	tokenBefore := late.csrf()

	a.clock.Set(testShowStart) // the show starts
	d := c.get("/shows/" + testShowID).doc(t)
	if v, _ := d.Find("form#hold-form").Attr("data-on-sale"); v != "false" {
		t.Errorf("data-on-sale %q at the start, want false", v)
	}
	if _, disabled := d.Find(".holdbar-button").Attr("disabled"); !disabled || !strings.Contains(d.Text(), "Sales for this show have closed.") {
		t.Error("the seat map of a closed show still offers Hold, or does not say sales closed")
	}
	res := c.hold("A3")
	wantStatus(t, res, http.StatusGone)
	if !strings.Contains(res.body, "Sales for this show have closed.") {
		t.Errorf("hold after the close does not say why:\n%s", res.body)
	}
	res = late.post(latePath+"/pay", url.Values{"_csrf": {tokenBefore}, "email": {testEmail}})
	wantStatus(t, res, http.StatusGone)
	if !strings.Contains(res.body, "Sales for this show have closed.") {
		t.Errorf("Pay after the close does not say why:\n%s", res.body)
	}

	// The payment started before the close settles as usual.
	p := a.paymentOfHold(strings.TrimPrefix(holdPath, "/holds/"))
	st, err := a.svc.SettlePayment(context.Background(), booking.PaymentEvent{ID: "evt_" + booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: p.HoldID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || st.Effect != booking.EffectBooked {
		t.Errorf("a payment started before the close: %v, %v; want booked", st.Effect, err)
	}
}

// paymentOfHold is the payment Pay started for hold holdID.
func (a *app) paymentOfHold(holdID string) booking.Payment {
	a.t.Helper()
	ctx := context.Background()
	h, err := a.store.Hold(ctx, holdID)
	if err != nil {
		a.t.Fatal(err)
	}
	bookings, err := a.store.ShowBookings(ctx, h.ShowID)
	if err != nil {
		a.t.Fatal(err)
	}
	for _, b := range bookings {
		if b.HoldID == holdID {
			p, err := a.store.Payment(ctx, b.PaymentID)
			if err != nil {
				a.t.Fatal(err)
			}
			return p
		}
	}
	a.t.Fatalf("no payment for hold %s", holdID)
	return booking.Payment{}
}

// TestCancelShow (SPEC §10): an admin cancels a show with a held seat, a
// confirmed booking and a payment in flight. Sales stop, the hold is
// released, the booking is due a refund with the reason, the payment that
// lands afterwards is due one too, the pages say cancelled, and the home
// page no longer lists the show.
func TestCancelShow(t *testing.T) {
	a := newAdminApp(t)
	a.book("E1", "E2")
	holder := a.client()
	holder.mustHold("A1")
	payer := a.client()
	payPath := payer.mustHold("B2")
	wantStatus(t, payer.pay(payPath), http.StatusSeeOther)
	inFlight := a.paymentOfHold(strings.TrimPrefix(payPath, "/holds/"))

	admin := a.client()
	admin.mustLogin()
	page := admin.get("/admin/shows/" + testShowID).doc(t)
	form := page.Find("form[data-cancel-show]")
	if form.Length() != 1 || !strings.Contains(form.Text(), "1 confirmed booking is due a refund") {
		t.Fatalf("the admin show page has no cancel form saying what it does: %q", form.Text())
	}
	// Without the confirmation box: refused, nothing changed.
	res := admin.post("/admin/shows/"+testShowID+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if sh, _ := a.store.Show(context.Background(), testShowID); sh.Cancelled() {
		t.Fatal("the show was cancelled without the confirmation")
	}
	res = admin.post("/admin/shows/"+testShowID+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}})
	wantStatus(t, res, http.StatusSeeOther)

	d := a.client().get("/shows/" + testShowID).doc(t)
	if v, _ := d.Find("[data-show-state]").Attr("data-show-state"); v != "cancelled" {
		t.Errorf("seat map data-show-state %q, want cancelled", v)
	}
	if v, _ := d.Find("form#hold-form").Attr("data-on-sale"); v != "false" {
		t.Errorf("seat map data-on-sale %q, want false", v)
	}
	if st := seatStates(d); st["A1"] != "available" {
		t.Errorf("A1, held before, is %q after the cancellation, want available", st["A1"])
	}
	if res := a.client().hold("A2"); res.StatusCode != http.StatusGone {
		t.Errorf("hold of a cancelled show: %d, want 410", res.StatusCode)
	}
	if home := a.client().get("/").body; strings.Contains(home, `data-show-id="`+testShowID+`"`) {
		t.Error("the home page still lists the cancelled show")
	}
	bookings, _ := a.store.ShowBookings(context.Background(), testShowID)
	found := false
	for _, b := range bookings {
		if b.SeatIDs[0] == "E1" {
			found = true
			if b.State != booking.BookingRefundDue || b.Reason != booking.ReasonShowCancelled {
				t.Errorf("confirmed booking after the cancellation: %s %q", b.State, b.Reason)
			}
		}
	}
	if !found {
		t.Error("the confirmed booking of E1 is missing")
	}
	st, err := a.svc.SettlePayment(context.Background(), booking.PaymentEvent{ID: "evt_" + booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: inFlight.ID, HoldID: inFlight.HoldID, Amount: inFlight.Amount, Currency: inFlight.Currency})
	if err != nil || st.Effect != booking.EffectRefundDue {
		t.Errorf("a payment landing after the cancellation: %v, %v; want refund_due", st.Effect, err)
	}
	bp := payer.get("/bookings/" + inFlight.BookingID).doc(t)
	if v, _ := bp.Find("[data-booking-id]").Attr("data-show-state"); v != "cancelled" || !strings.Contains(bp.Text(), "The show was cancelled.") {
		t.Errorf("booking page of the cancelled show: data-show-state %q, text %q", v, bp.Find("[data-booking-id]").Text())
	}
	if n := admin.get("/admin/shows/" + testShowID).doc(t).Find("[data-refund-due]").Length(); n != 2 {
		t.Errorf("%d bookings in the refund queue after the cancellation, want 2", n)
	}
}
