// Package booking is the domain of boxoffice: shows and their seats, the seat
// rule, the lifecycle of a hold from selection to ticket, and the ports the
// adapters implement. It does no I/O of its own.
package booking

import "time"

// BookingState is where a booking is: SPEC §5's data-state.
type BookingState string

const (
	BookingPending   BookingState = "pending"
	BookingConfirmed BookingState = "confirmed"
	BookingFailed    BookingState = "failed"
	BookingRefundDue BookingState = "refund_due"
	BookingRefunded  BookingState = "refunded"
)

// Booking is what the moviegoer follows after pressing Pay. It is created
// pending with its payment and ends confirmed (with a ticket code), failed,
// or refund_due, which becomes refunded once the money went back.
type Booking struct {
	ID         string
	HoldID     string
	PaymentID  string
	Owner      string
	ShowID     string
	SeatIDs    []string
	Amount     Money
	Currency   string
	State      BookingState
	TicketCode string // set when confirmed
	Reason     string // why it failed or is due a refund
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// RefundID, RefundedAt and RefundedBy (an admin's email, or
	// RefundedAutomatically) are the audit of a refund: the provider's id
	// of it, when and by whom it was made. A refund that failed at the
	// provider puts the booking back in refund_due and keeps its RefundID,
	// so that the next attempt is a new refund (see RefundKey).
	RefundID   string
	RefundedAt time.Time
	RefundedBy string
}

// RefundedAutomatically is RefundedBy of a refund made by
// REFUND_AUTOMATICALLY rather than by an admin.
const RefundedAutomatically = "automatic"

// RefundPending reports whether b is still owed its money back.
func (b Booking) RefundPending() bool { return b.State == BookingRefundDue }

// MarkRefunded is b after refund refundID was made by by at now: only a
// refund_due booking, and only once.
func (b Booking) MarkRefunded(refundID, by string, now time.Time) (Booking, error) {
	switch {
	case b.State == BookingRefunded:
		return b, ErrAlreadyRefunded
	case b.State != BookingRefundDue:
		return b, ErrNotRefundDue
	}
	b.State, b.RefundID, b.RefundedAt, b.RefundedBy, b.UpdatedAt = BookingRefunded, refundID, now, by, now
	return b, nil
}

// RefundFailed is b after the provider said, at now, that its refund
// refundID failed for reason: back in the queue of refunds due, with why.
// An event about another refund, or a booking not refunded, changes
// nothing (changed false).
func (b Booking) RefundFailed(refundID, reason string, now time.Time) (nb Booking, changed bool) {
	if b.State != BookingRefunded || b.RefundID != refundID {
		return b, false
	}
	if reason == "" {
		reason = "unknown"
	}
	b.State, b.RefundedAt, b.RefundedBy, b.UpdatedAt = BookingRefundDue, time.Time{}, "", now
	b.Reason = "The refund failed at the payment provider (" + truncate(reason, 80) + "); it is due again."
	return b, true
}

// RefundKey is the idempotency key of b's refund at the provider: the same
// for every attempt at one refund, so that a repeated click or a retry after
// a crash never pays twice, and a new one after a refund failed, so that
// the provider does not answer the failed one again.
func RefundKey(b Booking) string {
	if b.RefundID != "" {
		return "refund-" + b.PaymentID + "-after-" + b.RefundID
	}
	return "refund-" + b.PaymentID
}
