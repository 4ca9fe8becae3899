// Package booking is the domain of boxoffice: shows and their seats, the seat
// rule, the lifecycle of a hold from selection to ticket, and the ports the
// adapters implement. It does no I/O of its own.
package booking

import (
	"time"
)

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
	Reason     string // why it failed or is due a refund: a reason code (ParseReason)
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// ConfirmedAt is when it became confirmed (SPEC §17: its sale time):
	// when its payment's success settled it, or its sale at the counter;
	// zero for a booking never confirmed, such as one due a refund
	// because its payment came too late.
	ConfirmedAt time.Time
	// RefundID, RefundedAt and RefundedBy (an admin's email, or
	// RefundedAutomatically) are the audit of a refund: the provider's id
	// of it, when and by whom it was made. A refund that failed at the
	// provider puts the booking back in refund_due and keeps its RefundID,
	// so that the next attempt is a new refund (see RefundKey).
	RefundID   string
	RefundedAt time.Time
	RefundedBy string
	// Email is where the booking's tickets and news are mailed.
	Email string
	// Key opens the booking without the session that made it: the booking
	// link /bookings/{ID}?key={Key} (see NewBookingKey). Bookings made
	// before links existed have none.
	Key string
	// AdmittedAt and AdmittedBy (an account's email) say when and by whom
	// the ticket was admitted at the door; zero until it was (see Admit).
	AdmittedAt time.Time
	AdmittedBy string
	// Tickets are its seats as sold, each with its type and price (SPEC
	// §15), as its payment stored them.
	Tickets []SeatTicket
	// Channel is where it was sold (SPEC §16): online, or at the box
	// office, where SoldBy (a staff account's email) sold it with Method,
	// CardRef being the card terminal's reference and CompReason why a
	// comp was given. RefundMethod is how a box-office refund returned
	// the money (RefundedBy and RefundedAt say who and when).
	Channel      Channel
	SoldBy       string
	Method       Method
	CardRef      string
	CompReason   string
	RefundMethod Method
	// Lang is the language of the Pay that made it (a counter sale: the
	// counter page's), an i18n.Lang code such as "hi": its mails are
	// written in it (SPEC §19). Bookings made before languages have the
	// DEFAULT_LANG their store was opened with.
	Lang string
}

// CancelledShow is b after its show was cancelled at now: a confirmed
// booking is due a refund (changed true); any other is as it was, since a
// pending one is settled as due a refund when its payment lands
// (DecideSettlement), and the rest hold no money.
//
// A box-office booking is never refunded through a provider (SPEC §16):
// one whose amount is 0 is refunded at once (RefundedAutomatically, by its
// sale's method), the others wait in the queue to be refunded at the
// counter.
func (b Booking) CancelledShow(now time.Time) (nb Booking, changed bool) {
	if b.State != BookingConfirmed {
		return b, false
	}
	b.State, b.Reason, b.UpdatedAt = BookingRefundDue, ReasonShowCancelled, now
	if b.AtBoxOffice() && b.Amount == 0 {
		b.State, b.RefundedAt, b.RefundedBy, b.RefundMethod = BookingRefunded, now, RefundedAutomatically, b.Method
	}
	return b, true
}

// AtBoxOffice reports whether b was sold at the box office (SPEC §16).
func (b Booking) AtBoxOffice() bool { return b.Channel == ChannelBoxOffice }

// RefundedAutomatically is RefundedBy of a refund made by
// REFUND_AUTOMATICALLY rather than by an admin.
const RefundedAutomatically = "automatic"

// RefundPending reports whether b is still owed its money back.
func (b Booking) RefundPending() bool { return b.State == BookingRefundDue }

// MarkRefunded is b after refund refundID was made by by at now: only a
// refund_due booking, only once, and never with a refund the provider has
// reported failed (the one a refund_due booking names), which a stale
// second click could otherwise replay as a success. refundID is empty for a
// refund made outside boxoffice.
func (b Booking) MarkRefunded(refundID, by string, now time.Time) (Booking, error) {
	switch {
	case b.State == BookingRefunded:
		return b, ErrAlreadyRefunded
	case b.State != BookingRefundDue:
		return b, ErrNotRefundDue
	case refundID != "" && refundID == b.RefundID:
		return b, ErrRefundFailed
	}
	b.State, b.RefundID, b.RefundedAt, b.RefundedBy, b.UpdatedAt = BookingRefunded, refundID, now, by, now
	return b, nil
}

// RefundFailed is b after the provider said, at now, that its refund
// refundID failed for reason: due again, naming the failed refund so that
// the next attempt is a new one (RefundKey), with the failure added to its
// reason. It applies to a booking refunded by that refund, and to one still
// due that does not know it yet (the refund was made, and the process that
// made it stopped before recording it). Any other booking is unchanged
// (changed false).
func (b Booking) RefundFailed(refundID, reason string, now time.Time) (nb Booking, changed bool) {
	switch {
	case b.State == BookingRefunded && b.RefundID == refundID:
	case b.State == BookingRefundDue && b.RefundID != refundID:
	default:
		return b, false
	}
	b.State, b.RefundID, b.RefundedAt, b.RefundedBy, b.UpdatedAt = BookingRefundDue, refundID, time.Time{}, "", now
	b.Reason = WithRefundFailed(b.Reason, reason)
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
