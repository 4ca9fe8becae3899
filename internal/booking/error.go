package booking

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes callers map to responses. Each says what kind of failure it is,
// not where it happened.
const (
	ECONFLICT = "conflict"  // seats are taken by someone else
	EINVALID  = "invalid"   // the request itself is wrong
	ENOTFOUND = "not_found" // no such thing, or not yours to see
	EGONE     = "gone"      // it existed but can no longer be used
	// EUNAUTHORIZED is a failed sign-in.
	EUNAUTHORIZED = "unauthorized"
	// EFORBIDDEN is a signed-in account asking for what its role may not do.
	EFORBIDDEN = "forbidden"
	EINTERNAL  = "internal" // anything else; its text is never shown
)

// Error is a domain error whose Message is safe to show a person.
//
// Key, when set, names the message for a page in another language (SPEC
// §19): the web layer renders its own text for Key with Args, name, value
// pairs ("Max", 6), rather than Message, which is the English text.
type Error struct {
	Code    string
	Message string
	Key     string
	Args    []any
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with a formatted, person-safe message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Keyed returns an *Error with an English message and, for other
// languages, its key and arguments (name, value pairs).
func Keyed(code, key, message string, args ...any) *Error {
	return &Error{Code: code, Message: message, Key: key, Args: args}
}

// ErrorKey is the key and arguments of err's message, when it has them.
func ErrorKey(err error) (key string, args []any) {
	var e *Error
	if errors.As(err, &e) {
		return e.Key, e.Args
	}
	return "", nil
}

// Sentinels callers tell apart with errors.Is.
var (
	ErrShowNotFound    = &Error{Code: ENOTFOUND, Key: "show_not_found", Message: "There is no such show."}
	ErrHoldNotFound    = &Error{Code: ENOTFOUND, Message: "There is no such hold."}
	ErrPaymentNotFound = &Error{Code: ENOTFOUND, Key: "payment_not_found", Message: "There is no such payment."}
	ErrBookingNotFound = &Error{Code: ENOTFOUND, Key: "booking_not_found", Message: "There is no such booking."}
	ErrTheatreNotFound = &Error{Code: ENOTFOUND, Message: "There is no such theatre."}
	// ErrPriceCardNotFound is a price card that is not there (SPEC §15).
	ErrPriceCardNotFound = &Error{Code: ENOTFOUND, Message: "There is no such price card."}
	// ErrTicketTypeNotFound is a ticket type the theatre does not have.
	ErrTicketTypeNotFound = &Error{Code: ENOTFOUND, Message: "The theatre has no such ticket type."}
	// ErrShowExists is CreateShow of an id that a show has already.
	ErrShowExists = &Error{Code: EINVALID, Message: "A show with this id exists already."}
	// ErrShowDeleted is CreateShow of the id of a show that was deleted:
	// a deleted show stays deleted, also when the demo's schedule, whose
	// ids are derived, names it again (SPEC §10).
	ErrShowDeleted    = &Error{Code: ECONFLICT, Message: "A show with this id was deleted; its id is not used again."}
	ErrScreenNotFound = &Error{Code: ENOTFOUND, Message: "There is no such screen."}
	ErrMovieNotFound  = &Error{Code: ENOTFOUND, Message: "There is no such movie."}
	ErrMailNotFound   = &Error{Code: ENOTFOUND, Message: "There is no such mail."}
	// ErrNotOwner is reported as not found: another session must not learn
	// that a hold exists.
	ErrNotOwner = &Error{Code: ENOTFOUND, Key: "hold_not_found", Message: "There is no such hold."}

	ErrHoldExpired   = &Error{Code: EGONE, Message: "Your hold on these seats has expired. Please choose your seats again."}
	ErrHoldReleased  = &Error{Code: EGONE, Message: "These seats were released. Please choose your seats again."}
	ErrHoldReplaced  = &Error{Code: EGONE, Message: "You chose other seats for this show since; this hold no longer counts."}
	ErrHoldCompleted = &Error{Code: EGONE, Message: "This hold has already been paid for."}
	ErrSalesClosed   = &Error{Code: EGONE, Key: "sales_closed", Message: "Sales for this show have closed."}
	ErrShowCancelled = &Error{Code: EGONE, Key: "show_cancelled", Message: "This show was cancelled, so it has no seats to sell."}

	ErrPaymentMismatch = &Error{Code: EINVALID, Message: "The payment does not match its hold or amount."}
	// ErrCheckoutSuperseded is a checkout recorded for an attempt that a
	// later Pay has replaced meanwhile (SetCheckoutRefStep).
	ErrCheckoutSuperseded = &Error{Code: ECONFLICT, Key: "checkout_superseded", Message: "Pay was pressed again meanwhile; please press Pay once more."}

	ErrNotRefundDue    = &Error{Code: EINVALID, Message: "Only a booking due a refund can be marked refunded."}
	ErrAlreadyRefunded = &Error{Code: ECONFLICT, Message: "This booking was already marked refunded."}
)

// ErrTicketCodeTaken is what a store's Tx.UpdatePaymentBooking answers when
// the ticket code given to SettlePaymentStep already belongs to another
// booking; the step returns it, which rolls the whole
// settlement back, so the same event can be settled again with a fresh code,
// as Service.SettlePayment does. It is not an *Error: it never reaches a
// person, and if it did its text would not be shown.
var ErrTicketCodeTaken = errors.New("booking: ticket code already taken")

// UnavailableError says which of the requested seats could not be held.
type UnavailableError struct {
	Seats []string // sorted
}

func (e *UnavailableError) Error() string {
	if len(e.Seats) == 1 {
		return fmt.Sprintf("Seat %s was just taken by someone else.", e.Seats[0])
	}
	return fmt.Sprintf("Seats %s were just taken by someone else.", strings.Join(e.Seats, ", "))
}

// ErrorCode returns the code of err, EINTERNAL for errors of unknown kind.
func ErrorCode(err error) string {
	var e *Error
	var u *UnavailableError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &u):
		return ECONFLICT
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the person-safe message of err; internal errors get a
// generic one so that no internal detail leaks.
func ErrorMessage(err error) string {
	var e *Error
	var u *UnavailableError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &u):
		return u.Error()
	case errors.As(err, &e):
		return e.Message
	default:
		return "Something went wrong on our side. Please try again."
	}
}

// UnavailableSeats returns the seats named by an *UnavailableError in err.
func UnavailableSeats(err error) []string {
	var u *UnavailableError
	if errors.As(err, &u) {
		return u.Seats
	}
	return nil
}
