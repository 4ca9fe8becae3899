package booking_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

func TestCheckEvent(t *testing.T) {
	p := booking.Payment{ID: "p1", HoldID: "h1", Amount: 45000, Currency: "INR", State: booking.PaymentPending}
	ok := booking.PaymentEvent{ID: "evt_1", Type: booking.EventPaymentSucceeded, PaymentID: "p1", HoldID: "h1", Amount: 45000, Currency: "INR"}
	with := func(f func(*booking.PaymentEvent)) booking.PaymentEvent { ev := ok; f(&ev); return ev }
	tests := []struct {
		name     string
		ev       booking.PaymentEvent
		want     error
		wantCode string
	}{
		{name: "matches", ev: ok},
		{name: "failed event matches", ev: with(func(e *booking.PaymentEvent) { e.Type = booking.EventPaymentFailed })},
		{name: "currency left out", ev: with(func(e *booking.PaymentEvent) { e.Currency = "" })},
		{name: "currency in lower case", ev: with(func(e *booking.PaymentEvent) { e.Currency = "inr" })},
		{name: "other amount", ev: with(func(e *booking.PaymentEvent) { e.Amount = 44999 }), want: booking.ErrPaymentMismatch, wantCode: booking.EINVALID},
		{name: "other hold", ev: with(func(e *booking.PaymentEvent) { e.HoldID = "h2" }), want: booking.ErrPaymentMismatch, wantCode: booking.EINVALID},
		{name: "no hold", ev: with(func(e *booking.PaymentEvent) { e.HoldID = "" }), want: booking.ErrPaymentMismatch, wantCode: booking.EINVALID},
		{name: "other currency", ev: with(func(e *booking.PaymentEvent) { e.Currency = "USD" }), want: booking.ErrPaymentMismatch, wantCode: booking.EINVALID},
		{name: "unknown type", ev: with(func(e *booking.PaymentEvent) { e.Type = "payment.refunded" }), wantCode: booking.EINVALID},
		{name: "empty type", ev: with(func(e *booking.PaymentEvent) { e.Type = "" }), wantCode: booking.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.CheckEvent(p, tt.ev)
			if got := booking.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("CheckEvent = %v (code %q), want code %q", err, got, tt.wantCode)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("CheckEvent = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestDecideSettlement(t *testing.T) {
	pending := booking.Payment{ID: "p1", HoldID: "h1", Amount: 200, Currency: "INR", State: booking.PaymentPending}
	succeeded := pending
	succeeded.State = booking.PaymentSucceeded
	failedP := pending
	failedP.State = booking.PaymentFailed
	success := booking.PaymentEvent{ID: "evt_1", Type: booking.EventPaymentSucceeded, PaymentID: "p1", HoldID: "h1", Amount: 200}
	failure := success
	failure.Type = booking.EventPaymentFailed
	hold := booking.Hold{ID: "h1", Owner: "o1", SeatIDs: []string{"A2", "A10"}, CreatedAt: t0, State: booking.HoldActive}

	mine := func(id string, lockedAt time.Time) booking.Seat { return seat(id, booking.SeatLocked, "h1", lockedAt) }
	theirs := func(id string, lockedAt time.Time) booking.Seat { return seat(id, booking.SeatLocked, "h2", lockedAt) }
	free := func(id string) booking.Seat { return seat(id, booking.SeatAvailable, "", time.Time{}) }
	booked := func(id string) booking.Seat { return seat(id, booking.SeatBooked, "", time.Time{}) }

	tests := []struct {
		name          string
		p             booking.Payment
		ev            booking.PaymentEvent
		cancelled     bool // the show was cancelled
		seats         []booking.Seat
		m             booking.Moment
		want          booking.Effect
		wantConflicts []string
		wantReason    []string // parts of the reason
	}{
		{name: "in time", p: pending, ev: success, seats: []booking.Seat{mine("A2", t0), mine("A10", t0)}, m: at(time.Minute), want: booking.EffectBooked},
		{name: "late, still locked by the hold", p: pending, ev: success, seats: []booking.Seat{mine("A2", t0), mine("A10", t0)}, m: at(10 * ttl), want: booking.EffectBooked},
		{name: "late, released but free", p: pending, ev: success, seats: []booking.Seat{free("A2"), free("A10")}, m: at(10 * ttl), want: booking.EffectBooked},
		{name: "late, re-held by someone whose lock lapsed too", p: pending, ev: success, seats: []booking.Seat{mine("A2", t0), theirs("A10", t0.Add(ttl))}, m: at(2 * ttl), want: booking.EffectBooked},
		{
			name: "late, a seat re-held by someone", p: pending, ev: success,
			seats: []booking.Seat{mine("A2", t0), theirs("A10", t0.Add(ttl+time.Minute))}, m: at(ttl + 2*time.Minute),
			want: booking.EffectRefundDue, wantConflicts: []string{"A10"}, wantReason: []string{"seat A10", "refunded"},
		},
		{
			name: "late, re-held 1ns before its lock would lapse", p: pending, ev: success,
			seats: []booking.Seat{free("A2"), theirs("A10", t0.Add(ttl))}, m: at(2*ttl - 1),
			want: booking.EffectRefundDue, wantConflicts: []string{"A10"}, wantReason: []string{"A10"},
		},
		{
			name: "late, both seats gone, named in order", p: pending, ev: success,
			seats: []booking.Seat{booked("A10"), theirs("A2", t0.Add(ttl))}, m: at(ttl + time.Second),
			want: booking.EffectRefundDue, wantConflicts: []string{"A2", "A10"}, wantReason: []string{"A2, A10"},
		},
		{
			name: "a seat missing from the store", p: pending, ev: success,
			seats: []booking.Seat{mine("A2", t0)}, m: at(time.Minute),
			want: booking.EffectRefundDue, wantConflicts: []string{"A10"},
		},
		{name: "failed", p: pending, ev: failure, seats: []booking.Seat{mine("A2", t0), mine("A10", t0)}, m: at(time.Minute), want: booking.EffectReleased, wantReason: []string{"declined"}},
		{name: "failed, seats re-held", p: pending, ev: failure, seats: []booking.Seat{theirs("A2", t0.Add(ttl)), mine("A10", t0)}, m: at(ttl + time.Minute), want: booking.EffectReleased},
		{name: "failure after success is ignored", p: succeeded, ev: failure, seats: []booking.Seat{booked("A2"), booked("A10")}, m: at(time.Minute), want: booking.EffectIgnored, wantReason: []string{"succeeded"}},
		{name: "success after failure is ignored", p: failedP, ev: success, seats: []booking.Seat{free("A2"), free("A10")}, m: at(time.Minute), want: booking.EffectIgnored, wantReason: []string{"failed"}},
		{name: "second success is ignored", p: succeeded, ev: success, seats: []booking.Seat{booked("A2"), booked("A10")}, m: at(time.Minute), want: booking.EffectIgnored},
		{name: "success for a cancelled show", p: pending, ev: success, cancelled: true, seats: []booking.Seat{free("A2"), free("A10")}, m: at(time.Minute), want: booking.EffectRefundDue, wantReason: []string{"The show was cancelled."}},
		{name: "failure for a cancelled show", p: pending, ev: failure, cancelled: true, seats: []booking.Seat{free("A2"), free("A10")}, m: at(time.Minute), want: booking.EffectReleased},
		{name: "success after the sales close", p: pending, ev: success, seats: []booking.Seat{mine("A2", t0), mine("A10", t0)}, m: booking.Rules{TTL: ttl, SalesClose: -48 * time.Hour}.At(t0.Add(time.Minute)), want: booking.EffectBooked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			show := booking.Show{ID: "s1", StartsAt: t0.Add(24 * time.Hour)}
			if tt.cancelled {
				show.CancelledAt = t0
			}
			got := booking.DecideSettlement(tt.p, tt.ev, show, hold, tt.seats, tt.m)
			if got.Effect != tt.want {
				t.Fatalf("Effect = %q, want %q (%+v)", got.Effect, tt.want, got)
			}
			if diff := cmp.Diff(tt.wantConflicts, got.Conflicts); diff != "" {
				t.Errorf("Conflicts (-want +got):\n%s", diff)
			}
			text := booking.ReasonText(i18n.For(i18n.English), got.Reason)
			for _, part := range tt.wantReason {
				if !strings.Contains(text, part) {
					t.Errorf("Reason %q (%q) does not contain %q", got.Reason, text, part)
				}
			}
			if got.Duplicate {
				t.Error("Duplicate set by DecideSettlement; only the store knows")
			}
		})
	}
}

func TestNewPayment(t *testing.T) {
	h := booking.Hold{ID: "h1", ShowID: "s1", Owner: "o1", SeatIDs: []string{"A1", "A2"}, Amount: 30000, Currency: "INR", CreatedAt: t0, State: booking.HoldActive}
	now := t0.Add(time.Minute)
	tickets := []booking.SeatTicket{{SeatID: "A1", Category: "Prime", Type: "adult", Price: 20000}, {SeatID: "A2", Category: "Prime", Type: "child", Price: 10000}}
	p, b := booking.NewPayment(h, booking.PaymentStart{PaymentID: "p1", BookingID: "b1"}, tickets, now)
	wantP := booking.Payment{ID: "p1", HoldID: "h1", BookingID: "b1", Owner: "o1", Amount: 30000, Currency: "INR", State: booking.PaymentPending, CreatedAt: now, Tickets: tickets}
	wantB := booking.Booking{
		ID: "b1", HoldID: "h1", PaymentID: "p1", Owner: "o1", ShowID: "s1", SeatIDs: []string{"A1", "A2"},
		Amount: 30000, Currency: "INR", State: booking.BookingPending, CreatedAt: now, UpdatedAt: now, Tickets: tickets, Channel: booking.ChannelOnline,
	}
	if diff := cmp.Diff(wantP, p); diff != "" {
		t.Errorf("payment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantB, b); diff != "" {
		t.Errorf("booking (-want +got):\n%s", diff)
	}
}

func TestSettlementApply(t *testing.T) {
	pending := booking.Booking{ID: "b1", State: booking.BookingPending, CreatedAt: t0, UpdatedAt: t0}
	later := t0.Add(time.Minute)
	tests := []struct {
		name string
		s    booking.Settlement
		want booking.Booking
	}{
		{"booked", booking.Settlement{Effect: booking.EffectBooked},
			booking.Booking{ID: "b1", State: booking.BookingConfirmed, TicketCode: "7K3M-Q9PA", CreatedAt: t0, UpdatedAt: later, ConfirmedAt: later}},
		{"refund due", booking.Settlement{Effect: booking.EffectRefundDue, Reason: "seat A1 taken"},
			booking.Booking{ID: "b1", State: booking.BookingRefundDue, Reason: "seat A1 taken", CreatedAt: t0, UpdatedAt: later}},
		{"released", booking.Settlement{Effect: booking.EffectReleased, Reason: "declined"},
			booking.Booking{ID: "b1", State: booking.BookingFailed, Reason: "declined", CreatedAt: t0, UpdatedAt: later}},
		{"ignored", booking.Settlement{Effect: booking.EffectIgnored, Reason: "already"}, pending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.s.Apply(pending, "7K3M-Q9PA", later)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Apply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStateAfter(t *testing.T) {
	success := booking.PaymentEvent{Type: booking.EventPaymentSucceeded}
	failure := booking.PaymentEvent{Type: booking.EventPaymentFailed}
	pending := booking.Payment{State: booking.PaymentPending}
	succeeded := booking.Payment{State: booking.PaymentSucceeded}
	active := booking.Hold{State: booking.HoldActive}
	replaced := booking.Hold{State: booking.HoldReplaced}
	tests := []struct {
		name     string
		p        booking.Payment
		h        booking.Hold
		ev       booking.PaymentEvent
		e        booking.Effect
		wantP    booking.PaymentState
		wantHold booking.HoldState
	}{
		{"booked", pending, active, success, booking.EffectBooked, booking.PaymentSucceeded, booking.HoldCompleted},
		{"refund due: the money was taken", pending, active, success, booking.EffectRefundDue, booking.PaymentSucceeded, booking.HoldCompleted},
		{"failed", pending, active, failure, booking.EffectReleased, booking.PaymentFailed, booking.HoldReleased},
		{"failed after replacement keeps replaced", pending, replaced, failure, booking.EffectReleased, booking.PaymentFailed, booking.HoldReplaced},
		{"ignored changes nothing", succeeded, booking.Hold{State: booking.HoldCompleted}, failure, booking.EffectIgnored, booking.PaymentSucceeded, booking.HoldCompleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := booking.PaymentStateAfter(tt.p, tt.ev, tt.e); got != tt.wantP {
				t.Errorf("PaymentStateAfter = %q, want %q", got, tt.wantP)
			}
			if got := booking.HoldStateAfter(tt.h, tt.e); got != tt.wantHold {
				t.Errorf("HoldStateAfter = %q, want %q", got, tt.wantHold)
			}
		})
	}
}
