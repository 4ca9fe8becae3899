package booking

// DoorTx is what the door's admit step reads and writes in a transaction
// (with ShowTx's ShowByID).
type DoorTx interface {
	// BookingByTicket is the booking with a normalized ticket code;
	// ErrBookingNotFound when none has it.
	BookingByTicket(code string) (Booking, error)
	// SetBookingAdmitted stores b's AdmittedAt and AdmittedBy.
	SetBookingAdmitted(b Booking) error
}
