package booking

import (
	"fmt"
	"strings"
	"time"
)

// PaymentState is a payment's outcome as far as we know it. The first
// terminal outcome wins.
type PaymentState string

const (
	PaymentPending   PaymentState = "pending"
	PaymentSucceeded PaymentState = "succeeded"
	PaymentFailed    PaymentState = "failed"
)

// Payment is one attempt to pay for a hold at the provider.
type Payment struct {
	ID        string
	HoldID    string
	BookingID string
	Owner     string
	Amount    Money
	Currency  string
	State     PaymentState
	CreatedAt time.Time
}

// EventType is what a provider's callback says happened.
type EventType string

const (
	EventPaymentSucceeded EventType = "payment.succeeded"
	EventPaymentFailed    EventType = "payment.failed"
)

// PaymentEvent is a verified provider callback. ID is the provider's event id:
// each takes effect at most once.
type PaymentEvent struct {
	ID        string
	Type      EventType
	PaymentID string
	HoldID    string
	Amount    Money
	Currency  string
}

// Effect is what an event did.
type Effect string

const (
	EffectBooked    Effect = "booked"
	EffectRefundDue Effect = "refund_due"
	EffectReleased  Effect = "released"
	EffectIgnored   Effect = "ignored"
)

// Settlement is the result of applying a payment event.
type Settlement struct {
	Effect    Effect
	Reason    string   // why, for people: the booking page and the admin
	Conflicts []string // seats that stopped a late payment from booking
	Duplicate bool     // the event id was seen before; nothing changed now
	Payment   Payment
	Booking   Booking
}

// CheckEvent refuses an event that does not describe payment p.
func CheckEvent(p Payment, ev PaymentEvent) error {
	if ev.HoldID != p.HoldID || ev.Amount != p.Amount ||
		(ev.Currency != "" && !strings.EqualFold(ev.Currency, p.Currency)) {
		return ErrPaymentMismatch
	}
	if ev.Type != EventPaymentSucceeded && ev.Type != EventPaymentFailed {
		return Errorf(EINVALID, "Unknown event type %q.", truncate(string(ev.Type), 40))
	}
	return nil
}

// DecideSettlement is SPEC §2's rule for a payment outcome, given the payment,
// its hold and the current state of the hold's seats (as read inside the
// transaction that will apply the decision).
//
// A success books the seats when each is still locked by the hold (however old
// the lock: the money was taken) or is free by the seat rule (a late payment
// is rescued); otherwise it books nothing and the booking is due a refund. A
// failure releases. Once a payment has an outcome, later events change nothing.
func DecideSettlement(p Payment, ev PaymentEvent, h Hold, seats []Seat, m Moment) Settlement {
	if p.State != PaymentPending {
		return Settlement{
			Effect: EffectIgnored,
			Reason: fmt.Sprintf("payment already %s; %s ignored", p.State, ev.Type),
		}
	}
	if ev.Type == EventPaymentFailed {
		return Settlement{Effect: EffectReleased, Reason: "The payment was declined."}
	}
	byID := make(map[string]Seat, len(seats))
	for _, s := range seats {
		byID[s.ID] = s
	}
	var conflicts []string
	for _, id := range h.SeatIDs {
		s, ok := byID[id]
		if !ok || !(s.LockedBy(h.ID) || s.AvailableAt(m)) {
			conflicts = append(conflicts, id)
		}
	}
	if len(conflicts) > 0 {
		SortSeatIDs(conflicts)
		return Settlement{
			Effect:    EffectRefundDue,
			Conflicts: conflicts,
			Reason:    refundReason(conflicts),
		}
	}
	return Settlement{Effect: EffectBooked}
}

func refundReason(conflicts []string) string {
	what, pronoun, verb := "seat "+conflicts[0], "it", "was"
	if len(conflicts) > 1 {
		what, pronoun, verb = "seats "+strings.Join(conflicts, ", "), "they", "were"
	}
	return fmt.Sprintf("Your payment arrived after your hold on %s had ended, and by then %s %s no longer free. "+
		"Nothing was booked; your money will be refunded.", what, pronoun, verb)
}
