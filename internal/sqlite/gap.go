package sqlite

import (
	"context"
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// checkGaps reads, after the hold's writes and before its commit, the
// seats of every row the hold touches, as they are in the transaction, and
// lets booking.CheckGaps decide (SEAT_GAPS=refuse): a seat another hold
// took since the page was drawn counts too. idsJSON is h.SeatIDs as a JSON
// array, as the lock statements take them.
func (s *Store) checkGaps(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment, idsJSON string) error {
	if m.AllowGaps {
		return nil
	}
	rows, err := tx.StmtContext(ctx, s.stmts.gapRows).QueryContext(ctx, h.ShowID, idsJSON)
	if err != nil {
		return err
	}
	defer rows.Close()
	var seats []booking.Seat
	for rows.Next() {
		var st booking.Seat
		var lockedAt int64
		if err := rows.Scan(&st.ID, &st.GridRow, &st.GridCol, &st.Status, &st.HoldID, &lockedAt); err != nil {
			return err
		}
		if lockedAt != 0 {
			st.LockedAt = time.Unix(0, lockedAt).UTC()
		}
		seats = append(seats, st)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return booking.CheckGaps(seats, h.SeatIDs, func(st booking.Seat) bool {
		return st.HoldID == h.ID || st.AvailableAt(m)
	})
}

// gapSQL reads what the gap rule needs of the seats in the rows of some
// seats: their places and whether they are free, through seats_by_place
// (a row, not every seat of the show). Arguments: show id, the seat ids as
// a JSON array, so that one prepared statement serves any number of seats.
const gapSQL = `SELECT seat_id, grid_row, grid_col, status, coalesce(hold_id, ''), coalesce(locked_at, 0)
	FROM seats INDEXED BY seats_by_place WHERE show_id = ?1 AND grid_row IN (
	SELECT grid_row FROM seats WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?2)))`
