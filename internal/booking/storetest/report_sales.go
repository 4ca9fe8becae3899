package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"boxoffice/internal/booking"
)

// testConfirmedAt: a booking keeps the instant it became confirmed, its
// sale time (SPEC §17), whatever changes it later: the settlement's
// online, the sale's at the counter; a booking never confirmed has none.
func testConfirmedAt(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p, b := pay(t, s, h, at(0))
	if got := getBooking(t, s, b.ID); !got.ConfirmedAt.IsZero() {
		t.Errorf("pending booking confirmed at %v; want never", got.ConfirmedAt)
	}
	settle(t, s, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), at(time.Minute))
	if got := getBooking(t, s, b.ID); !got.ConfirmedAt.Equal(at(time.Minute).Now) {
		t.Errorf("online booking confirmed at %v; want its settlement's %v", got.ConfirmedAt, at(time.Minute).Now)
	}
	if _, _, err := booking.CancelShowSteps(ctx, s.Store, at(time.Hour).Clock(), show.ID, 10); err != nil {
		t.Fatalf("CancelShowSteps: %v", err)
	}
	if _, err := s.MarkRefunded(ctx, b.ID, "re_1", "admin@example.com", base.Add(2*time.Hour)); err != nil {
		t.Fatalf("MarkRefunded: %v", err)
	}
	if got := getBooking(t, s, b.ID); !got.ConfirmedAt.Equal(at(time.Minute).Now) || got.State != booking.BookingRefunded {
		t.Errorf("refunded booking %s confirmed at %v; want still %v", got.State, got.ConfirmedAt, at(time.Minute).Now)
	}

	_, ch := counterHoldTyped(t, s, counterAt(0))
	sold := sell(t, s, newSale(ch, booking.MethodCash, nil), counterAt(time.Minute))
	if got := getBooking(t, s, sold.ID); !got.ConfirmedAt.Equal(counterAt(time.Minute).Now) || !sold.ConfirmedAt.Equal(got.ConfirmedAt) {
		t.Errorf("counter sale confirmed at %v (returned %v); want the sale's %v", got.ConfirmedAt, sold.ConfirmedAt, counterAt(time.Minute).Now)
	}
}

// testSalesBookings: the sales report's read (SalesReportReader) lists
// the bookings confirmed in the range and those refunded in it, once
// each, with their theatre and their payment's provider; a booking
// refunded without ever being confirmed (a late payment) has no sale
// time; ShowID narrows it to one show.
func testSalesBookings(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	other := cardShow(t, s, th, sc, card.ID)

	online := typedBook(t, s, show.ID, "o1", at(0), booking.TypeChoice{"A1": "child", "B1": "adult"}, "A1", "B1")
	late := refundDue(t, s, show.ID, "A2", "B2", time.Hour)
	if _, err := s.MarkRefunded(ctx, late.ID, "re_late", "admin@example.com", base.Add(2*time.Hour)); err != nil {
		t.Fatalf("MarkRefunded: %v", err)
	}
	cash := sell(t, s, newSale(counterHold(t, s, show.ID, counterAt(3*time.Hour), "A2"), booking.MethodCash, booking.TypeChoice{"A2": "adult"}), counterAt(3*time.Hour))
	if _, err := s.CounterRefund(ctx, cash.ID, "staff@example.com", booking.MethodCard, counterAt(4*time.Hour)); err != nil {
		t.Fatalf("CounterRefund: %v", err)
	}
	comp := newSale(counterHold(t, s, show.ID, counterAt(50*time.Hour), "B2"), booking.MethodComp, booking.TypeChoice{"B2": "adult"})
	comp.Reason = "press"
	sell(t, s, comp, counterAt(50*time.Hour))
	typedBook(t, s, other.ID, "o2", at(0), booking.TypeChoice{"A1": "adult"}, "A1")

	sale := func(b booking.Booking, provider string, confirmed, refunded time.Time) booking.BookingSale {
		b = getBooking(t, s, b.ID)
		return booking.BookingSale{
			BookingID: b.ID, ShowID: show.ID, TheatreID: th.ID, Theatre: th.Name, TimeZone: "Asia/Kolkata", Currency: currency,
			Channel: b.Channel, Method: b.Method, Provider: provider, Amount: b.Amount, Tickets: b.Tickets,
			ConfirmedAt: confirmed, RefundedAt: refunded,
		}
	}
	wantOnline := sale(online, "", base, time.Time{})
	wantLate := sale(late, "", time.Time{}, base.Add(2*time.Hour))
	wantCash := sale(cash, booking.ProviderBoxOffice, counterAt(3*time.Hour).Now, counterAt(4*time.Hour).Now)
	if wantLate.Amount != 200_00 || wantCash.Amount != 200_00 || wantOnline.Amount != 400_00 {
		t.Fatalf("amounts %v, %v, %v; want 400.00, 200.00, 200.00", wantOnline.Amount, wantLate.Amount, wantCash.Amount)
	}
	read := func(q booking.SalesQuery) []booking.BookingSale {
		t.Helper()
		got, err := s.SalesBookings(ctx, q)
		if err != nil {
			t.Fatalf("SalesBookings(%+v): %v", q, err)
		}
		first := func(v booking.BookingSale) time.Time {
			if v.ConfirmedAt.IsZero() {
				return v.RefundedAt
			}
			return v.ConfirmedAt
		}
		slices.SortFunc(got, func(a, b booking.BookingSale) int { return first(a).Compare(first(b)) })
		return got
	}
	for _, c := range []struct {
		name string
		q    booking.SalesQuery
		want []booking.BookingSale
	}{
		{"the first five hours of the show", booking.SalesQuery{From: base, To: base.Add(5 * time.Hour), ShowID: show.ID}, []booking.BookingSale{wantOnline, wantLate, wantCash}},
		{"a refund of a sale before the range", booking.SalesQuery{From: base.Add(4 * time.Hour), To: base.Add(5 * time.Hour)}, []booking.BookingSale{wantCash}},
		{"the range ends where a sale was made", booking.SalesQuery{From: base.Add(time.Nanosecond), To: counterAt(3 * time.Hour).Now}, []booking.BookingSale{wantLate}},
		{"another show", booking.SalesQuery{From: base.Add(time.Hour), To: base.Add(5 * time.Hour), ShowID: other.ID}, nil},
	} {
		got := read(c.q)
		if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: SalesBookings (-want +got):\n%s", c.name, diff)
		}
	}
}
