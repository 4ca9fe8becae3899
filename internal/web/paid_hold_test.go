package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// TestCheckoutOfPaidHold: the checkout of a hold whose payment went
// through says what became of it, with a link to the booking: booked, or
// a refund due and why (a late payment whose seat someone else took), not
// "already paid for".
func TestCheckoutOfPaidHold(t *testing.T) {
	a := newApp(t)
	ctx := context.Background()
	settle := func(p booking.Payment) booking.Settlement {
		t.Helper()
		st, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{ID: "evt_" + booking.NewID(), Type: booking.EventPaymentSucceeded,
			PaymentID: p.ID, HoldID: p.HoldID, Amount: p.Amount, Currency: p.Currency})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	late := a.client()
	latePath := late.mustHold("A1")
	wantStatus(t, late.pay(latePath), http.StatusSeeOther)
	lateP := a.paymentOfHold(strings.TrimPrefix(latePath, "/holds/"))
	a.clock.Advance(16 * time.Minute) // the hold lapses, and someone takes A1
	a.client().mustHold("A1")
	if st := settle(lateP); st.Effect != booking.EffectRefundDue {
		t.Fatalf("the late payment: %s, want refund_due", st.Effect)
	}

	paid := a.client()
	paidPath := paid.mustHold("B1")
	wantStatus(t, paid.pay(paidPath), http.StatusSeeOther)
	paidP := a.paymentOfHold(strings.TrimPrefix(paidPath, "/holds/"))
	if st := settle(paidP); st.Effect != booking.EffectBooked {
		t.Fatalf("the payment: %s, want booked", st.Effect)
	}

	for _, tc := range []struct {
		name      string
		c         *client
		path      string
		bookingID string
		says      []string
	}{
		{"refund due", late, latePath, lateP.BookingID, []string{"refund due", "no longer free"}},
		{"booked", paid, paidPath, paidP.BookingID, []string{"they are booked"}},
	} {
		res := tc.c.get(tc.path)
		wantStatus(t, res, http.StatusGone)
		d := res.doc(t)
		text := d.Find(".checkout").Text()
		for _, s := range tc.says {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the checkout does not say %q:\n%s", tc.name, s, text)
			}
		}
		if strings.Contains(text, "already been paid for") {
			t.Errorf("%s: the checkout says only that it was paid for", tc.name)
		}
		if d.Find(`.checkout a[href="/bookings/`+tc.bookingID+`"]`).Length() != 1 {
			t.Errorf("%s: the checkout has no link to the booking", tc.name)
		}
		if d.Find(`form[action$="/pay"]`).Length() != 0 {
			t.Errorf("%s: the checkout still offers Pay", tc.name)
		}
	}
}
