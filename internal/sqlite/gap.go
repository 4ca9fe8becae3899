package sqlite

import (
	"context"
	"database/sql"

	"boxoffice/internal/booking"
)

// checkGaps reads, after the hold's writes and before its commit, the
// seats of every row the hold touches, as they are in the transaction, and
// lets booking.CheckGaps decide (SEAT_GAPS=refuse): a seat another hold
// took since the page was drawn counts too.
func (s *Store) checkGaps(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment) error {
	if m.AllowGaps {
		return nil
	}
	args := make([]any, 0, len(h.SeatIDs)+1)
	args = append(args, h.ShowID)
	for _, id := range h.SeatIDs {
		args = append(args, id)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+seatColumns+` FROM seats WHERE show_id = ?1 AND grid_row IN (
		SELECT grid_row FROM seats WHERE show_id = ?1 AND seat_id IN (`+placeholders(len(h.SeatIDs))+`))`, args...)
	if err != nil {
		return err
	}
	seats, err := collectSeats(h.ShowID, rows)
	if err != nil {
		return err
	}
	return booking.CheckGaps(seats, h.SeatIDs, func(st booking.Seat) bool {
		return st.HoldID == h.ID || st.AvailableAt(m)
	})
}
