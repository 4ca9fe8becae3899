package sqlite

import (
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"boxoffice/internal/booking"
)

// The payment steps' reads and writes (booking.PaymentTx).

func (t *tx) Payment(paymentID string) (booking.Payment, error) {
	return getPayment(t.ctx, t.tx, paymentID)
}

func (t *tx) PaymentBooking(bookingID string) (booking.Booking, error) {
	return getBooking(t.ctx, t.tx, bookingID)
}

func (t *tx) SeenEvent(eventID string) (booking.EventRecord, bool, error) {
	e := booking.EventRecord{ID: eventID}
	var received sql.NullInt64
	err := t.tx.QueryRowContext(t.ctx, `SELECT payment_id, type, effect, reason, received_at FROM payment_events WHERE id = ?`, eventID).
		Scan(&e.PaymentID, &e.Type, &e.Effect, &e.Reason, &received)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return booking.EventRecord{}, false, nil
	case err != nil:
		return booking.EventRecord{}, false, err
	}
	e.ReceivedAt = fromNanos(received)
	return e, true, nil
}

func (t *tx) InsertPayment(p booking.Payment) error {
	tickets, err := encodeTickets(p.Tickets)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(t.ctx, `INSERT INTO payments (`+paymentColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.ID, p.HoldID, p.BookingID, p.Owner, int64(p.Amount), p.Currency, p.State, nanos(p.CreatedAt),
		p.CheckoutRef, nanos(p.CheckoutClosedAt), p.ChargeRef, nanos(p.LookedUpAt),
		p.CheckoutAttempt, nanos(p.CheckoutExpiresAt), tickets, nanos(p.ReplacedAt), p.Provider, p.Method)
	return err
}

func (t *tx) InsertBooking(b booking.Booking) error { return insertBooking(t.ctx, t.tx, b) }

func (t *tx) UpdatePayment(p booking.Payment) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE payments SET state = ?, charge_ref = ?, checkout_ref = ?, checkout_closed_at = ?,
		looked_up_at = ?, checkout_attempt = ?, checkout_expires_at = ?, replaced_at = ? WHERE id = ?`,
		p.State, p.ChargeRef, p.CheckoutRef, nanos(p.CheckoutClosedAt),
		nanos(p.LookedUpAt), p.CheckoutAttempt, nanos(p.CheckoutExpiresAt), nanos(p.ReplacedAt), p.ID)
	return err
}

// UpdatePaymentBooking translates a UNIQUE violation into
// booking.ErrTicketCodeTaken: the update keeps the booking's id, so the
// index bookings_ticket_code (0004_ticket_code.sql) is the only unique
// constraint it can violate.
func (t *tx) UpdatePaymentBooking(b booking.Booking) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE bookings SET state = ?, ticket_code = ?, reason = ?, updated_at = ?,
		refunded_at = ?, refunded_by = ?, refund_id = ?, admitted_at = ?, admitted_by = ?, email = ?, refund_method = ?,
		confirmed_at = ?, lang = ? WHERE id = ?`,
		b.State, b.TicketCode, b.Reason, nanos(b.UpdatedAt), nanos(b.RefundedAt), b.RefundedBy, b.RefundID,
		nanos(b.AdmittedAt), b.AdmittedBy, b.Email, b.RefundMethod, nanos(b.ConfirmedAt), b.Lang, b.ID)
	var e *sqlite.Error
	if errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return booking.ErrTicketCodeTaken
	}
	return err
}

func (t *tx) BookSeats(h booking.Hold, bookingID string) (int, error) {
	args := make([]any, 0, len(h.SeatIDs)+2)
	args = append(args, bookingID, h.ShowID)
	for _, id := range h.SeatIDs {
		args = append(args, id)
	}
	res, err := t.tx.ExecContext(t.ctx, `UPDATE seats SET status = 'booked', booking_id = ?, hold_id = NULL, hold_owner = NULL, locked_at = NULL
		WHERE show_id = ? AND seat_id IN (`+placeholders(len(h.SeatIDs))+`) AND status <> 'booked'`, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (t *tx) RecordEvent(e booking.EventRecord) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO payment_events (id, payment_id, type, effect, reason, received_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.ID, e.PaymentID, e.Type, e.Effect, e.Reason, nanos(e.ReceivedAt))
	return err
}
