package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"boxoffice/internal/booking"
)

// Numbering the queue (booking.QueueTx) and reading a position.

func (t *tx) QueueNumbering(onSaleID string) (booking.QueueNumbering, error) {
	var n booking.QueueNumbering
	err := t.tx.QueryRowContext(t.ctx, `SELECT numbered, early_numbered FROM onsales WHERE id = ?`, onSaleID).Scan(&n.Numbered, &n.EarlyDone)
	return n, notFound(err, booking.ErrOnSaleNotFound)
}

// UnnumberedQueue reads the front of queue_unnumbered_rank or
// queue_unnumbered_time: the entries numbered already are not in them.
func (t *tx) UnnumberedQueue(onSaleID string, early bool, limit int) ([]string, error) {
	q := `SELECT join_id FROM queue_entries INDEXED BY queue_unnumbered_time
		WHERE onsale_id = ? AND position IS NULL ORDER BY joined_at, join_id LIMIT ?`
	if early {
		q = `SELECT join_id FROM queue_entries INDEXED BY queue_unnumbered_rank
			WHERE onsale_id = ? AND before_open = 1 AND position IS NULL ORDER BY rank, join_id LIMIT ?`
	}
	return listRows(t.ctx, t.tx, "unnumbered queue", q, []any{onSaleID, limit}, func(r *sql.Rows) (string, error) {
		var id string
		err := r.Scan(&id)
		return id, err
	})
}

// NumberQueue sets the positions one entry at a time, each found by the
// primary key, with one statement prepared for the batch. (One UPDATE …
// FROM json_each of the batch would be planned as a scan of the whole
// queue with the batch searched for each entry.)
func (t *tx) NumberQueue(onSaleID string, joinIDs []string, from int) error {
	st, err := t.tx.PrepareContext(t.ctx, `UPDATE queue_entries SET position = ? WHERE onsale_id = ? AND join_id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, id := range joinIDs {
		res, err := st.ExecContext(t.ctx, from+i, onSaleID, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("number queue entry %s: %d rows, %v", id, n, err)
		}
	}
	return nil
}

func (t *tx) SetQueueNumbering(onSaleID string, n booking.QueueNumbering) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE onsales SET numbered = ?, early_numbered = ? WHERE id = ?`, n.Numbered, n.EarlyDone, onSaleID)
	return err
}

// QueuePosition reads the entry's position by its primary key.
func (s *Store) QueuePosition(ctx context.Context, onSaleID, joinID string) (int, bool, error) {
	var p sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT position FROM queue_entries WHERE onsale_id = ? AND join_id = ?`, onSaleID, joinID).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: queue position: %w", err)
	}
	return int(p.Int64), p.Valid, nil
}
