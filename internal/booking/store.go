package booking

import (
	"context"
	"time"
)

// Store is the port every storage adapter implements. Each method that
// changes more than one record is one atomic step: all of it happens or none
// of it does, also when several boxoffice processes share the database. The
// adapters decide by calling this package's rules (CheckHoldable,
// DecideSettlement, …) inside their transaction; the seat rule is the one
// rule they also express in their queries, and the conformance suite in
// storetest proves both agree.
//
// Not-found conditions are reported with this package's sentinels
// (ErrShowNotFound, ErrHoldNotFound, …), never as zero values.
type Store interface {
	// CreateShow stores a show with all its seats, available.
	CreateShow(ctx context.Context, show Show, seats []Seat) error
	// CountShows counts all shows, past ones too (an empty database gets the
	// demo catalog).
	CountShows(ctx context.Context) (int, error)
	// UpcomingShows lists up to limit shows starting at or after from, soonest
	// first, with seats left counted by the seat rule at m.
	UpcomingShows(ctx context.Context, from time.Time, limit int, m Moment) ([]ShowSummary, error)
	// Show returns one show.
	Show(ctx context.Context, showID string) (Show, error)
	// Seats returns the seats of a show in map order (by GridRow, GridCol) as
	// stored: status is what was written, the caller applies the seat rule.
	Seats(ctx context.Context, showID string) ([]Seat, error)
	// AvailableSeatIDs lists, in map order, the seats of a show that the
	// store's own query finds available at m.
	AvailableSeatIDs(ctx context.Context, showID string, m Moment) ([]string, error)
	// Occupancy counts a show's seats at m in the database.
	Occupancy(ctx context.Context, showID string, m Moment) (Occupancy, error)

	// HoldSeats locks h.SeatIDs of h.ShowID for hold h at m.Now, all or
	// nothing, and in the same step replaces h.Owner's previous active hold
	// for the show (whose seats count as available to h). It returns the
	// stored hold with its amount. On conflict it changes nothing and returns
	// an *UnavailableError naming exactly the seats that were not available.
	HoldSeats(ctx context.Context, h Hold, m Moment) (Hold, error)
	// Hold returns a hold by id, whoever owns it.
	Hold(ctx context.Context, holdID string) (Hold, error)
	// ActiveHold returns owner's active hold for a show (possibly expired).
	ActiveHold(ctx context.Context, showID, owner string) (Hold, error)
	// ReleaseHold sets the seats still locked by the hold back to available
	// and marks an active hold released. Idempotent; ErrNotOwner for anyone
	// but the owner.
	ReleaseHold(ctx context.Context, holdID, owner string) (Hold, error)
	// StartPayment creates a pending payment and booking for owner's hold,
	// checked by Hold.CheckPayable at m. When the hold already has a pending
	// payment, that one is returned and nothing new is created.
	StartPayment(ctx context.Context, holdID, owner string, ids PaymentIDs, m Moment) (Payment, Booking, error)
	// SettlePayment applies a verified provider event once: it records the
	// event id and the effect decided by DecideSettlement in the same
	// transaction. A repeated event id returns Duplicate and changes nothing.
	SettlePayment(ctx context.Context, ev PaymentEvent, ticketCode string, m Moment) (Settlement, error)
	// Payment returns a payment by id.
	Payment(ctx context.Context, paymentID string) (Payment, error)
	// Booking returns a booking by id.
	Booking(ctx context.Context, bookingID string) (Booking, error)

	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	Close() error
}

// PaymentIDs are the fresh ids a new payment and its booking get.
type PaymentIDs struct {
	PaymentID string
	BookingID string
}

// NewPayment builds the pending payment and booking for hold h.
func NewPayment(h Hold, ids PaymentIDs, now time.Time) (Payment, Booking) {
	p := Payment{
		ID: ids.PaymentID, HoldID: h.ID, BookingID: ids.BookingID, Owner: h.Owner,
		Amount: h.Amount, Currency: h.Currency, State: PaymentPending, CreatedAt: now,
	}
	b := Booking{
		ID: ids.BookingID, HoldID: h.ID, PaymentID: ids.PaymentID, Owner: h.Owner,
		ShowID: h.ShowID, SeatIDs: h.SeatIDs, Amount: h.Amount, Currency: h.Currency,
		State: BookingPending, CreatedAt: now, UpdatedAt: now,
	}
	return p, b
}

// Apply returns b as it is after settlement s, at now.
func (s Settlement) Apply(b Booking, ticketCode string, now time.Time) Booking {
	switch s.Effect {
	case EffectBooked:
		b.State, b.TicketCode = BookingConfirmed, ticketCode
	case EffectRefundDue:
		b.State, b.Reason = BookingRefundDue, s.Reason
	case EffectReleased:
		b.State, b.Reason = BookingFailed, s.Reason
	default:
		return b
	}
	b.UpdatedAt = now
	return b
}

// PaymentStateAfter is the payment's state once ev has been applied with
// effect e.
func PaymentStateAfter(p Payment, ev PaymentEvent, e Effect) PaymentState {
	if e == EffectIgnored {
		return p.State
	}
	if ev.Type == EventPaymentSucceeded {
		return PaymentSucceeded
	}
	return PaymentFailed
}

// HoldStateAfter is the hold's state once a payment event had effect e.
func HoldStateAfter(h Hold, e Effect) HoldState {
	switch e {
	case EffectBooked, EffectRefundDue:
		return HoldCompleted
	case EffectReleased:
		if h.State == HoldActive {
			return HoldReleased
		}
	}
	return h.State
}
