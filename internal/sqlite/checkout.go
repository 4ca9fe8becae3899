package sqlite

import (
	"context"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

// OpenCheckouts reads one page of booking.EndedCheckouts' candidates
// through payments_open_checkouts, each with its hold. It reads from the
// read pool: nothing is decided on it that is written.
func (s *Store) OpenCheckouts(ctx context.Context, lapsedBefore time.Time, after booking.Payment, limit int) ([]booking.OpenCheckout, error) {
	afterAt, afterID := int64(-1<<63), ""
	if after.ID != "" {
		afterAt, afterID = after.CreatedAt.UnixNano(), after.ID
	}
	payments, err := s.openCheckouts(ctx, lapsedBefore, afterAt, afterID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]booking.OpenCheckout, 0, len(payments))
	for _, p := range payments {
		h, err := getHold(ctx, s.read, p.HoldID)
		if err != nil {
			return nil, fmt.Errorf("sqlite: open checkouts: hold of payment %s: %w", p.ID, err)
		}
		out = append(out, booking.OpenCheckout{Payment: p, Hold: h})
	}
	return out, nil
}

// SeatsByID reads the show's seats among ids, as stored.
func (s *Store) SeatsByID(ctx context.Context, showID string, ids []string) ([]booking.Seat, error) {
	seats, err := seatsByID(ctx, s.read, showID, ids)
	return seats, wrapErr("seats by id", err)
}

// openCheckouts is one page of booking.EndedCheckouts' candidates after (afterAt,
// afterID): pending payments with an open checkout whose hold is no longer
// active or has lapsed.
func (s *Store) openCheckouts(ctx context.Context, lapsedBefore time.Time, afterAt int64, afterID string, limit int) ([]booking.Payment, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+prefixed("p.", paymentColumns)+`
		FROM payments AS p JOIN holds AS h ON h.id = p.hold_id
		WHERE p.state = 'pending' AND p.checkout_ref <> '' AND p.checkout_closed_at IS NULL
		  AND (p.created_at, p.id) > (?, ?)
		  AND (h.state <> 'active' OR h.created_at <= ?)
		ORDER BY p.created_at, p.id LIMIT ?`, afterAt, afterID, lapsedBefore.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ended checkouts: %w", err)
	}
	defer rows.Close()
	var list []booking.Payment
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: ended checkouts: %w", err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: ended checkouts: %w", err)
	}
	return list, nil
}
