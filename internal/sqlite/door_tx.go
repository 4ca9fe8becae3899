package sqlite

import "boxoffice/internal/booking"

// The door's reads and writes (booking.DoorTx).

func (t *tx) BookingByTicket(code string) (booking.Booking, error) {
	return bookingByTicketCode(t.ctx, t.tx, code)
}

func (t *tx) SetBookingAdmitted(b booking.Booking) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE bookings SET admitted_at = ?, admitted_by = ? WHERE id = ?`,
		nanos(b.AdmittedAt), b.AdmittedBy, b.ID)
	return err
}
