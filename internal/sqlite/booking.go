package sqlite

import (
	"context"
	"database/sql"

	"boxoffice/internal/booking"
)

const bookingColumns = `id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state,
	ticket_code, reason, created_at, updated_at, refunded_at, refunded_by, refund_id`

func scanBooking(r scanner) (booking.Booking, error) {
	var (
		b                    booking.Booking
		seatIDs              string
		createdAt, updatedAt sql.NullInt64
		refundedAt           sql.NullInt64
	)
	err := r.Scan(&b.ID, &b.HoldID, &b.PaymentID, &b.Owner, &b.ShowID, &seatIDs, &b.Amount, &b.Currency,
		&b.State, &b.TicketCode, &b.Reason, &createdAt, &updatedAt, &refundedAt, &b.RefundedBy, &b.RefundID)
	b.SeatIDs, b.CreatedAt, b.UpdatedAt = splitIDs(seatIDs), fromNanos(createdAt), fromNanos(updatedAt)
	b.RefundedAt = fromNanos(refundedAt)
	return b, err
}

func getBooking(ctx context.Context, q rowQuerier, bookingID string) (booking.Booking, error) {
	b, err := scanBooking(q.QueryRowContext(ctx, `SELECT `+bookingColumns+` FROM bookings WHERE id = ?`, bookingID))
	return b, notFound(err, booking.ErrBookingNotFound)
}

func insertBooking(ctx context.Context, tx *sql.Tx, b booking.Booking) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO bookings (`+bookingColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		b.ID, b.HoldID, b.PaymentID, b.Owner, b.ShowID, joinIDs(b.SeatIDs), int64(b.Amount), b.Currency,
		b.State, b.TicketCode, b.Reason, nanos(b.CreatedAt), nanos(b.UpdatedAt), nanos(b.RefundedAt), b.RefundedBy, b.RefundID)
	return err
}

func updateBooking(ctx context.Context, tx *sql.Tx, b booking.Booking) error {
	_, err := tx.ExecContext(ctx, `UPDATE bookings SET state = ?, ticket_code = ?, reason = ?, updated_at = ?,
		refunded_at = ?, refunded_by = ?, refund_id = ? WHERE id = ?`,
		b.State, b.TicketCode, b.Reason, nanos(b.UpdatedAt), nanos(b.RefundedAt), b.RefundedBy, b.RefundID, b.ID)
	return err
}

// Booking returns a booking by id.
func (s *Store) Booking(ctx context.Context, bookingID string) (booking.Booking, error) {
	b, err := getBooking(ctx, s.read, bookingID)
	return b, wrapErr("booking", err)
}
