package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"boxoffice/internal/booking"
)

const callbackColumns = `id, received_at, signature, event_id, event_type, payment_id, status, outcome, duplicate, reason`

// RecordCallback stores one received payment callback.
func (s *Store) RecordCallback(ctx context.Context, r booking.CallbackRecord) error {
	return s.inTx(ctx, "record callback", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO payment_callbacks (`+callbackColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			r.ID, nanos(r.ReceivedAt), string(r.Signature), r.EventID, r.EventType, r.PaymentID,
			r.Status, r.Outcome, r.Duplicate, r.Reason)
		return err
	})
}

// Callbacks lists the records q selects, oldest first. A show's are those
// naming a payment of one of its bookings.
func (s *Store) Callbacks(ctx context.Context, q booking.CallbackQuery) ([]booking.CallbackRecord, error) {
	var (
		cond string
		args []any
	)
	switch {
	case q.PaymentID != "":
		cond, args = `WHERE payment_id = ?`, []any{q.PaymentID}
	case q.ShowID != "":
		cond, args = `WHERE payment_id IN (SELECT payment_id FROM bookings WHERE show_id = ?)`, []any{q.ShowID}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+callbackColumns+` FROM payment_callbacks `+cond+`
		ORDER BY received_at DESC, id DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: callbacks: %w", err)
	}
	defer rows.Close()
	list := []booking.CallbackRecord{}
	for rows.Next() {
		var (
			r          booking.CallbackRecord
			receivedAt sql.NullInt64
		)
		if err := rows.Scan(&r.ID, &receivedAt, &r.Signature, &r.EventID, &r.EventType, &r.PaymentID,
			&r.Status, &r.Outcome, &r.Duplicate, &r.Reason); err != nil {
			return nil, fmt.Errorf("sqlite: callbacks: %w", err)
		}
		r.ReceivedAt = fromNanos(receivedAt)
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: callbacks: %w", err)
	}
	return list, nil
}
