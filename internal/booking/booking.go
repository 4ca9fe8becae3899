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
}
