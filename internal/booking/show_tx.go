package booking

import "time"

// ShowTx is what the show steps (create, delete, cancel in steps) read and
// write in a transaction.
type ShowTx interface {
	// ShowByID is the whole show, as Store.Show reads it.
	ShowByID(showID string) (Show, error)
	// ShowDeleted reports whether a show of this id was deleted
	// (DeleteShowStep keeps the id).
	ShowDeleted(showID string) (bool, error)
	// ShowSeatsAfter are up to limit seats of the show whose ids sort
	// after after (byte order; "" for the first), in that order: a page
	// of the show's seats, as stored.
	ShowSeatsAfter(showID, after string, limit int) ([]Seat, error)
	// ConfirmedBookings are up to limit confirmed bookings of the show,
	// oldest first (by CreatedAt, then id).
	ConfirmedBookings(showID string, limit int) ([]Booking, error)
	// CountShowBookings counts the show's bookings, in every state.
	CountShowBookings(showID string) (int, error)
	// CountLockedSeats counts the show's seats whose status is locked,
	// lapsed or not.
	CountLockedSeats(showID string) (int, error)

	// InsertShow stores a new show with its seats, all available. Seats
	// of its id left by an older version's crash are taken as they are.
	InsertShow(show Show, seats []Seat) error
	// SetShowCancelled records that the show was cancelled at at.
	SetShowCancelled(showID string, at time.Time) error
	// FreeShowSeats sets the seats among ids that are locked back to
	// available, whichever hold locks them.
	FreeShowSeats(showID string, ids []string) error
	// GuardSeats makes this transaction conflict with any other that
	// writes one of the seats ids (a hold, Back, a settlement): MongoDB
	// writes each, since its snapshot isolation conflicts only on
	// documents both write; SQLite does nothing, its one writer already
	// serialises every step.
	GuardSeats(showID string, ids []string) error
	// SetBookingCancelled stores b's state, reason and UpdatedAt after
	// its show was cancelled (Booking.CancelledShow).
	SetBookingCancelled(b Booking) error
	// DeleteShowRecords deletes the show, its seats and its holds, and
	// keeps its id as deleted.
	DeleteShowRecords(showID string) error
}
