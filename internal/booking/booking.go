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
)

// Booking is what the moviegoer follows after pressing Pay. It is created
// pending with its payment and ends confirmed (with a ticket code), failed,
// or refund_due.
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
	// RefundedAt and RefundedBy (an admin's email) are set when an admin
	// marks a refund_due booking refunded. The state stays refund_due, as
	// the moviegoer's page promises (SPEC §5 has no other state); these
	// two fields are the audit of who paid the money back and when.
	RefundedAt time.Time
	RefundedBy string
}

// RefundPending reports whether b is still owed its money back.
func (b Booking) RefundPending() bool { return b.State == BookingRefundDue && b.RefundedAt.IsZero() }

// MarkRefunded is b after admin by recorded, at now, that its money went
// back: only a refund_due booking, and only once.
func (b Booking) MarkRefunded(by string, now time.Time) (Booking, error) {
	if b.State != BookingRefundDue {
		return b, ErrNotRefundDue
	}
	if !b.RefundedAt.IsZero() {
		return b, ErrAlreadyRefunded
	}
	b.RefundedAt, b.RefundedBy, b.UpdatedAt = now, by, now
	return b, nil
}
