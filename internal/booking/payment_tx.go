package booking

import "time"

// PaymentTx is what the payment steps (start a payment, its checkout
// attempts, settle an event, refunds) read and write in a transaction.
// They also read a hold, its show's sale facts and its seats, and free or
// mark a hold, with HoldTx.
type PaymentTx interface {
	// Payment is a payment by id: ErrPaymentNotFound.
	Payment(paymentID string) (Payment, error)
	// PaymentBooking is the booking by id (every booking is a payment's):
	// ErrBookingNotFound.
	PaymentBooking(bookingID string) (Booking, error)
	// SeenEvent is the record of a provider event id that took effect,
	// and whether there is one.
	SeenEvent(eventID string) (EventRecord, bool, error)

	// InsertPayment stores a new payment for its hold.
	InsertPayment(p Payment) error
	// InsertBooking stores a new booking.
	InsertBooking(b Booking) error
	// UpdatePayment stores what changes of a payment: its state, charge,
	// checkout attempt, checkout and lookup.
	UpdatePayment(p Payment) error
	// UpdatePaymentBooking stores what changes of a booking: state,
	// ticket code, reason, times, refund and email. A ticket code that
	// another booking has is ErrTicketCodeTaken.
	UpdatePaymentBooking(b Booking) error
	// BookSeats marks the seats of h booked by booking bookingID, each
	// one not booked already, and says how many it marked.
	BookSeats(h Hold, bookingID string) (int, error)
	// RecordEvent records that a provider event took effect.
	RecordEvent(e EventRecord) error
}

// EventRecord is a provider event (a payment's or a refund's) that took
// effect: its id counts once.
type EventRecord struct {
	ID         string
	PaymentID  string
	Type       string
	Effect     Effect
	Reason     string
	ReceivedAt time.Time
}

// refundFailedType is the type an EventRecord of a refund event has.
const refundFailedType = "refund.failed"
