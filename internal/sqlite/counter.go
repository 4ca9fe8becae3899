package sqlite

import (
	"context"
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// The box office's reads and writes (SPEC §16).

var _ booking.CounterStore = (*Store)(nil)

func (t *tx) FreeBookedSeats(b booking.Booking) (int, error) {
	res, err := t.tx.ExecContext(t.ctx, `UPDATE seats SET status = 'available', booking_id = NULL, hold_id = NULL, hold_owner = NULL, locked_at = NULL
		WHERE show_id = ? AND status = 'booked' AND booking_id = ? AND seat_id IN (SELECT value FROM json_each(?))`,
		b.ShowID, b.ID, idsJSON(b.SeatIDs))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// BoxOfficeBookings reads the theatre's box-office bookings sold or
// refunded in [from, to), through bookings_box_office_sold and
// bookings_box_office_refunded.
func (s *Store) BoxOfficeBookings(ctx context.Context, theatreID string, from, to time.Time) ([]booking.Booking, error) {
	return listRows(ctx, s.read, "box-office bookings", `SELECT `+prefixed("b.", bookingColumns)+`
		FROM bookings AS b JOIN shows AS s ON s.id = b.show_id
		WHERE b.channel = 'box_office' AND s.theatre_id = ?
		  AND ((b.created_at >= ? AND b.created_at < ?) OR (b.refunded_at >= ? AND b.refunded_at < ?))
		ORDER BY b.created_at, b.id`,
		[]any{theatreID, from.UnixNano(), to.UnixNano(), from.UnixNano(), to.UnixNano()},
		func(r *sql.Rows) (booking.Booking, error) { return scanBooking(r) })
}

// BookingsByEmail reads the bookings with an email, ASCII case ignored,
// the newest first, through bookings_email.
func (s *Store) BookingsByEmail(ctx context.Context, email string, limit int) ([]booking.Booking, error) {
	if email == "" || limit <= 0 {
		return []booking.Booking{}, nil
	}
	return listRows(ctx, s.read, "bookings by email", bookingsByEmailSQL, []any{email, limit},
		func(r *sql.Rows) (booking.Booking, error) { return scanBooking(r) })
}

// bookingsByEmailSQL finds and orders through bookings_email, whose
// collation the comparison names (TestBookingsByEmailPlan).
const bookingsByEmailSQL = `SELECT ` + bookingColumns + `
	FROM bookings WHERE email = ? COLLATE NOCASE
	ORDER BY created_at DESC, id DESC LIMIT ?`
