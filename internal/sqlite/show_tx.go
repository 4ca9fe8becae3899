package sqlite

import (
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// The show steps' reads and writes (booking.ShowTx).

func (t *tx) ShowByID(showID string) (booking.Show, error) { return getShow(t.ctx, t.tx, showID) }

func (t *tx) ShowDeleted(showID string) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM deleted_shows WHERE id = ?`, showID).Scan(&n)
	return n > 0, err
}

// ShowSeatsAfter walks the primary key (show_id, seat_id), whose BINARY
// collation is byte order.
func (t *tx) ShowSeatsAfter(showID, after string, limit int) ([]booking.Seat, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+seatColumns+` FROM seats
		WHERE show_id = ? AND seat_id > ? ORDER BY seat_id LIMIT ?`, showID, after, limit)
	if err != nil {
		return nil, err
	}
	return collectSeats(showID, rows)
}

func (t *tx) ConfirmedBookings(showID string, limit int) ([]booking.Booking, error) {
	return listRows(t.ctx, t.tx, "confirmed bookings", `SELECT `+bookingColumns+` FROM bookings INDEXED BY bookings_show
		WHERE show_id = ? AND state = 'confirmed' ORDER BY created_at, id LIMIT ?`, []any{showID, limit},
		func(r *sql.Rows) (booking.Booking, error) { return scanBooking(r) })
}

func (t *tx) CountShowBookings(showID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM bookings WHERE show_id = ?`, showID)
}

func (t *tx) CountLockedSeats(showID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM seats WHERE show_id = ? AND status = 'locked'`, showID)
}

// InsertShow inserts the show row, then its seats with the prepared
// insert (the seats' foreign key needs the show first; both commit
// together).
func (t *tx) InsertShow(show booking.Show, seats []booking.Seat) error {
	_, err := t.stmt(t.s.stmts.insertShow).ExecContext(t.ctx,
		show.ID, show.Movie.ID, show.Movie.Title, show.Movie.Rating, show.Movie.RuntimeMin, show.Movie.Language,
		show.Theatre.ID, show.Theatre.Name, show.Theatre.City, show.Screen, nanos(show.StartsAt), show.Currency,
		nanos(show.CancelledAt), show.ScreenID, show.Theatre.TimeZone, nanos(show.SalesOpenAt), show.OnlineCutoff)
	if err != nil {
		return err
	}
	ins := t.stmt(t.s.stmts.insertSeat)
	for _, seat := range seats {
		kind := seat.Kind
		if kind == "" {
			kind = booking.KindStandard
		}
		if _, err := ins.ExecContext(t.ctx, show.ID, seat.ID, seat.Row, seat.Number, seat.GridRow, seat.GridCol,
			seat.Category, int64(seat.Price), string(kind)); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) SetShowCancelled(showID string, at time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET cancelled_at = ? WHERE id = ?`, nanos(at), showID)
	return err
}

func (t *tx) FreeShowSeats(showID string, ids []string) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE seats SET status = 'available', hold_id = NULL, hold_owner = NULL, locked_at = NULL
		WHERE show_id = ? AND status = 'locked' AND seat_id IN (SELECT value FROM json_each(?))`, showID, idsJSON(ids))
	return err
}

// GuardSeats does nothing: a step's transaction holds SQLite's one write
// lock from its start.
func (t *tx) GuardSeats(string, []string) error { return nil }

func (t *tx) SetBookingCancelled(b booking.Booking) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE bookings SET state = ?, reason = ?, updated_at = ? WHERE id = ?`,
		b.State, b.Reason, nanos(b.UpdatedAt), b.ID)
	return err
}

func (t *tx) DeleteShowRecords(showID string) error {
	for _, q := range []string{`DELETE FROM seats WHERE show_id = ?`, `DELETE FROM holds WHERE show_id = ?`, `DELETE FROM shows WHERE id = ?`,
		`INSERT OR IGNORE INTO deleted_shows (id) VALUES (?)`} {
		if _, err := t.tx.ExecContext(t.ctx, q, showID); err != nil {
			return err
		}
	}
	return deleteShowPrices(t, showID)
}

// The reserve steps' writes (booking.ReserveTx).

func (t *tx) SetSeatReserve(showID string, ids []string, reserve booking.SeatReserve) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE seats SET reserve = ?
		WHERE show_id = ? AND seat_id IN (SELECT value FROM json_each(?))`, string(reserve), showID, idsJSON(ids))
	return err
}

func (t *tx) SetShowOnlineCutoff(showID string, seats int) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET online_cutoff = ? WHERE id = ?`, seats, showID)
	return err
}
