package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// counterTests are the box office (SPEC §16): the counter's hold under
// its own rules, Sell settling it as a payment success does, the refund
// at the counter, a cancelled show's box-office bookings, and the
// cash-up's read.
var counterTests = []test{
	{"HoldUnderCounterRules", testCounterHoldRules},
	{"HoldReplacesPrevious", testCounterHoldReplaces},
	{"HoldClosesAndCancels", testCounterHoldCloses},
	{"SellBooks", testCounterSellBooks},
	{"SellLapsedButFree", testCounterSellLapsedFree},
	{"SellLostSeatWritesNothing", testCounterSellLost},
	{"SellRefusedWritesNothing", testCounterSellRefused},
	{"SellComp", testCounterSellComp},
	{"SellNotOwner", testCounterSellNotOwner},
	{"SellClosed", testCounterSellClosed},
	{"Refund", testCounterRefund},
	{"RefundRefused", testCounterRefundRefused},
	{"CancelledShow", testCounterCancelledShow},
	{"CashUpRead", testCounterCashUpRead},
	{"BookingsByEmail", testBookingsByEmail},
}

// counterOwner is the staff session's counter owner of the suite.
const counterOwner = "counter-1"

// counterRules are the rules of most counter tests: online sales closed
// a day before the start, the box office open until 30 minutes after it,
// a cap per address and the gap rule on, none of which the counter
// obeys.
func counterAt(d time.Duration) booking.Moment {
	return booking.Rules{TTL: ttl, SalesClose: -later.Sub(base) - time.Hour, BoxOfficeClose: 30 * time.Minute, SeatsPerAddress: 1}.At(base.Add(d))
}

func newCounterHold(showID, owner string, m booking.Moment, seats ...string) booking.Hold {
	h := newHold(showID, owner, m, seats...)
	h.Counter = true
	return h
}

func counterHold(t *testing.T, s store, showID string, m booking.Moment, seats ...string) booking.Hold {
	t.Helper()
	h := newCounterHold(showID, counterOwner, m, seats...)
	if err := s.HoldSeats(context.Background(), h, m); err != nil {
		t.Fatalf("counter hold of %v at %v: %v", seats, m.Now, err)
	}
	return getHold(t, s, h.ID)
}

func newSale(h booking.Hold, method booking.Method, types booking.TypeChoice) booking.CounterSale {
	return booking.CounterSale{
		HoldID: h.ID, Owner: h.Owner, SoldBy: "staff@example.com", Method: method, Types: types,
		PaymentID: booking.NewID(), BookingID: booking.NewID(), Key: booking.NewBookingKey(), TicketCode: booking.NewTicketCode(),
	}
}

func (s store) Sell(ctx context.Context, sale booking.CounterSale, m booking.Moment) (booking.Booking, error) {
	return booking.SellAtCounterStep(ctx, s.Store, m.Clock(), sale, m.Rules)
}

func (s store) CounterRefund(ctx context.Context, bookingID, by string, method booking.Method, m booking.Moment) (booking.Booking, error) {
	return booking.CounterRefundStep(ctx, s.Store, m.Clock(), bookingID, by, method, m.Rules)
}

func sell(t *testing.T, s store, sale booking.CounterSale, m booking.Moment) booking.Booking {
	t.Helper()
	b, err := s.Sell(context.Background(), sale, m)
	if err != nil {
		t.Fatalf("Sell of hold %s at %v: %v", sale.HoldID, m.Now, err)
	}
	return b
}

// counterHoldTyped is a counter hold of A1 (Classic) and B1 (Prime) of a
// show made with fullCard, and the show.
func counterHoldTyped(t *testing.T, s store, m booking.Moment) (booking.Show, booking.Hold) {
	t.Helper()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	return show, counterHold(t, s, show.ID, m, "A1", "B1")
}

func testCounterHoldRules(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 12, later) // A1–A6 | A7–A12
	m := counterAt(0)
	m.AllowGaps = false
	// Online: sales closed; and once open, A3-A4 would leave A2 alone
	// between A1 (taken) and A3.
	open := m
	open.SalesClose = 0
	hold(t, s, show.ID, "other", open, "A1")
	online := newHold(show.ID, "web", m, "A3", "A4")
	wantCode(t, "online hold after SALES_CLOSE", s.HoldSeats(context.Background(), online, m), booking.EGONE)
	var gap *booking.GapError
	if err := s.HoldSeats(context.Background(), online, open); !errors.As(err, &gap) {
		t.Fatalf("online hold leaving A2 alone: %v; want the gap rule's refusal", err)
	}
	// At the counter: held after SALES_CLOSE, though it leaves A2 alone.
	h := newCounterHold(show.ID, counterOwner, m, "A3", "A4")
	if err := s.HoldSeats(context.Background(), h, m); err != nil {
		t.Fatalf("counter hold after SALES_CLOSE, leaving A2 alone: %v", err)
	}
	got := getHold(t, s, h.ID)
	if !got.Counter || got.Address != "" || got.State != booking.HoldActive {
		t.Errorf("counter hold stored as %+v; want Counter, no address, active", got)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A3": lockedBy(got), "A4": lockedBy(got), "A2": free})
	// A seat taken is 409 at the counter as online.
	var ue *booking.UnavailableError
	if err := s.HoldSeats(context.Background(), newCounterHold(show.ID, "counter-2", m, "A4", "A5", "A6"), m); !errors.As(err, &ue) || !cmp.Equal(ue.Seats, []string{"A4"}) {
		t.Errorf("counter hold of a taken seat: %v; want unavailable A4", err)
	}
}

func testCounterHoldReplaces(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 6, later)
	first := counterHold(t, s, show.ID, counterAt(0), "A1", "A2")
	second := counterHold(t, s, show.ID, counterAt(time.Second), "A2", "A3")
	if got := getHold(t, s, first.ID); got.State != booking.HoldReplaced {
		t.Errorf("previous counter hold is %s, want replaced", got.State)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(second), "A3": lockedBy(second)})
}

func testCounterHoldCloses(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 6, later)
	// BOXOFFICE_CLOSE is 30 minutes after the start: open at 29m59s,
	// closed at 30m.
	open := booking.Rules{TTL: ttl, BoxOfficeClose: 30 * time.Minute}.At(later.Add(30*time.Minute - time.Second))
	if err := s.HoldSeats(context.Background(), newCounterHold(show.ID, counterOwner, open, "A1"), open); err != nil {
		t.Errorf("counter hold before BOXOFFICE_CLOSE (after SALES_CLOSE): %v", err)
	}
	closed := open
	closed.Now = later.Add(30 * time.Minute)
	wantErr(t, "counter hold at BOXOFFICE_CLOSE", s.HoldSeats(context.Background(), newCounterHold(show.ID, counterOwner, closed, "A2"), closed), booking.ErrBoxOfficeClosed)
	if _, _, err := s.CancelShow(context.Background(), show.ID, counterAt(0)); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "counter hold of a cancelled show", s.HoldSeats(context.Background(), newCounterHold(show.ID, counterOwner, counterAt(time.Hour), "A3"), counterAt(time.Hour)), booking.ErrShowCancelled)
}

func testCounterSellBooks(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	sale := newSale(h, booking.MethodCard, booking.TypeChoice{"A1": "child"})
	sale.CardRef, sale.Email = "T-4411", moviegoerEmail
	m := counterAt(time.Minute)
	b := sell(t, s, sale, m)
	want := []booking.SeatTicket{
		{SeatID: "A1", Category: "Classic", Type: "child", Price: 100_00, Name: "Child", Note: "under 12"},
		{SeatID: "B1", Category: "Prime", Type: "adult", Price: 300_00, Name: "Adult"},
	}
	stored := getBooking(t, s, b.ID)
	same(t, "booking returned and stored", b, stored)
	if stored.State != booking.BookingConfirmed || stored.TicketCode != sale.TicketCode || stored.Key != sale.Key ||
		stored.Channel != booking.ChannelBoxOffice || stored.SoldBy != "staff@example.com" || stored.Method != booking.MethodCard ||
		stored.CardRef != "T-4411" || stored.Amount != 400_00 || stored.Email != moviegoerEmail || !stored.CreatedAt.Equal(m.Now) {
		t.Errorf("sold booking %+v; want confirmed, its code and key, box office, staff, card T-4411, 40000, mailed, at %v", stored, m.Now)
	}
	if diff := cmp.Diff(want, stored.Tickets); diff != "" {
		t.Errorf("tickets (-want +got):\n%s", diff)
	}
	p := getPayment(t, s, sale.PaymentID)
	if p.State != booking.PaymentSucceeded || p.Provider != booking.ProviderBoxOffice || p.Method != booking.MethodCard ||
		p.Amount != 400_00 || p.BookingID != b.ID || p.HoldID != h.ID {
		t.Errorf("payment %+v; want succeeded, box_office, card, 40000, of the booking and hold", p)
	}
	if got := getHold(t, s, h.ID); got.State != booking.HoldCompleted {
		t.Errorf("hold is %s, want completed", got.State)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "B1": bookedBy(b)})
	// The ticket is mailed.
	mails, err := s.ClaimMail(context.Background(), m.Now, booking.DefaultMailLease, 10)
	if err != nil || len(mails) != 1 || mails[0].Kind != booking.MailConfirmed || mails[0].BookingID != b.ID {
		t.Errorf("mail queued = %+v, %v; want the confirmation of %s", mails, err, b.ID)
	}
	// Sell again: the hold was sold.
	_, err = s.Sell(context.Background(), newSale(h, booking.MethodCash, nil), counterAt(2*time.Minute))
	wantErr(t, "Sell of a sold hold", err, booking.ErrHoldCompleted)
}

func testCounterSellLapsedFree(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	// The lock lapsed and nobody took the seats: sold, as a late payment
	// is rescued.
	b := sell(t, s, newSale(h, booking.MethodCash, nil), counterAt(ttl+time.Minute))
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "B1": bookedBy(b)})
	if b.Amount != 500_00 || b.Method != booking.MethodCash {
		t.Errorf("sold %d by %s, want 50000 (adult 200 + adult 300) by cash", b.Amount, b.Method)
	}
}

func testCounterSellLost(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	// The counter's lock lapsed and the web took B1.
	web := counterAt(ttl + time.Minute)
	web.SalesClose = 0
	other := hold(t, s, show.ID, "web", web, "B1")
	before := getSeats(t, s, show.ID)
	sale := newSale(h, booking.MethodCash, nil)
	_, err := s.Sell(context.Background(), sale, counterAt(ttl+2*time.Minute))
	var ue *booking.UnavailableError
	if !errors.As(err, &ue) || !cmp.Equal(ue.Seats, []string{"B1"}) || booking.ErrorCode(err) != booking.ECONFLICT {
		t.Fatalf("Sell of a hold that lost B1: %v; want 409 naming B1", err)
	}
	unchanged(t, s, show.ID, before)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": lockedBy(h), "B1": lockedBy(other)})
	if got := getHold(t, s, h.ID); got.State != booking.HoldActive {
		t.Errorf("hold is %s after a lost Sell, want active", got.State)
	}
	wantErr(t, "booking of a lost Sell", func() error { _, err := s.Booking(context.Background(), sale.BookingID); return err }(), booking.ErrBookingNotFound)
	wantErr(t, "payment of a lost Sell", func() error { _, err := s.Payment(context.Background(), sale.PaymentID); return err }(), booking.ErrPaymentNotFound)
}

func testCounterSellRefused(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	before := getSeats(t, s, show.ID)
	m := counterAt(time.Minute)
	cases := []struct {
		name       string
		sale       booking.CounterSale
		seat, rule string
	}{
		{"unknown method", newSale(h, "cheque", nil), "", booking.RuleMethod},
		{"comp without a reason", newSale(h, booking.MethodComp, nil), "", booking.RuleReason},
		{"a type not sold at the box office", newSale(h, booking.MethodCash, booking.TypeChoice{"B1": "comp"}), "B1", ""},
		{"a type the show lacks", newSale(h, booking.MethodCash, booking.TypeChoice{"A1": "student"}), "A1", ""},
		{"accompanied seats only", newSale(h, booking.MethodCash, booking.TypeChoice{"A1": "child", "B1": "child"}), "", booking.RuleAccompanied},
	}
	for _, c := range cases {
		_, err := s.Sell(context.Background(), c.sale, m)
		var te *booking.TypeChoiceError
		if !errors.As(err, &te) || te.Seat != c.seat || te.Rule != c.rule || booking.ErrorCode(err) != booking.EINVALID {
			t.Errorf("%s: %v; want 422 on seat %q rule %q", c.name, err, c.seat, c.rule)
		}
		wantErr(t, c.name+": booking", func() error { _, err := s.Booking(context.Background(), c.sale.BookingID); return err }(), booking.ErrBookingNotFound)
	}
	unchanged(t, s, show.ID, before)
	if got := getHold(t, s, h.ID); got.State != booking.HoldActive {
		t.Errorf("hold is %s after refused Sells, want active", got.State)
	}
}

func testCounterSellComp(t *testing.T, s store) {
	_, h := counterHoldTyped(t, s, counterAt(0))
	sale := newSale(h, booking.MethodComp, booking.TypeChoice{"A1": "comp"})
	sale.Reason = "  critic from the Pune Times "
	b := sell(t, s, sale, counterAt(time.Minute))
	if b.Amount != 0 || b.CompReason != "critic from the Pune Times" || b.Method != booking.MethodComp {
		t.Errorf("comp sold for %d, reason %q, method %s; want 0, the reason trimmed, comp", b.Amount, b.CompReason, b.Method)
	}
	for _, tk := range b.Tickets {
		if tk.Price != 0 {
			t.Errorf("comp ticket %+v priced, want 0", tk)
		}
	}
	if b.Tickets[0].Type != "comp" || b.Tickets[1].Type != "adult" {
		t.Errorf("comp keeps the types chosen: %+v", b.Tickets)
	}
}

func testCounterSellNotOwner(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	sale := newSale(h, booking.MethodCash, nil)
	sale.Owner = "counter-2"
	_, err := s.Sell(context.Background(), sale, counterAt(time.Minute))
	wantErr(t, "Sell of another session's counter hold", err, booking.ErrNotOwner)
	// A hold made online is not sold at the counter, even by its owner.
	web := counterAt(time.Minute)
	web.SalesClose = 0
	online := hold(t, s, show.ID, "web", web, "B2")
	_, err = s.Sell(context.Background(), newSale(online, booking.MethodCash, nil), web)
	wantErr(t, "Sell of an online hold", err, booking.ErrNotOwner)
}

func testCounterSellClosed(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	closed := counterAt(0)
	closed.Now = show.StartsAt.Add(30 * time.Minute)
	_, err := s.Sell(context.Background(), newSale(h, booking.MethodCash, nil), closed)
	wantErr(t, "Sell at BOXOFFICE_CLOSE", err, booking.ErrBoxOfficeClosed)
	if _, _, err := s.CancelShow(context.Background(), show.ID, counterAt(time.Minute)); err != nil {
		t.Fatal(err)
	}
	_, err = s.Sell(context.Background(), newSale(h, booking.MethodCash, nil), counterAt(2*time.Minute))
	wantErr(t, "Sell of a cancelled show", err, booking.ErrShowCancelled)
}

func testCounterRefund(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	b := sell(t, s, newSale(h, booking.MethodCash, nil), counterAt(time.Minute))
	m := counterAt(time.Hour)
	got, err := s.CounterRefund(context.Background(), b.ID, "other@example.com", booking.MethodCard, m)
	if err != nil {
		t.Fatalf("counter refund: %v", err)
	}
	if got.State != booking.BookingRefunded || got.RefundedBy != "other@example.com" || !got.RefundedAt.Equal(m.Now) || got.RefundMethod != booking.MethodCard {
		t.Errorf("refunded booking %+v; want refunded by other@ at %v by card", got, m.Now)
	}
	same(t, "refund returned and stored", got, getBooking(t, s, b.ID))
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "B1": free})
	// The seats sell again.
	again := sell(t, s, newSale(counterHold(t, s, show.ID, counterAt(2*time.Hour), "A1"), booking.MethodCash, nil), counterAt(2*time.Hour))
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(again), "B1": free})
	// The audit of the show read from the store: A1 is in one confirmed
	// booking, the refunded one beside it, each with its payment.
	a, err := booking.LoadAudit(context.Background(), s, show.ID)
	if err != nil {
		t.Fatalf("LoadAudit: %v", err)
	}
	bad, n := booking.CheckAudit(a, counterAt(2*time.Hour))
	if len(bad) != 0 {
		t.Errorf("the audit after the resale: %q", bad)
	}
	if n.Booked != 1 || n.Confirmed != 1 || n.PaidPayments != 2 {
		t.Errorf("the audit after the resale counts %+v; want 1 seat booked, 1 confirmed booking, 2 paid payments", n)
	}
	_, err = s.CounterRefund(context.Background(), b.ID, "staff@example.com", "", counterAt(3*time.Hour))
	wantErr(t, "refund again", err, booking.ErrAlreadyRefunded)
	// The method defaults to the sale's.
	dflt, err := s.CounterRefund(context.Background(), again.ID, "staff@example.com", "", counterAt(3*time.Hour))
	if err != nil || dflt.RefundMethod != booking.MethodCash {
		t.Errorf("refund without a method = %s, %v; want the sale's, cash", dflt.RefundMethod, err)
	}
}

func testCounterRefundRefused(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	b := sell(t, s, newSale(h, booking.MethodCash, nil), counterAt(time.Minute))
	started := counterAt(0)
	started.Now = show.StartsAt
	_, err := s.CounterRefund(context.Background(), b.ID, "staff@example.com", "", started)
	wantCode(t, "refund after the start", err, booking.ECONFLICT)
	if got := getBooking(t, s, b.ID); got.State != booking.BookingConfirmed {
		t.Errorf("booking %s after a refused refund, want confirmed", got.State)
	}
	_, err = s.CounterRefund(context.Background(), b.ID, "staff@example.com", "cheque", counterAt(time.Hour))
	wantCode(t, "refund by an unknown method", err, booking.EINVALID)
	// Admitted at the door: refused.
	if _, err := s.AdmitTicket(context.Background(), b.TicketCode, booking.DoorCheck{Show: show.ID, Now: show.StartsAt.Add(-10 * time.Minute)}, "door@example.com"); err != nil {
		t.Fatal(err)
	}
	_, err = s.CounterRefund(context.Background(), b.ID, "staff@example.com", "", counterAt(time.Hour))
	wantCode(t, "refund of an admitted ticket", err, booking.ECONFLICT)
	// Online: refused.
	web := counterAt(time.Minute)
	web.SalesClose = 0
	_, online := book(t, s, show.ID, "web", web, "B2")
	_, err = s.CounterRefund(context.Background(), online.ID, "staff@example.com", "", counterAt(time.Hour))
	wantErr(t, "refund of an online booking", err, booking.ErrRefundOnline)
	if online.Channel != booking.ChannelOnline {
		t.Errorf("an online booking's channel is %q, want online", online.Channel)
	}
}

func testCounterCancelledShow(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	paid := sell(t, s, newSale(h, booking.MethodCash, nil), counterAt(time.Minute))
	sale := newSale(counterHold(t, s, show.ID, counterAt(2*time.Minute), "A2"), booking.MethodComp, nil)
	sale.Reason = "staff guest"
	comp := sell(t, s, sale, counterAt(2*time.Minute))
	m := counterAt(time.Hour)
	_, due, err := s.CancelShow(context.Background(), show.ID, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 {
		t.Fatalf("cancel marked %d bookings, want 2", len(due))
	}
	gotPaid, gotComp := getBooking(t, s, paid.ID), getBooking(t, s, comp.ID)
	if gotPaid.State != booking.BookingRefundDue || gotPaid.Reason != booking.ReasonShowCancelled {
		t.Errorf("paid box-office booking %s (%s); want refund_due, show cancelled", gotPaid.State, gotPaid.Reason)
	}
	if gotComp.State != booking.BookingRefunded || gotComp.RefundedBy != booking.RefundedAutomatically || !gotComp.RefundedAt.Equal(m.Now) {
		t.Errorf("comp booking %+v; want refunded at once", gotComp)
	}
	// Refunded at the counter, after the start too.
	after := counterAt(0)
	after.Now = show.StartsAt.Add(2 * time.Hour)
	got, err := s.CounterRefund(context.Background(), paid.ID, "staff@example.com", "", after)
	if err != nil || got.State != booking.BookingRefunded || got.RefundMethod != booking.MethodCash {
		t.Errorf("counter refund of a cancelled show's booking after its start = %+v, %v; want refunded by cash", got, err)
	}
}

func testCounterCashUpRead(t *testing.T, s store) {
	show, h := counterHoldTyped(t, s, counterAt(0))
	sold := sell(t, s, newSale(h, booking.MethodCash, nil), counterAt(time.Minute))
	refunded := sell(t, s, newSale(counterHold(t, s, show.ID, counterAt(2*time.Minute), "A2"), booking.MethodCard, nil), counterAt(2*time.Minute))
	if _, err := s.CounterRefund(context.Background(), refunded.ID, "staff@example.com", "", counterAt(25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	web := counterAt(time.Minute)
	web.SalesClose = 0
	book(t, s, show.ID, "web", web, "B2")
	ids := func(from, to time.Time) []string {
		t.Helper()
		list, err := s.BoxOfficeBookings(context.Background(), show.Theatre.ID, from, to)
		if err != nil {
			t.Fatalf("BoxOfficeBookings: %v", err)
		}
		var out []string
		for _, b := range list {
			out = append(out, b.ID)
		}
		booking.SortSeatIDs(out)
		return out
	}
	both := []string{sold.ID, refunded.ID}
	booking.SortSeatIDs(both)
	if got := ids(base, base.Add(time.Hour)); !cmp.Equal(got, both) {
		t.Errorf("sold in the first hour: %v, want %v (not the online booking)", got, both)
	}
	if got := ids(base.Add(24*time.Hour), base.Add(48*time.Hour)); !cmp.Equal(got, []string{refunded.ID}) {
		t.Errorf("sold or refunded the next day: %v, want the refund %s", got, refunded.ID)
	}
	if got := ids(base.Add(48*time.Hour), base.Add(72*time.Hour)); len(got) != 0 {
		t.Errorf("the day after: %v, want none", got)
	}
	if got, err := s.BoxOfficeBookings(context.Background(), "another-theatre", base, base.Add(time.Hour)); err != nil || len(got) != 0 {
		t.Errorf("another theatre's: %v, %v; want none", got, err)
	}
}

// testRaceCounterAgainstWeb: an online session and the counter race for
// the same seats, round after round, on fresh shows: in even rounds both
// hold at once, in odd ones the counter's hold has lapsed and its Sell
// races the web's hold, Pay and success. Each seat is sold exactly once:
// to the booking its seat names, and never to two confirmed bookings.
func testRaceCounterAgainstWeb(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	rounds := sized(40, 12)
	sold := map[string]int{}
	for r := range rounds {
		show, _ := newShow(t, s, 1, 4, later)
		m := counterAt(time.Duration(r) * time.Hour)
		m.SalesClose = 0
		var counter booking.Hold
		if r%2 == 1 {
			counter = newCounterHold(show.ID, counterOwner, m, "A1", "A2")
			if err := s.HoldSeats(ctx, counter, m); err != nil {
				t.Fatalf("round %d: counter hold: %v", r, err)
			}
			m.Now = m.Now.Add(ttl + time.Second) // the counter's lock lapsed
		}
		var confirmed [2]*booking.Booking
		concurrently(2, func(i int) {
			switch i {
			case 0: // the web: hold, Pay, success
				h := newHold(show.ID, "web", m, "A1", "A2")
				if err := s.HoldSeats(ctx, h, m); err != nil {
					wantUnavailable(t, r, "web hold", err)
					return
				}
				p, _, err := s.StartPayment(ctx, h.ID, h.Owner, newPaymentStart(), m)
				if err != nil {
					t.Errorf("round %d: Pay: %v", r, err)
					return
				}
				st, err := s.SettlePayment(ctx, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), m)
				if err != nil {
					t.Errorf("round %d: settle: %v", r, err)
					return
				}
				if st.Effect == booking.EffectBooked {
					confirmed[0] = &st.Booking
				}
			case 1: // the counter: hold (unless it has one), Sell
				h := counter
				if h.ID == "" {
					h = newCounterHold(show.ID, counterOwner, m, "A2", "A3")
					if err := s.HoldSeats(ctx, h, m); err != nil {
						wantUnavailable(t, r, "counter hold", err)
						return
					}
				}
				b, err := s.Sell(ctx, newSale(h, booking.MethodCash, nil), m)
				if err != nil {
					wantUnavailable(t, r, "Sell", err)
					return
				}
				confirmed[1] = &b
			}
		})
		owner := map[string]string{}
		for _, b := range confirmed {
			if b == nil {
				continue
			}
			for _, id := range b.SeatIDs {
				if other, twice := owner[id]; twice {
					t.Fatalf("round %d: seat %s sold to %s and %s", r, id, other, b.ID)
				}
				owner[id] = b.ID
			}
			sold[string(b.Channel)]++
		}
		if len(owner) == 0 {
			t.Errorf("round %d: nobody bought A1–A3", r)
		}
		for _, seat := range getSeats(t, s, show.ID) {
			want, ok := owner[seat.ID]
			switch {
			case ok && (seat.Status != booking.SeatBooked || seat.BookingID != want):
				t.Errorf("round %d: seat %s is %s (booking %q), want booked by %s", r, seat.ID, seat.Status, seat.BookingID, want)
			case !ok && seat.Status == booking.SeatBooked:
				t.Errorf("round %d: seat %s booked by %s, which no confirmed booking has", r, seat.ID, seat.BookingID)
			}
		}
	}
	t.Logf("%d rounds: %d sold online, %d at the counter", rounds, sold[string(booking.ChannelOnline)], sold[string(booking.ChannelBoxOffice)])
}

// wantUnavailable fails the round unless err is a seat lost to the other
// side (409).
func wantUnavailable(t *testing.T, round int, what string, err error) {
	t.Helper()
	var ue *booking.UnavailableError
	if !errors.As(err, &ue) {
		t.Errorf("round %d: %s: %v; want a seat taken (409)", round, what, err)
	}
}

// runSales runs plan[g] in goroutine g, all released at once, each
// attempt a whole sale at moment m: online (hold, Pay, success) or, with
// counter, at the box office (counter hold, Sell). Won is a confirmed
// booking (BookingID); a seat lost is Unavailable.
func runSales(ctx context.Context, s store, showID string, plan [][]attempt, counter bool, m booking.Moment) []outcome {
	results := make([][]outcome, len(plan))
	concurrently(len(plan), func(g int) {
		for _, a := range plan[g] {
			h := newHold(showID, a.Owner, m, a.Seats...)
			h.Counter = counter
			o := outcome{attempt: a, HoldID: h.ID, Start: time.Now().UnixNano()}
			bookingID, err := sale(ctx, s, h, m)
			o.End = time.Now().UnixNano()
			var u *booking.UnavailableError
			switch {
			case err == nil:
				o.Won, o.BookingID = bookingID != "", bookingID
			case errors.As(err, &u):
				o.Unavailable = u.Seats
			default:
				o.Err = err.Error()
			}
			results[g] = append(results[g], o)
		}
	})
	var all []outcome
	for _, rs := range results {
		all = append(all, rs...)
	}
	return all
}

// sale sells h's seats at m as its kind of hold does, and returns the
// confirmed booking's id ("" when a late success left it refund_due).
func sale(ctx context.Context, s store, h booking.Hold, m booking.Moment) (string, error) {
	if err := s.HoldSeats(ctx, h, m); err != nil {
		return "", err
	}
	if h.Counter {
		b, err := s.Sell(ctx, newSale(h, booking.MethodCash, nil), m)
		return b.ID, err
	}
	p, _, err := s.StartPayment(ctx, h.ID, h.Owner, newPaymentStart(), m)
	if err != nil {
		return "", err
	}
	st, err := s.SettlePayment(ctx, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), m)
	if err != nil || st.Effect != booking.EffectBooked {
		return "", err
	}
	return st.Booking.ID, nil
}

// testProcessCounterRace: the web in one OS process and the box office in
// another, several goroutines in each, sell overlapping windows of the same
// row at once on one database; each seat is sold exactly once, to the
// booking its seat names.
func testProcessCounterRace(t *testing.T, h Harness) {
	dsn, shared := h.Shared(t)
	if shared == nil {
		t.Fatal("Harness.Shared returned a nil store")
	}
	s := store{shared}
	closeWithTest(t, s)
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	show, seats := newShow(t, s, 1, 24, later)
	rng := rand.New(rand.NewPCG(seed(t), 3))
	m := at(time.Minute)
	const goroutines = 6
	attempts := sized(8, 4)
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	workers := make([]*worker, 2)
	for p := range workers {
		job := workerJob{
			Process: p, DSN: dsn, ShowID: show.ID, Now: m.Now, TTL: m.TTL, Sales: true, Counter: p == 1,
			Plan: planWindows(rng, seatIDs(seats), goroutines, attempts, 3, func(g, i int) string {
				if p == 1 {
					return fmt.Sprintf("counter-%d", g) // a staff session per goroutine
				}
				return fmt.Sprintf("web-%d.%d", g, i)
			}),
		}
		workers[p] = startWorker(ctx, t, exe, job)
	}
	for _, w := range workers {
		w.waitReady(t)
	}
	for _, w := range workers {
		w.start(t)
	}
	var outcomes []outcome
	for _, w := range workers {
		outcomes = append(outcomes, w.wait(t)...)
	}
	checkOverlap(t, outcomes)
	won := map[string]int{}
	sold := map[string]bool{}
	for _, o := range outcomes {
		if o.Err != "" {
			t.Errorf("process %d, %v for %s: %s", o.Process, o.Seats, o.Owner, o.Err)
		}
		if o.Won {
			won[[]string{"web", "counter"}[o.Process]]++
			sold[o.BookingID] = true
		}
	}
	t.Logf("sales won: %v", won)
	bookings, err := s.ShowBookings(ctx, show.ID)
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	confirmed := 0
	for _, b := range bookings {
		if b.State != booking.BookingConfirmed {
			continue
		}
		confirmed++
		if !sold[b.ID] {
			t.Errorf("confirmed booking %s that no sale reported", b.ID)
		}
		for _, id := range b.SeatIDs {
			if other, twice := owner[id]; twice {
				t.Errorf("seat %s sold to %s and %s", id, other, b.ID)
			}
			owner[id] = b.ID
		}
	}
	if confirmed != len(sold) {
		t.Errorf("%d confirmed bookings, %d sales won", confirmed, len(sold))
	}
	a, err := booking.LoadAudit(ctx, s, show.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bad, _ := booking.CheckAudit(a, m); len(bad) > 0 {
		t.Errorf("the audit after the race: %q", bad)
	}
	for _, seat := range getSeats(t, s, show.ID) {
		want, ok := owner[seat.ID]
		switch {
		case ok && (seat.Status != booking.SeatBooked || seat.BookingID != want):
			t.Errorf("seat %s is %s (booking %q), want booked by %s", seat.ID, seat.Status, seat.BookingID, want)
		case !ok && seat.Status == booking.SeatBooked:
			t.Errorf("seat %s booked by %s, which no confirmed booking has", seat.ID, seat.BookingID)
		}
	}
}

// testBookingsByEmail: the counter finds a customer's bookings by email
// (SPEC §16, printing again): of any channel, the case of the address
// ignored, the newest first (the id breaking a tie), at most the limit;
// another address, a prefix of one, or none finds nothing.
func testBookingsByEmail(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 12, later)
	sellTo := func(owner, email string, d time.Duration, seat string) booking.Booking {
		t.Helper()
		m := counterAt(d)
		h := newCounterHold(show.ID, owner, m, seat)
		if err := s.HoldSeats(ctx, h, m); err != nil {
			t.Fatalf("counter hold of %s: %v", seat, err)
		}
		sale := newSale(h, booking.MethodCash, nil)
		sale.Email = email
		return sell(t, s, sale, m)
	}
	first := sellTo(counterOwner, "ana.k@example.com", 0, "A1")
	second := sellTo(counterOwner, "ANA.K@example.com", time.Minute, "A2")
	sellTo(counterOwner, "someone@example.com", 2*time.Minute, "A3")
	sellTo(counterOwner, "", 2*time.Minute, "A4")
	tieA := sellTo(counterOwner, "Ana.K@example.com", 3*time.Minute, "A5")
	tieB := sellTo("counter-2", "ana.k@example.com", 3*time.Minute, "A6")
	web := counterAt(4 * time.Minute)
	web.SalesClose = 0
	_, online := book(t, s, show.ID, "web", web, "A7")

	ids := func(email string, limit int) []string {
		t.Helper()
		list, err := s.BookingsByEmail(ctx, email, limit)
		if err != nil {
			t.Fatalf("BookingsByEmail(%q, %d): %v", email, limit, err)
		}
		out := []string{}
		for _, b := range list {
			out = append(out, b.ID)
		}
		return out
	}
	ties := []string{tieA.ID, tieB.ID}
	if ties[0] < ties[1] {
		ties[0], ties[1] = ties[1], ties[0]
	}
	want := append(ties, second.ID, first.ID)
	if got := ids("Ana.K@Example.com", 20); !cmp.Equal(got, want) {
		t.Errorf("by Ana.K@Example.com: %v, want %v (newest first, id descending in a tie)", got, want)
	}
	if got := ids("ana.k@example.com", 3); !cmp.Equal(got, want[:3]) {
		t.Errorf("by ana.k@example.com, at most 3: %v, want %v", got, want[:3])
	}
	if got := ids("MOVIEGOER@example.com", 20); !cmp.Equal(got, []string{online.ID}) {
		t.Errorf("by the online buyer's address: %v, want the online booking %s", got, online.ID)
	}
	list, err := s.BookingsByEmail(ctx, moviegoerEmail, 1)
	if err != nil || len(list) != 1 {
		t.Fatalf("BookingsByEmail(%s): %v, %v", moviegoerEmail, list, err)
	}
	same(t, "booking found by email and stored", getBooking(t, s, online.ID), list[0])
	for _, email := range []string{"nobody@example.com", "ana.k@example.co", "ana.k", ""} {
		if got := ids(email, 20); len(got) != 0 {
			t.Errorf("by %q: %v, want none", email, got)
		}
	}
}
