package sqlite

import (
	"context"
	"fmt"

	"boxoffice/internal/booking"
)

// EndedCheckouts reads the pending payments with an open checkout through
// payments_open_checkouts, oldest first, skips those whose hold is still
// live, and lets booking.CheckoutEnded decide on the rest with their seats.
// A lapsed hold whose seats are all its own is no ended checkout (its
// payment may still be rescued), so it pages on past such candidates, up to
// endedCheckoutsScan of them, rather than letting a hundred of them hide
// every ended one behind. It reads from the read pool: it decides nothing
// that is written, and a checkout closed twice is no harm (Payments.Expire
// of a closed one is no error).
func (s *Store) EndedCheckouts(ctx context.Context, m booking.Moment, limit int) ([]booking.Payment, error) {
	out := []booking.Payment{}
	var afterAt int64 = -1 << 63
	afterID := ""
	for scanned := 0; len(out) < limit && scanned < endedCheckoutsScan; {
		batch, err := s.openCheckouts(ctx, m, afterAt, afterID, limit)
		if err != nil {
			return nil, err
		}
		for _, p := range batch {
			h, err := getHold(ctx, s.read, p.HoldID)
			if err != nil {
				return nil, fmt.Errorf("sqlite: ended checkouts: hold of payment %s: %w", p.ID, err)
			}
			seats, err := seatsByID(ctx, s.read, h.ShowID, h.SeatIDs)
			if err != nil {
				return nil, fmt.Errorf("sqlite: ended checkouts: %w", err)
			}
			if booking.CheckoutEnded(p, h, seats, m) && len(out) < limit {
				out = append(out, p)
			}
		}
		scanned += len(batch)
		if len(batch) < limit {
			break
		}
		last := batch[len(batch)-1]
		afterAt, afterID = last.CreatedAt.UnixNano(), last.ID
	}
	return out, nil
}

// endedCheckoutsScan bounds the candidates one EndedCheckouts reads.
const endedCheckoutsScan = 2000

// openCheckouts is one page of EndedCheckouts' candidates after (afterAt,
// afterID): pending payments with an open checkout whose hold is no longer
// active or has lapsed.
func (s *Store) openCheckouts(ctx context.Context, m booking.Moment, afterAt int64, afterID string, limit int) ([]booking.Payment, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+prefixed("p.", paymentColumns)+`
		FROM payments AS p JOIN holds AS h ON h.id = p.hold_id
		WHERE p.state = 'pending' AND p.checkout_ref <> '' AND p.checkout_closed_at IS NULL
		  AND (p.created_at, p.id) > (?, ?)
		  AND (h.state <> 'active' OR h.created_at <= ?)
		ORDER BY p.created_at, p.id LIMIT ?`, afterAt, afterID, m.LapsedBefore().UnixNano(), limit)
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
