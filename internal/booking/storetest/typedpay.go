package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// typedPayTests are Pay with ticket types (SPEC §15, "At checkout"): the
// step prices each seat from the show's table in its transaction, stores
// the tickets with the payment and the booking, refuses a type not
// offered or accompanied seats only with nothing written, reuses a
// payment of the same choice and replaces one of another.
var typedPayTests = []test{
	{"StoresTypesAndPrices", testTypedPayStores},
	{"RefusedChoiceWritesNothing", testTypedPayRefused},
	{"ChangedChoiceReplaces", testTypedPayReplaces},
	{"ReplacedPaysLate", testTypedPayReplacedPaysLate},
	{"ReplacedFailsAlone", testTypedPayReplacedFailsAlone},
	{"StoresTaxRates", testTypedPayTaxRates},
	{"StoresProvider", testTypedPayProvider},
}

// typedHold is a hold of A1 (Classic) and B1 (Prime) of a show made with
// fullCard (adult, child, comp).
func typedHold(t *testing.T, s store) booking.Hold {
	t.Helper()
	th, sc := typesTheatre(t, s)
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	return hold(t, s, show.ID, "o1", at(0), "A1", "B1")
}

func typedStart(types booking.TypeChoice) booking.PaymentStart {
	ids := newPaymentStart()
	ids.Types = types
	return ids
}

func (s store) StartTypedPayment(ctx context.Context, holdID, owner string, ids booking.PaymentStart, m booking.Moment) (booking.PaymentStarted, error) {
	return booking.StartTypedPaymentStep(ctx, s.Store, m.Clock(), holdID, owner, ids, m.Rules)
}

func testTypedPayStores(t *testing.T, s store) {
	h := typedHold(t, s)
	m := at(time.Minute)
	out, err := s.StartTypedPayment(context.Background(), h.ID, "o1", typedStart(booking.TypeChoice{"A1": "child", "B1": "adult"}), m)
	if err != nil {
		t.Fatalf("StartTypedPayment: %v", err)
	}
	want := []booking.SeatTicket{
		{SeatID: "A1", Category: "Classic", Type: "child", Price: 100_00, Name: "Child", Note: "under 12"},
		{SeatID: "B1", Category: "Prime", Type: "adult", Price: 300_00, Name: "Adult"},
	}
	p, b := getPayment(t, s, out.Payment.ID), getBooking(t, s, out.Booking.ID)
	if p.Amount != 400_00 || b.Amount != 400_00 {
		t.Errorf("amounts %d (payment), %d (booking); want 40000 (child 100 + adult 300), not the hold's %d", p.Amount, b.Amount, h.Amount)
	}
	if diff := cmp.Diff(want, p.Tickets); diff != "" {
		t.Errorf("payment's tickets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, b.Tickets); diff != "" {
		t.Errorf("booking's tickets (-want +got):\n%s", diff)
	}
	if out.Replaced != nil {
		t.Errorf("a first Pay replaced %+v", out.Replaced)
	}
	if got, err := s.Store.PendingTickets(context.Background(), h.ID); err != nil || !cmp.Equal(got, want) {
		t.Errorf("PendingTickets = %+v, %v; want %+v", got, err, want)
	}
	// A seat without a choice gets the first type offered; the same
	// choice again is the same payment.
	again, err := s.StartTypedPayment(context.Background(), h.ID, "o1", typedStart(booking.TypeChoice{"A1": "child"}), at(2*time.Minute))
	if err != nil || again.Payment.ID != p.ID || again.Replaced != nil {
		t.Errorf("Pay again with the same choice = %s (replaced %v), %v; want payment %s reused", again.Payment.ID, again.Replaced, err, p.ID)
	}
}

func testTypedPayRefused(t *testing.T, s store) {
	h := typedHold(t, s)
	cases := []struct {
		name       string
		types      booking.TypeChoice
		seat, rule string
	}{
		{"box office only", booking.TypeChoice{"A1": "comp", "B1": "adult"}, "A1", ""},
		{"unknown type", booking.TypeChoice{"B1": "senior"}, "B1", ""},
		{"children only", booking.TypeChoice{"A1": "child", "B1": "child"}, "", booking.RuleAccompanied},
	}
	for _, c := range cases {
		ids := typedStart(c.types)
		_, err := s.StartTypedPayment(context.Background(), h.ID, "o1", ids, at(time.Minute))
		var ce *booking.TypeChoiceError
		if !errors.As(err, &ce) || ce.Seat != c.seat || ce.Rule != c.rule || booking.ErrorCode(err) != booking.EINVALID {
			t.Errorf("%s: StartTypedPayment = %v; want EINVALID naming seat %q rule %q", c.name, err, c.seat, c.rule)
		}
		_, err = s.Payment(context.Background(), ids.PaymentID)
		wantErr(t, c.name+": its payment", err, booking.ErrPaymentNotFound)
		_, err = s.Booking(context.Background(), ids.BookingID)
		wantErr(t, c.name+": its booking", err, booking.ErrBookingNotFound)
	}
	if got, err := s.Store.PendingTickets(context.Background(), h.ID); err != nil || len(got) != 0 {
		t.Errorf("PendingTickets after refused Pays = %+v, %v; want none", got, err)
	}
}

func testTypedPayReplaces(t *testing.T, s store) {
	ctx := context.Background()
	h := typedHold(t, s)
	first, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(nil), at(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if first.Payment.Amount != 500_00 {
		t.Errorf("default choice costs %d, want 50000 (two adults)", first.Payment.Amount)
	}
	m := at(2 * time.Minute)
	second, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"B1": "child"}), m)
	if err != nil {
		t.Fatal(err)
	}
	if second.Payment.ID == first.Payment.ID || second.Payment.Amount != 350_00 {
		t.Errorf("Pay with another choice = payment %s of %d; want a new payment of 35000", second.Payment.ID, second.Payment.Amount)
	}
	if second.Replaced == nil || second.Replaced.ID != first.Payment.ID {
		t.Fatalf("Replaced = %+v, want payment %s", second.Replaced, first.Payment.ID)
	}
	old := getPayment(t, s, first.Payment.ID)
	if !old.ReplacedAt.Equal(m.Now) || old.State != booking.PaymentPending || !old.CheckoutClosedAt.Equal(m.Now) {
		t.Errorf("replaced payment: replaced at %v, state %s, checkout closed at %v; want replaced and closed at %v, still pending (a late success is settled)",
			old.ReplacedAt, old.State, old.CheckoutClosedAt, m.Now)
	}
	if ob := getBooking(t, s, first.Booking.ID); ob.State != booking.BookingFailed || ob.Reason != booking.ReasonPaymentReplaced {
		t.Errorf("replaced payment's booking: %s %q, want failed, replaced", ob.State, ob.Reason)
	}
	// The checkout's first choice is the new payment's, not the replaced
	// one's.
	if got, err := s.Store.PendingTickets(ctx, h.ID); err != nil || !cmp.Equal(got, second.Payment.Tickets) {
		t.Errorf("PendingTickets = %+v, %v; want the new payment's %+v", got, err, second.Payment.Tickets)
	}
	// Pay again with the new choice reuses the new payment, not the
	// replaced one.
	third, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"B1": "child"}), at(3*time.Minute))
	if err != nil || third.Payment.ID != second.Payment.ID || third.Replaced != nil {
		t.Errorf("Pay again = %s (replaced %v), %v; want %s", third.Payment.ID, third.Replaced, err, second.Payment.ID)
	}
	// Its success books the seats as the new payment's.
	st := settle(t, s, event(second.Payment, booking.EventPaymentSucceeded), "TKT1-TYPE", at(4*time.Minute))
	if st.Effect != booking.EffectBooked || len(st.Booking.Tickets) != 2 || st.Booking.Tickets[1].Type != "child" {
		t.Errorf("settled %s with tickets %+v, want booked with B1 a child", st.Effect, st.Booking.Tickets)
	}
	if got, err := s.Store.PendingTickets(ctx, h.ID); err != nil || len(got) != 0 {
		t.Errorf("PendingTickets once paid = %+v, %v; want none", got, err)
	}
}

// testTypedPayReplacedPaysLate: a success that still arrives for the
// replaced payment is settled by SPEC §2 as a late payment (§15): its
// seats, still locked by the hold, are booked for the replaced payment's
// booking at its own types and amount, that booking is confirmed without
// the reason it failed with, and the payment stays replaced (out of the
// hold's live payment). The new payment's success then finds the seats
// taken: refund due.
func testTypedPayReplacedPaysLate(t *testing.T, s store) {
	ctx := context.Background()
	h := typedHold(t, s)
	first, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(nil), at(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	m := at(2 * time.Minute)
	second, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"B1": "child"}), m)
	if err != nil || second.Replaced == nil {
		t.Fatalf("Pay with another choice = %+v, %v; want the first payment replaced", second, err)
	}
	st := settle(t, s, event(first.Payment, booking.EventPaymentSucceeded), "TKT1-LATE", at(3*time.Minute))
	if st.Effect != booking.EffectBooked {
		t.Fatalf("the replaced payment's success: %s (%s), want booked", st.Effect, st.Reason)
	}
	b := getBooking(t, s, first.Booking.ID)
	if b.State != booking.BookingConfirmed || b.TicketCode != "TKT1-LATE" || b.Amount != first.Payment.Amount {
		t.Errorf("replaced payment's booking = %s %q, amount %d; want confirmed TKT1-LATE at %d", b.State, b.TicketCode, b.Amount, first.Payment.Amount)
	}
	if b.Reason != "" {
		t.Errorf("confirmed booking keeps the reason %q it failed with", b.Reason)
	}
	if diff := cmp.Diff(first.Payment.Tickets, b.Tickets); diff != "" {
		t.Errorf("confirmed booking's tickets (-want +got):\n%s", diff)
	}
	old := getPayment(t, s, first.Payment.ID)
	if old.State != booking.PaymentSucceeded || !old.ReplacedAt.Equal(m.Now) {
		t.Errorf("replaced payment once paid: %s, replaced at %v; want succeeded, still replaced at %v", old.State, old.ReplacedAt, m.Now)
	}
	checkSeats(t, s, h.ShowID, map[string]seatView{"A1": bookedBy(b), "B1": bookedBy(b)})
	if got := getHold(t, s, h.ID).State; got != booking.HoldCompleted {
		t.Errorf("hold %s, want completed", got)
	}
	// The live payment is still the new one.
	if got := getPayment(t, s, second.Payment.ID); got.State != booking.PaymentPending || !got.ReplacedAt.IsZero() {
		t.Errorf("new payment = %s, replaced at %v; want pending, live", got.State, got.ReplacedAt)
	}
	st = settle(t, s, event(second.Payment, booking.EventPaymentSucceeded), "TKT2-LATE", at(4*time.Minute))
	if st.Effect != booking.EffectRefundDue || getBooking(t, s, second.Booking.ID).State != booking.BookingRefundDue {
		t.Errorf("the new payment's success after the replaced one booked: %s, want refund due", st.Effect)
	}
}

// testTypedPayReplacedFailsAlone: a failure, or an expired checkout, of a
// replaced payment ends that payment alone: the hold keeps its seats for
// the payment that replaced it, whose success then books them.
func testTypedPayReplacedFailsAlone(t *testing.T, s store) {
	ctx := context.Background()
	for i, typ := range []booking.EventType{booking.EventPaymentFailed, booking.EventCheckoutExpired} {
		t.Run(string(typ), func(t *testing.T) {
			h := typedHold(t, s)
			first, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(nil), at(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			second, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"B1": "child"}), at(2*time.Minute))
			if err != nil || second.Replaced == nil {
				t.Fatalf("Pay with another choice = %+v, %v; want the first payment replaced", second, err)
			}
			ev := event(first.Payment, typ)
			st := settle(t, s, ev, "", at(3*time.Minute))
			if st.Effect != booking.EffectReplacedEnded {
				t.Fatalf("the replaced payment's %s: %s (%s), want %s", typ, st.Effect, st.Reason, booking.EffectReplacedEnded)
			}
			if got := getPayment(t, s, first.Payment.ID).State; got != booking.PaymentFailed {
				t.Errorf("replaced payment %s, want failed", got)
			}
			if got := getHold(t, s, h.ID).State; got != booking.HoldActive {
				t.Errorf("hold %s after the replaced payment ended, want active", got)
			}
			st = settle(t, s, event(second.Payment, booking.EventPaymentSucceeded), "TKT-ALONE-"+string(rune('A'+i)), at(4*time.Minute))
			if st.Effect != booking.EffectBooked {
				t.Errorf("the new payment's success: %s (%s), want booked", st.Effect, st.Reason)
			}
		})
	}
}

// testTypedPayTaxRates: Pay fixes each seat's tax rate from its theatre's
// rates at that moment (SPEC §17), the second rate on a price above the
// threshold; a later change of the rates leaves the sold seats alone and
// a repeated Pay with the same choice reuses the payment.
func testTypedPayTaxRates(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	rates := booking.TaxRates{Rate: 1200, Above: 100_00, AboveRate: 1800}
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, rates); err != nil {
		t.Fatal(err)
	}
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "B1")
	out, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"A1": "child", "B1": "adult"}), at(time.Minute))
	if err != nil {
		t.Fatalf("StartTypedPayment: %v", err)
	}
	want := map[string]booking.TaxRate{"A1": 1200, "B1": 1800} // 100.00 is not above the threshold; 300.00 is
	for _, tickets := range [][]booking.SeatTicket{getPayment(t, s, out.Payment.ID).Tickets, getBooking(t, s, out.Booking.ID).Tickets} {
		got := map[string]booking.TaxRate{}
		for _, tk := range tickets {
			got[tk.SeatID] = tk.TaxRate
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tax rates stored with the seats (-want +got):\n%s", diff)
		}
	}
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, booking.TaxRates{Rate: 500}); err != nil {
		t.Fatal(err)
	}
	again, err := s.StartTypedPayment(ctx, h.ID, "o1", typedStart(booking.TypeChoice{"A1": "child", "B1": "adult"}), at(2*time.Minute))
	if err != nil || again.Payment.ID != out.Payment.ID || again.Replaced != nil {
		t.Errorf("Pay again after the rate changed = %s (replaced %v), %v; want payment %s reused", again.Payment.ID, again.Replaced, err, out.Payment.ID)
	}
	if b := getBooking(t, s, out.Booking.ID); len(b.Tickets) != 2 || b.Tickets[0].TaxRate != 1200 || b.Tickets[1].TaxRate != 1800 {
		t.Errorf("booking's tickets after the rate changed = %+v; want the rates fixed at sale", b.Tickets)
	}
}

// testTypedPayProvider: Pay stores the name of the provider it pays
// through with the payment (PaymentStart.Provider), and a Pay again that
// reuses the payment keeps the name it was made with.
func testTypedPayProvider(t *testing.T, s store) {
	ctx := context.Background()
	h := typedHold(t, s)
	ids := typedStart(booking.TypeChoice{"A1": "child", "B1": "adult"})
	ids.Provider = "sandbox"
	out, err := s.StartTypedPayment(ctx, h.ID, "o1", ids, at(time.Minute))
	if err != nil {
		t.Fatalf("StartTypedPayment: %v", err)
	}
	if out.Payment.Provider != "sandbox" {
		t.Errorf("Pay answered provider %q, want sandbox", out.Payment.Provider)
	}
	if p := getPayment(t, s, out.Payment.ID); p.Provider != "sandbox" {
		t.Errorf("stored provider %q, want sandbox", p.Provider)
	}
	again := typedStart(booking.TypeChoice{"A1": "child", "B1": "adult"})
	again.Provider = "stripe"
	out2, err := s.StartTypedPayment(ctx, h.ID, "o1", again, at(2*time.Minute))
	if err != nil || out2.Payment.ID != out.Payment.ID {
		t.Fatalf("Pay again = %s, %v; want payment %s reused", out2.Payment.ID, err, out.Payment.ID)
	}
	if p := getPayment(t, s, out.Payment.ID); p.Provider != "sandbox" {
		t.Errorf("after a Pay again: stored provider %q, want sandbox still", p.Provider)
	}
}
