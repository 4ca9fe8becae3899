package storetest

import (
	"context"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// langTests are a booking's language (SPEC §19): kept from its Pay (or
// counter sale) through every later step and read.
var langTests = []test{
	{"KeptThroughPayConfirmRead", testLangKept},
	{"CounterSaleKeepsLang", testLangCounter},
}

// testLangKept: the language of Pay is stored with the booking, a repeated
// Pay in another language changes it, and confirming, cancelling the show
// and refunding keep it; every read (by id, by ticket code, by email, the
// refund queue) returns it.
func testLangKept(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	start := newPaymentStart()
	start.Lang = "hi"
	p, b, err := s.StartPayment(ctx, h.ID, h.Owner, start, at(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if b.Lang != "hi" || getBooking(t, s, b.ID).Lang != "hi" {
		t.Fatalf("the booking's language after Pay in hi: %q (stored %q)", b.Lang, getBooking(t, s, b.ID).Lang)
	}
	again := newPaymentStart()
	again.Lang = "ta"
	if _, b2, err := s.StartPayment(ctx, h.ID, h.Owner, again, at(2*time.Second)); err != nil || b2.ID != b.ID || b2.Lang != "ta" {
		t.Fatalf("Pay again in ta: booking %s lang %q, %v; want %s in ta", b2.ID, b2.Lang, err, b.ID)
	}
	code := booking.NewTicketCode()
	settle(t, s, event(p, booking.EventPaymentSucceeded), code, at(3*time.Second))
	if got := getBooking(t, s, b.ID); got.State != booking.BookingConfirmed || got.Lang != "ta" {
		t.Errorf("confirmed booking: state %s lang %q; want confirmed in ta", got.State, got.Lang)
	}
	if got, err := s.BookingByTicketCode(ctx, code); err != nil || got.Lang != "ta" {
		t.Errorf("BookingByTicketCode: lang %q, %v; want ta", got.Lang, err)
	}
	if found, err := s.BookingsByEmail(ctx, moviegoerEmail, 10); err != nil || len(found) != 1 || found[0].Lang != "ta" {
		t.Errorf("BookingsByEmail: %+v, %v; want the booking in ta", found, err)
	}
	if _, _, err := s.CancelShow(ctx, show.ID, at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if queue, err := s.RefundQueue(ctx, 0, 0); err != nil || len(queue) != 1 || queue[0].Lang != "ta" {
		t.Errorf("RefundQueue after the show's cancellation: %+v, %v; want the booking in ta", queue, err)
	}
	if got, err := s.MarkRefunded(ctx, b.ID, "re_1", "ops@example.com", at(2*time.Hour).Now); err != nil || got.Lang != "ta" {
		t.Errorf("MarkRefunded: lang %q, %v; want ta", got.Lang, err)
	}
	if got := getBooking(t, s, b.ID); got.State != booking.BookingRefunded || got.Lang != "ta" {
		t.Errorf("refunded booking: state %s lang %q; want refunded in ta", got.State, got.Lang)
	}
}

// testLangCounter: a sale at the counter keeps the counter page's
// language.
func testLangCounter(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	m := at(0)
	h := counterHold(t, s, show.ID, m, "A1")
	sale := newSale(h, booking.MethodCash, nil)
	sale.Lang = "hi"
	b := sell(t, s, sale, m)
	if b.Lang != "hi" || getBooking(t, s, b.ID).Lang != "hi" {
		t.Errorf("a counter sale in hi: lang %q (stored %q)", b.Lang, getBooking(t, s, b.ID).Lang)
	}
}
