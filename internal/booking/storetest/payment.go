package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var startPaymentTests = []test{
	{"CreatesPendingPayment", testStartPayment},
	{"AgainReturnsSamePayment", testStartPaymentAgain},
	{"RefusedWhenGone", testStartPaymentGone},
	{"NotOwner", testStartPaymentNotOwner},
}

var settleTests = []test{
	{"BooksInTime", testSettleBooksInTime},
	{"BooksLatePaymentWhenSeatsFree", testSettleLateRescue},
	{"RefundDueWhenSeatRetaken", testSettleRefundDue},
	{"FailureReleases", testSettleFailureReleases},
	{"DuplicateEvent", testSettleDuplicate},
	{"FirstOutcomeWins", testSettleFirstOutcomeWins},
	{"MismatchRecordsNothing", testSettleMismatch},
	{"TicketCodeTakenRecordsNothing", testSettleTicketCodeTaken},
}

func testStartPayment(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "B3")
	before := getSeats(t, s, show.ID)
	ids := newPaymentStart()
	m := at(ttl - time.Nanosecond) // the last instant the hold can be paid
	p, b, err := s.StartPayment(ctx, h.ID, "o1", ids, m)
	if err != nil {
		t.Fatalf("StartPayment: %v", err)
	}
	// A show without a price table sells each seat as standard at its
	// price.
	tickets := []booking.SeatTicket{
		{SeatID: "A1", Category: "Classic", Type: booking.StandardTypeID, Price: classicPrice, Name: "Standard"},
		{SeatID: "B3", Category: "Prime", Type: booking.StandardTypeID, Price: primePrice, Name: "Standard"},
	}
	wantP := booking.Payment{
		ID: ids.PaymentID, HoldID: h.ID, BookingID: ids.BookingID, Owner: "o1",
		Amount: classicPrice + primePrice, Currency: currency, State: booking.PaymentPending, CreatedAt: m.Now,
		Tickets: tickets,
	}
	wantB := booking.Booking{
		ID: ids.BookingID, HoldID: h.ID, PaymentID: ids.PaymentID, Owner: "o1", ShowID: show.ID,
		SeatIDs: []string{"A1", "B3"}, Amount: classicPrice + primePrice, Currency: currency,
		State: booking.BookingPending, CreatedAt: m.Now, UpdatedAt: m.Now, Email: ids.Email, Key: ids.Key,
		Tickets: tickets, Channel: booking.ChannelOnline,
	}
	if diff := cmp.Diff(wantP, p); diff != "" {
		t.Errorf("StartPayment payment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantB, b); diff != "" {
		t.Errorf("StartPayment booking (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantP, getPayment(t, s, ids.PaymentID)); diff != "" {
		t.Errorf("Payment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantB, getBooking(t, s, ids.BookingID)); diff != "" {
		t.Errorf("Booking (-want +got):\n%s", diff)
	}
	// Paying touches neither the seats nor the hold.
	unchanged(t, s, show.ID, before)
	if diff := cmp.Diff(h, getHold(t, s, h.ID)); diff != "" {
		t.Errorf("hold after StartPayment (-want +got):\n%s", diff)
	}
}

func testStartPaymentAgain(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	p1, b1 := pay(t, s, h, at(time.Minute))
	ids := newPaymentStart()
	p2, b2, err := s.StartPayment(ctx, h.ID, "o1", ids, at(2*time.Minute))
	if err != nil {
		t.Fatalf("StartPayment again: %v", err)
	}
	if diff := cmp.Diff(p1, p2); diff != "" {
		t.Errorf("StartPayment again: payment (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(b1, b2); diff != "" {
		t.Errorf("StartPayment again: booking (-first +second):\n%s", diff)
	}
	_, err = s.Payment(ctx, ids.PaymentID)
	wantErr(t, "Payment(second ids)", err, booking.ErrPaymentNotFound)
	_, err = s.Booking(ctx, ids.BookingID)
	wantErr(t, "Booking(second ids)", err, booking.ErrBookingNotFound)
}

func testStartPaymentGone(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 6, later)

	expired := hold(t, s, show.ID, "o1", at(0), "A1")
	released := hold(t, s, show.ID, "o2", at(0), "A2")
	if _, err := s.ReleaseHold(ctx, released.ID, "o2"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	replaced := hold(t, s, show.ID, "o3", at(0), "A3")
	hold(t, s, show.ID, "o3", at(time.Minute), "A4")
	completed, _ := book(t, s, show.ID, "o4", at(0), "A5")

	tests := []struct {
		name string
		h    booking.Hold
		m    booking.Moment
		want error
	}{
		{"expired exactly", expired, at(ttl), booking.ErrHoldExpired},
		{"expired long ago", expired, at(10 * ttl), booking.ErrHoldExpired},
		{"released", released, at(time.Minute), booking.ErrHoldReleased},
		{"replaced", replaced, at(2 * time.Minute), booking.ErrHoldReplaced},
		{"completed", completed, at(time.Minute), booking.ErrHoldCompleted},
	}
	for _, tt := range tests {
		before := getSeats(t, s, show.ID)
		ids := newPaymentStart()
		_, _, err := s.StartPayment(ctx, tt.h.ID, tt.h.Owner, ids, tt.m)
		wantErr(t, "StartPayment of a hold "+tt.name, err, tt.want)
		wantCode(t, "StartPayment of a hold "+tt.name, err, booking.EGONE)
		_, err = s.Payment(ctx, ids.PaymentID)
		wantErr(t, "Payment after a refused StartPayment ("+tt.name+")", err, booking.ErrPaymentNotFound)
		_, err = s.Booking(ctx, ids.BookingID)
		wantErr(t, "Booking after a refused StartPayment ("+tt.name+")", err, booking.ErrBookingNotFound)
		unchanged(t, s, show.ID, before)
	}
}

func testStartPaymentNotOwner(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	for _, owner := range []string{"o2", ""} {
		ids := newPaymentStart()
		_, _, err := s.StartPayment(ctx, h.ID, owner, ids, at(time.Minute))
		wantCode(t, "StartPayment by "+owner, err, booking.ENOTFOUND)
		_, err = s.Payment(ctx, ids.PaymentID)
		wantErr(t, "Payment after StartPayment by "+owner, err, booking.ErrPaymentNotFound)
	}
	// The owner's own payment is still the first.
	pay(t, s, h, at(time.Minute))
}

// checkSettled compares what SettlePayment returned with what is stored,
// and the stored payment and booking with want.
func checkSettled(t *testing.T, s store, st booking.Settlement, wantP booking.Payment, wantB booking.Booking) {
	t.Helper()
	if diff := cmp.Diff(wantP, getPayment(t, s, wantP.ID)); diff != "" {
		t.Errorf("stored payment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantB, getBooking(t, s, wantB.ID)); diff != "" {
		t.Errorf("stored booking (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantP, st.Payment); diff != "" {
		t.Errorf("Settlement.Payment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantB, st.Booking); diff != "" {
		t.Errorf("Settlement.Booking (-want +got):\n%s", diff)
	}
}

func testSettleBooksInTime(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	p, b := pay(t, s, h, at(time.Minute))
	m := at(2 * time.Minute)
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), "7K3M-Q9PA", m)
	if st.Effect != booking.EffectBooked || st.Duplicate || len(st.Conflicts) != 0 {
		t.Fatalf("settlement %+v, want booked, not duplicate, no conflicts", st)
	}
	p.State = booking.PaymentSucceeded
	b.State, b.TicketCode, b.UpdatedAt, b.ConfirmedAt = booking.BookingConfirmed, "7K3M-Q9PA", m.Now, m.Now
	checkSettled(t, s, st, p, b)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": bookedBy(b), "A3": free})
	if got := getHold(t, s, h.ID).State; got != booking.HoldCompleted {
		t.Errorf("hold state %q, want %q", got, booking.HoldCompleted)
	}
	_, err := s.ActiveHold(ctx, show.ID, "o1")
	wantErr(t, "ActiveHold after booking", err, booking.ErrHoldNotFound)
	// Booked is never available, whenever asked.
	for _, m := range []booking.Moment{at(3 * time.Minute), at(100 * ttl)} {
		if diff := cmp.Diff([]string{"A3"}, availableIDs(t, s, show.ID, m)); diff != "" {
			t.Errorf("AvailableSeatIDs (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(booking.Occupancy{Total: 3, Booked: 2, Available: 1}, occupancy(t, s, show.ID, m)); diff != "" {
			t.Errorf("Occupancy (-want +got):\n%s", diff)
		}
	}
	err = s.HoldSeats(ctx, newHold(show.ID, "o2", at(100*ttl), "A2"), at(100*ttl))
	if diff := cmp.Diff([]string{"A2"}, booking.UnavailableSeats(err)); diff != "" {
		t.Errorf("HoldSeats of a booked seat: %v (-want +got):\n%s", err, diff)
	}
}

// testSettleLateRescue: a success books the seats however late it comes, as
// long as each is still locked by the hold or free by the seat rule.
func testSettleLateRescue(t *testing.T, s store) {
	ctx := context.Background()
	tests := []struct {
		name    string
		prepare func(t *testing.T, show booking.Show, h booking.Hold)
	}{
		{"untouched, long expired", func(*testing.T, booking.Show, booking.Hold) {}},
		{"released", func(t *testing.T, _ booking.Show, h booking.Hold) {
			if _, err := s.ReleaseHold(ctx, h.ID, h.Owner); err != nil {
				t.Fatalf("ReleaseHold: %v", err)
			}
		}},
		// "Replaced by the session" is no more: a session cannot replace
		// a hold it is paying for (testPayingHoldIsNotReplaced).
		{"re-held by someone whose lock lapsed too", func(t *testing.T, show booking.Show, _ booking.Hold) {
			hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A2")
		}},
		{"re-held and released by someone", func(t *testing.T, show booking.Show, _ booking.Hold) {
			h2 := hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A1", "A3")
			if _, err := s.ReleaseHold(ctx, h2.ID, "o2"); err != nil {
				t.Fatalf("ReleaseHold: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			show, _ := newShow(t, s, 1, 4, later)
			h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
			p, b := pay(t, s, h, at(time.Minute))
			tt.prepare(t, show, h)
			m := at(10 * ttl)
			code := booking.NewTicketCode() // the cases share the store, and codes are unique
			st := settle(t, s, event(p, booking.EventPaymentSucceeded), code, m)
			if st.Effect != booking.EffectBooked {
				t.Fatalf("settlement %+v, want booked", st)
			}
			p.State = booking.PaymentSucceeded
			b.State, b.TicketCode, b.UpdatedAt, b.ConfirmedAt = booking.BookingConfirmed, code, m.Now, m.Now
			checkSettled(t, s, st, p, b)
			checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": bookedBy(b)})
			if got := getHold(t, s, h.ID).State; got != booking.HoldCompleted {
				t.Errorf("hold state %q, want %q", got, booking.HoldCompleted)
			}
		})
	}
}

func testSettleRefundDue(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2", "A3")
	p, b := pay(t, s, h, at(time.Minute))
	other := hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A2", "A4")
	// A3 was re-held and released by a third session: free, not a conflict.
	third := hold(t, s, show.ID, "o3", at(ttl+time.Minute), "A3")
	if _, err := s.ReleaseHold(context.Background(), third.ID, "o3"); err != nil {
		t.Fatalf("ReleaseHold: %v", err)
	}
	m := at(ttl + 2*time.Minute)
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), "NOPE-0000", m)
	if st.Effect != booking.EffectRefundDue || st.Duplicate {
		t.Fatalf("settlement %+v, want refund_due, not duplicate", st)
	}
	if diff := cmp.Diff([]string{"A2"}, st.Conflicts); diff != "" {
		t.Errorf("Conflicts (-want +got):\n%s", diff)
	}
	if !strings.Contains(st.Reason, "A2") {
		t.Errorf("Reason %q does not name seat A2", st.Reason)
	}
	p.State = booking.PaymentSucceeded // the money was taken
	b.State, b.Reason, b.UpdatedAt = booking.BookingRefundDue, st.Reason, m.Now
	checkSettled(t, s, st, p, b)
	// Nothing booked; this hold's own lock released; the other hold intact.
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": lockedBy(other), "A3": free, "A4": lockedBy(other)})
	if got := getHold(t, s, h.ID).State; got != booking.HoldCompleted {
		t.Errorf("hold state %q, want %q", got, booking.HoldCompleted)
	}
	if got := getHold(t, s, other.ID).State; got != booking.HoldActive {
		t.Errorf("other hold's state %q, want %q", got, booking.HoldActive)
	}
	if b := getBooking(t, s, b.ID); b.TicketCode != "" {
		t.Errorf("refund_due booking has ticket code %q", b.TicketCode)
	}
}

func testSettleFailureReleases(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2", "A3")
	p, b := pay(t, s, h, at(time.Minute))
	other := hold(t, s, show.ID, "o2", at(ttl), "A3") // took a lapsed seat
	m := at(ttl + time.Minute)
	st := settle(t, s, event(p, booking.EventPaymentFailed), "", m)
	if st.Effect != booking.EffectReleased || st.Duplicate {
		t.Fatalf("settlement %+v, want released, not duplicate", st)
	}
	p.State = booking.PaymentFailed
	b.State, b.Reason, b.UpdatedAt = booking.BookingFailed, st.Reason, m.Now
	checkSettled(t, s, st, p, b)
	if b.Reason == "" {
		t.Error("failed booking has no reason")
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": free, "A3": lockedBy(other), "A4": free})
	if got := getHold(t, s, h.ID).State; got != booking.HoldReleased {
		t.Errorf("hold state %q, want %q", got, booking.HoldReleased)
	}
}

func testSettleDuplicate(t *testing.T, s store) {
	ctx := context.Background()
	for _, typ := range []booking.EventType{booking.EventPaymentSucceeded, booking.EventPaymentFailed} {
		t.Run(string(typ), func(t *testing.T) {
			show, _ := newShow(t, s, 1, 3, later)
			h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
			p, _ := pay(t, s, h, at(time.Minute))
			ev := event(p, typ)
			first := settle(t, s, ev, "FRST-0001", at(2*time.Minute))
			if first.Duplicate {
				t.Fatalf("first delivery marked duplicate: %+v", first)
			}
			// Someone takes a released seat, so that a second effect would show.
			if typ == booking.EventPaymentFailed {
				hold(t, s, show.ID, "o2", at(3*time.Minute), "A1")
			}
			seats := getSeats(t, s, show.ID)
			payment, bk, hl := getPayment(t, s, p.ID), getBooking(t, s, p.BookingID), getHold(t, s, h.ID)
			for _, m := range []booking.Moment{at(3 * time.Minute), at(10 * ttl)} {
				again, err := s.SettlePayment(ctx, ev, "SCND-0002", m)
				if err != nil {
					t.Fatalf("SettlePayment of a duplicate: %v", err)
				}
				if !again.Duplicate {
					t.Errorf("second delivery not marked duplicate: %+v", again)
				}
			}
			unchanged(t, s, show.ID, seats)
			same(t, "payment", payment, getPayment(t, s, p.ID))
			same(t, "booking", bk, getBooking(t, s, p.BookingID))
			same(t, "hold", hl, getHold(t, s, h.ID))
		})
	}
}

// testSettleFirstOutcomeWins: a later event that contradicts the payment's
// outcome is recorded and changes nothing.
func testSettleFirstOutcomeWins(t *testing.T, s store) {
	tests := []struct {
		first, then booking.EventType
	}{
		{booking.EventPaymentSucceeded, booking.EventPaymentFailed},
		{booking.EventPaymentFailed, booking.EventPaymentSucceeded},
		{booking.EventPaymentSucceeded, booking.EventPaymentSucceeded},
	}
	for _, tt := range tests {
		t.Run(string(tt.first)+"_then_"+string(tt.then), func(t *testing.T) {
			show, _ := newShow(t, s, 1, 3, later)
			h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
			p, _ := pay(t, s, h, at(time.Minute))
			settle(t, s, event(p, tt.first), booking.NewTicketCode(), at(2*time.Minute))
			seats := getSeats(t, s, show.ID)
			payment, bk := getPayment(t, s, p.ID), getBooking(t, s, p.BookingID)
			ev := event(p, tt.then)
			st := settle(t, s, ev, "SCND-0002", at(3*time.Minute))
			if st.Effect != booking.EffectIgnored || st.Duplicate {
				t.Errorf("later event: settlement %+v, want ignored, not duplicate", st)
			}
			unchanged(t, s, show.ID, seats)
			same(t, "payment", payment, getPayment(t, s, p.ID))
			same(t, "booking", bk, getBooking(t, s, p.BookingID))
			// The later event was recorded: delivered again, it is a duplicate.
			if again := settle(t, s, ev, "THRD-0003", at(4*time.Minute)); !again.Duplicate {
				t.Errorf("the ignored event delivered again: %+v, want duplicate", again)
			}
		})
	}
}

func testSettleMismatch(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1")
	otherHold := hold(t, s, show.ID, "o2", at(0), "A2")
	p, b := pay(t, s, h, at(time.Minute))
	good := event(p, booking.EventPaymentSucceeded)
	seats := getSeats(t, s, show.ID)

	tests := []struct {
		name string
		edit func(*booking.PaymentEvent)
		code string
	}{
		{"amount too high", func(ev *booking.PaymentEvent) { ev.Amount++ }, booking.EINVALID},
		{"amount too low", func(ev *booking.PaymentEvent) { ev.Amount-- }, booking.EINVALID},
		{"another hold", func(ev *booking.PaymentEvent) { ev.HoldID = otherHold.ID }, booking.EINVALID},
		{"another currency", func(ev *booking.PaymentEvent) { ev.Currency = "USD" }, booking.EINVALID},
		{"unknown type", func(ev *booking.PaymentEvent) { ev.Type = "payment.refunded" }, booking.EINVALID},
	}
	for _, tt := range tests {
		ev := good
		tt.edit(&ev)
		_, err := s.SettlePayment(ctx, ev, "MISM-0001", at(2*time.Minute))
		wantCode(t, "SettlePayment with "+tt.name, err, tt.code)
		if tt.name != "unknown type" {
			wantErr(t, "SettlePayment with "+tt.name, err, booking.ErrPaymentMismatch)
		}
		unchanged(t, s, show.ID, seats)
		same(t, tt.name+": payment", p, getPayment(t, s, p.ID))
		same(t, tt.name+": booking", b, getBooking(t, s, b.ID))
	}
	// Nothing was recorded: the same event id with the right data counts.
	st := settle(t, s, good, "GOOD-0001", at(2*time.Minute))
	if st.Effect != booking.EffectBooked || st.Duplicate {
		t.Errorf("the same event id with correct data: %+v, want booked, not duplicate", st)
	}
}

// testSettleTicketCodeTaken: a success whose ticket code another booking
// already has is refused with ErrTicketCodeTaken and rolled back whole, so
// that the service can settle the same event again with a fresh code.
func testSettleTicketCodeTaken(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h1 := hold(t, s, show.ID, "o1", at(0), "A1")
	p1, _ := pay(t, s, h1, at(time.Minute))
	if st := settle(t, s, event(p1, booking.EventPaymentSucceeded), "SAME-C0DE", at(2*time.Minute)); st.Effect != booking.EffectBooked {
		t.Fatalf("first settlement %+v, want booked", st)
	}
	first := getBooking(t, s, p1.BookingID)

	h2 := hold(t, s, show.ID, "o2", at(0), "A2", "A3")
	p2, b2 := pay(t, s, h2, at(time.Minute))
	seats := getSeats(t, s, show.ID)
	ev := event(p2, booking.EventPaymentSucceeded)
	st, err := s.SettlePayment(ctx, ev, "SAME-C0DE", at(2*time.Minute))
	wantErr(t, "SettlePayment with a ticket code already taken", err, booking.ErrTicketCodeTaken)
	if diff := cmp.Diff(booking.Settlement{}, st); diff != "" {
		t.Errorf("SettlePayment with a ticket code already taken returned a settlement (-want +got):\n%s", diff)
	}
	// Nothing changed: the seats are still locked by the hold, which is
	// still active, and the payment and booking are still pending.
	unchanged(t, s, show.ID, seats)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(first), "A2": lockedBy(h2), "A3": lockedBy(h2)})
	same(t, "hold", h2, getHold(t, s, h2.ID))
	same(t, "payment", p2, getPayment(t, s, p2.ID))
	same(t, "booking", b2, getBooking(t, s, b2.ID))
	same(t, "the booking that has the code", first, getBooking(t, s, first.ID))

	// The event id was not recorded: sent again with a fresh code, it books.
	m := at(3 * time.Minute)
	st = settle(t, s, ev, "FRSH-C0DE", m)
	if st.Effect != booking.EffectBooked || st.Duplicate {
		t.Fatalf("the same event with a fresh code: %+v, want booked, not duplicate", st)
	}
	p2.State = booking.PaymentSucceeded
	b2.State, b2.TicketCode, b2.UpdatedAt, b2.ConfirmedAt = booking.BookingConfirmed, "FRSH-C0DE", m.Now, m.Now
	checkSettled(t, s, st, p2, b2)
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(first), "A2": bookedBy(b2), "A3": bookedBy(b2)})
}
