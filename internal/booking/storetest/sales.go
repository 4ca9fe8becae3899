package storetest

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// salesTests are SPEC §10's sales window, decided inside the store's step
// on the show as stored, with a moved clock: no hold or payment from the
// close on, while a payment started before it settles.
var salesTests = []test{
	{"HoldRefusedFromTheClose", testHoldRefusedFromTheClose},
	{"PayRefusedFromTheClose", testPayRefusedFromTheClose},
	{"PaymentStartedBeforeTheCloseSettles", testPaymentStartedBeforeTheCloseSettles},
	{"CancelShow", testCancelShow},
	{"CancelShowInBatches", testCancelShowInBatches},
}

// closing is a moment relative to the start of a show starting at later,
// with SALES_CLOSE close.
func closing(d, close time.Duration) booking.Moment {
	return booking.Rules{TTL: ttl, SalesClose: close, AllowGaps: true}.At(later.Add(d))
}

func testHoldRefusedFromTheClose(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 4, later)
	cases := []struct {
		name  string
		m     booking.Moment
		open  bool
		seat  string
		owner string
	}{
		{"1ns before the start, close at the start", closing(-time.Nanosecond, 0), true, "A1", "o1"},
		{"at the start", closing(0, 0), false, "A2", "o2"},
		{"long after", closing(48*time.Hour, 0), false, "A2", "o2"},
		{"close 30 minutes before: 31 minutes before", closing(-31*time.Minute, -30*time.Minute), true, "A3", "o3"},
		{"close 30 minutes before: 30 minutes before", closing(-30*time.Minute, -30*time.Minute), false, "A4", "o4"},
		{"close 10 minutes after: 5 minutes after", closing(5*time.Minute, 10*time.Minute), true, "B1", "o5"},
		{"close 10 minutes after: 10 minutes after", closing(10*time.Minute, 10*time.Minute), false, "B2", "o6"},
	}
	for _, tc := range cases {
		before := getSeats(t, s, show.ID)
		err := s.HoldSeats(ctx, newHold(show.ID, tc.owner, tc.m, tc.seat), tc.m)
		if tc.open {
			if err != nil {
				t.Errorf("%s: HoldSeats = %v, want the hold", tc.name, err)
			}
			continue
		}
		wantErr(t, tc.name+": HoldSeats", err, booking.ErrSalesClosed)
		unchanged(t, s, show.ID, before)
		_, err = s.ActiveHold(ctx, show.ID, tc.owner)
		wantErr(t, tc.name+": ActiveHold after a refused hold", err, booking.ErrHoldNotFound)
	}
	err := s.HoldSeats(ctx, newHold(booking.NewID(), "o9", closing(0, 0), "A1"), closing(0, 0))
	wantErr(t, "HoldSeats of an unknown show", err, booking.ErrShowNotFound)
}

func testPayRefusedFromTheClose(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", closing(-10*time.Minute, 0), "A1", "A2")
	ids := newPaymentStart()
	_, _, err := s.StartPayment(ctx, h.ID, "o1", ids, closing(0, 0))
	wantErr(t, "StartPayment at the close", err, booking.ErrSalesClosed)
	wantCode(t, "StartPayment at the close", err, booking.EGONE)
	_, err = s.Payment(ctx, ids.PaymentID)
	wantErr(t, "Payment after a refused StartPayment", err, booking.ErrPaymentNotFound)
	_, err = s.Booking(ctx, ids.BookingID)
	wantErr(t, "Booking after a refused StartPayment", err, booking.ErrBookingNotFound)
	if _, _, err := s.StartPayment(ctx, h.ID, "o1", newPaymentStart(), closing(-time.Minute, 0)); err != nil {
		t.Errorf("StartPayment a minute before the close: %v", err)
	}
}

func testPaymentStartedBeforeTheCloseSettles(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 4, later)
	h := hold(t, s, show.ID, "o1", closing(-5*time.Minute, 0), "A3")
	p, _ := pay(t, s, h, closing(-time.Minute, 0))
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), "LATE-0001", closing(5*time.Minute, 0))
	if st.Effect != booking.EffectBooked {
		t.Errorf("a payment started before the close and settled after it: %q (%s), want booked", st.Effect, st.Reason)
	}
}

func testCancelShow(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 4, later)
	other, _ := newShow(t, s, 1, 2, later)
	live := hold(t, s, show.ID, "live", at(time.Hour), "A1", "A2")
	_, confirmed := book(t, s, show.ID, "booked", at(0), "A3")
	paying := hold(t, s, show.ID, "paying", at(time.Hour), "A4")
	pendingP, _ := pay(t, s, paying, at(time.Hour))
	otherHold := hold(t, s, other.ID, "elsewhere", at(time.Hour), "A1")

	m := at(time.Hour + time.Minute)
	got, due, err := s.CancelShow(ctx, show.ID, m)
	if err != nil {
		t.Fatalf("CancelShow: %v", err)
	}
	want := show
	want.CancelledAt = m.Now
	same(t, "cancelled show", want, got)
	same(t, "stored show", want, getShow(t, s, show.ID))
	wantB, _ := confirmed.CancelledShow(m.Now)
	if len(due) != 1 {
		t.Fatalf("CancelShow returned %d bookings due a refund, want 1", len(due))
	}
	same(t, "booking due a refund", wantB, due[0])
	same(t, "stored booking", wantB, getBooking(t, s, confirmed.ID))
	if wantB.State != booking.BookingRefundDue || wantB.Reason != booking.ReasonShowCancelled {
		t.Errorf("CancelledShow gave %s %q", wantB.State, wantB.Reason)
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": free, "A3": bookedBy(confirmed), "A4": free,
		"B1": free, "B2": free, "B3": free, "B4": free})
	for _, h := range []booking.Hold{live, paying} {
		if got := getHold(t, s, h.ID).State; got != booking.HoldReleased {
			t.Errorf("hold %s: %q, want released", h.Owner, got)
		}
	}
	if got := getHold(t, s, otherHold.ID); got.State != booking.HoldActive {
		t.Errorf("another show's hold: %q, want active", got.State)
	}

	// Nothing more is sold; a payment in flight is refunded when it lands.
	err = s.HoldSeats(ctx, newHold(show.ID, "late", at(2*time.Hour), "B1"), at(2*time.Hour))
	wantErr(t, "HoldSeats of a cancelled show", err, booking.ErrShowCancelled)
	_, _, err = s.StartPayment(ctx, paying.ID, "paying", newPaymentStart(), at(time.Hour+2*time.Minute))
	wantErr(t, "StartPayment of a cancelled show", err, booking.ErrShowCancelled)
	st := settle(t, s, event(pendingP, booking.EventPaymentSucceeded), "CNCL-0001", at(time.Hour+3*time.Minute))
	if st.Effect != booking.EffectRefundDue || st.Reason != booking.ReasonShowCancelled {
		t.Errorf("a payment landing after the cancellation: %q %q, want refund_due, %q", st.Effect, st.Reason, booking.ReasonShowCancelled)
	}
	up, err := s.UpcomingShows(ctx, base, 10, at(2*time.Hour))
	if err != nil || len(up) != 1 || up[0].ID != other.ID {
		t.Errorf("UpcomingShows after the cancellation = %v, %v; want only the other show", up, err)
	}

	again, due, err := s.CancelShow(ctx, show.ID, at(3*time.Hour))
	if err != nil || len(due) != 0 || !again.CancelledAt.Equal(m.Now) {
		t.Errorf("CancelShow again = %v, %d due, %v; want it as it was", again.CancelledAt, len(due), err)
	}
	_, _, err = s.CancelShow(ctx, booking.NewID(), m)
	wantErr(t, "CancelShow of an unknown show", err, booking.ErrShowNotFound)
}

// testRaceHoldsAgainstCancel races sessions holding seats, and a payment
// landing, against the show's cancellation: whatever commits in which
// order, afterwards no seat is locked, no hold is active, and no booking is
// confirmed.
func testRaceHoldsAgainstCancel(t *testing.T, s store) {
	ctx := context.Background()
	show, _ := newShow(t, s, 2, 10, later)
	paying := hold(t, s, show.ID, "paying", at(0), "B10")
	p, _ := pay(t, s, paying, at(0))
	const holders = 12
	m := at(time.Minute)
	concurrently(holders+2, func(i int) {
		switch {
		case i == holders:
			if _, _, err := s.CancelShow(ctx, show.ID, m); err != nil {
				t.Errorf("CancelShow: %v", err)
			}
		case i == holders+1:
			if _, err := s.SettlePayment(ctx, event(p, booking.EventPaymentSucceeded), "RACE-0001", m); err != nil {
				t.Errorf("SettlePayment: %v", err)
			}
		default:
			seat := rowLabel(i/10) + strconv.Itoa(i%10+1)
			err := s.HoldSeats(ctx, newHold(show.ID, "o"+strconv.Itoa(i), m, seat), m)
			if err != nil && !errors.Is(err, booking.ErrShowCancelled) {
				t.Errorf("HoldSeats(%s): %v, want success or ErrShowCancelled", seat, err)
			}
		}
	})
	for _, seat := range getSeats(t, s, show.ID) {
		if seat.Status == booking.SeatLocked {
			t.Errorf("seat %s is locked by %s after the show was cancelled", seat.ID, seat.HoldID)
		}
	}
	for i := range holders {
		if h, err := s.ActiveHold(ctx, show.ID, "o"+strconv.Itoa(i)); err == nil {
			t.Errorf("hold %s is active after the show was cancelled", h.ID)
		}
	}
	bookings, err := s.ShowBookings(ctx, show.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bookings {
		if b.State == booking.BookingConfirmed {
			t.Errorf("booking %s is confirmed on a cancelled show", b.ID)
		}
	}
}
