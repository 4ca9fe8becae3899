package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"boxoffice/internal/booking"
)

// ExtendHold reads the hold and its show's sales window, lets
// booking.Hold.Extend decide, and locks the hold's seats again at m.Now,
// in one write transaction.
func (s *Store) ExtendHold(ctx context.Context, holdID, owner string, m booking.Moment) (booking.Hold, error) {
	var out booking.Hold
	err := s.inTx(ctx, "extend hold", func(tx *sql.Tx) error {
		h, err := getOwnHold(ctx, tx, holdID, owner)
		if err != nil {
			return err
		}
		if _, err := s.checkOnSale(ctx, tx, h.ShowID, m); err != nil {
			return err
		}
		next, err := h.Extend(m)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE seats SET locked_at = ?
			WHERE show_id = ? AND hold_owner = ? AND hold_id = ? AND status = 'locked'`,
			nanos(next.CreatedAt), h.ShowID, h.Owner, h.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if int(n) != len(h.SeatIDs) {
			// A live hold's seats are all still its own: nobody can take a
			// seat whose lock protects it.
			return fmt.Errorf("hold %s locks %d of its %d seats: %w", h.ID, n, len(h.SeatIDs), errIntegrity)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE holds SET created_at = ?, extensions = ? WHERE id = ?`,
			nanos(next.CreatedAt), next.Extensions, h.ID); err != nil {
			return err
		}
		out = next
		return nil
	})
	if err != nil {
		return booking.Hold{}, err
	}
	return out, nil
}
