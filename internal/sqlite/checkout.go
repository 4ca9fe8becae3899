package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

// BeginCheckout moves a pending payment from checkout attempt from to the
// next in one write transaction: the UPDATE's WHERE is the compare, so of
// two Pays at once the second matches nothing and reads the first one's
// attempt.
func (s *Store) BeginCheckout(ctx context.Context, paymentID string, from int, expiresAt, now time.Time) (booking.Payment, bool, error) {
	var (
		p     booking.Payment
		moved bool
	)
	err := s.inTx(ctx, "begin checkout", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE payments SET checkout_attempt = checkout_attempt + 1, checkout_expires_at = ?,
				checkout_closed_at = CASE WHEN checkout_ref <> '' THEN COALESCE(checkout_closed_at, ?) END
			WHERE id = ? AND state = 'pending' AND checkout_attempt = ?`, expiresAt.UnixNano(), now.UnixNano(), paymentID, from)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		moved = n == 1
		p, err = getPayment(ctx, tx, paymentID)
		return err
	})
	if err != nil {
		return booking.Payment{}, false, err
	}
	return p, moved, nil
}

// SetCheckoutRef records the open checkout of a payment's attempt.
func (s *Store) SetCheckoutRef(ctx context.Context, paymentID string, attempt int, ref string) error {
	return s.inTx(ctx, "set checkout ref", func(tx *sql.Tx) error {
		// The same ref recorded again (a Pay that joined the attempt)
		// keeps its closing, should the checkout have been closed since.
		res, err := tx.ExecContext(ctx, `UPDATE payments SET checkout_closed_at = CASE WHEN checkout_ref = ? THEN checkout_closed_at END,
				checkout_ref = ?
			WHERE id = ? AND checkout_attempt = ?`, ref, ref, paymentID, attempt)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 1 {
			return err
		}
		if _, err := getPayment(ctx, tx, paymentID); err != nil {
			return err
		}
		return booking.ErrCheckoutSuperseded
	})
}

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

// CloseCheckout records that a payment's checkout was closed at the
// provider.
func (s *Store) CloseCheckout(ctx context.Context, paymentID string, at time.Time) error {
	return s.inTx(ctx, "close checkout", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE payments SET checkout_closed_at = ? WHERE id = ? AND checkout_closed_at IS NULL`,
			at.UnixNano(), paymentID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return err
			}
			_, err := getPayment(ctx, tx, paymentID) // closed already is fine; unknown is not
			return err
		}
		return nil
	})
}

// ClaimLookup reads the payment and, when booking.Payment.LookupDue says so,
// records the lookup, in one write transaction: of two processes, the
// second finds LookedUpAt just set and leaves it.
func (s *Store) ClaimLookup(ctx context.Context, paymentID string, now time.Time) (bool, error) {
	claimed := false
	err := s.inTx(ctx, "claim lookup", func(tx *sql.Tx) error {
		claimed = false
		p, err := getPayment(ctx, tx, paymentID)
		if err != nil {
			return err
		}
		if !p.LookupDue(now) {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET looked_up_at = ? WHERE id = ?`, now.UnixNano(), paymentID); err != nil {
			return err
		}
		claimed = true
		return nil
	})
	return claimed, err
}
