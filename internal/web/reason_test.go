package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
)

// TestReasonShowCancelledInLanguage (SPEC §19): the reason stored on a
// booking of a cancelled show (a code) reads in the page's language: on the
// counter's page of a box-office sale of the show, Hindi with ?lang=hi,
// and with ?lang=en the English the page showed before codes.
func TestReasonShowCancelledInLanguage(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(adminEmail, adminPassword)
	page := staff.mustSell(staff.mustCounterHold("A1"), url.Values{"method": {"card"}, "reference": {"T-1"}})
	wantStatus(t, staff.post("/admin/shows/"+typedShowID+"/cancel", url.Values{"_csrf": {staff.adminCSRF()}, "confirm": {"yes"}}), http.StatusSeeOther)
	b, err := a.store.Booking(context.Background(), bookingIDOf(page))
	if err != nil || b.State != booking.BookingRefundDue || b.Reason != booking.ReasonShowCancelled {
		t.Fatalf("the sale after the cancellation: %s %q, %v; want refund_due, %s", b.State, b.Reason, err, booking.ReasonShowCancelled)
	}
	for _, tc := range []struct{ lang, want, not string }{
		{"hi", "शो रद्द कर दिया गया।", "The show was cancelled."},
		{"ta", "காட்சி ரத்து செய்யப்பட்டது.", "The show was cancelled."},
		{"en", "The show was cancelled.", booking.ReasonShowCancelled},
	} {
		res := staff.get("/admin/boxoffice/bookings/" + b.ID + "?lang=" + tc.lang)
		wantStatus(t, res, http.StatusOK)
		d := res.doc(t)
		if l, _ := d.Find("html").Attr("lang"); l != tc.lang {
			t.Errorf("the counter's page in %s has html lang %q", tc.lang, l)
		}
		var notes []string
		d.Find("dd").Each(func(_ int, s *goquery.Selection) { notes = append(notes, strings.TrimSpace(s.Text())) })
		if !slices.Contains(notes, tc.want) || strings.Contains(d.Text(), tc.not) {
			t.Errorf("%s: the counter's page says %q; want %q, never %q", tc.lang, notes, tc.want, tc.not)
		}
	}
	// The admin pages stay English, whatever the visitor's language.
	res := staff.get("/admin/refunds?lang=hi")
	wantStatus(t, res, http.StatusOK)
	if text := res.doc(t).Find("main").Text(); !strings.Contains(text, "The show was cancelled.") || strings.Contains(text, booking.ReasonShowCancelled) {
		t.Errorf("the refund queue says:\n%s\nwant the reason in English", strings.Join(strings.Fields(text), " "))
	}
}

// TestReasonRefundFailedInLanguage (SPEC §19): a booking's reason with a
// failed refund added reads in the page's language with the provider's
// words as they are, also when the reason was stored in English before
// codes; in English it reads as it did.
func TestReasonRefundFailedInLanguage(t *testing.T) {
	a := newApp(t)
	b := a.book("A1", "A2")
	// As a release before codes stored a late payment's reason.
	a.exec(`UPDATE bookings SET state = 'refund_due', reason = ? WHERE id = ?`, []any{
		"Your payment arrived after your hold on seats A1, A2 had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.", b.ID})
	if _, err := booking.SettleRefundStep(context.Background(), a.store, a.clock.Now, booking.RefundEvent{
		ID: "evt_refund_failed", RefundID: "re_1", BookingID: b.ID, Reason: "expired_or_canceled_card"}); err != nil {
		t.Fatal(err)
	}
	stored, err := a.store.Booking(context.Background(), b.ID)
	if want := "seats_taken?count=2&seats=A1%2C+A2;refund_failed?provider_reason=expired_or_canceled_card"; err != nil || stored.Reason != want {
		t.Fatalf("reason %q, %v; want %q", stored.Reason, err, want)
	}
	for _, tc := range []struct {
		lang string
		want []string
		not  []string
	}{
		{"ta", []string{"expired_or_canceled_card", "A1, A2", "இருக்கைகள்"}, []string{"A refund failed", "no longer free", "refund_failed"}},
		{"hi", []string{"expired_or_canceled_card", "A1, A2", "रिफ़ंड"}, []string{"A refund failed", "no longer free", "refund_failed"}},
		{"en", []string{"Your payment arrived after your hold on seats A1, A2 had ended, and by then they were no longer free. Nothing was booked; your money will be refunded. " +
			"(A refund failed at the payment provider: expired_or_canceled_card; it is due again.)"}, []string{"refund_failed"}},
	} {
		res := a.client().get("/bookings/" + b.ID + "?lang=" + tc.lang + "&key=" + url.QueryEscape(stored.Key))
		wantStatus(t, res, http.StatusOK)
		alert := strings.TrimSpace(res.doc(t).Find(`#booking [role=alert]`).Text())
		for _, w := range tc.want {
			if !strings.Contains(alert, w) {
				t.Errorf("%s: the booking's reason reads %q; want %q in it", tc.lang, alert, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(alert, n) {
				t.Errorf("%s: the booking's reason reads %q; want no %q", tc.lang, alert, n)
			}
		}
	}
}
