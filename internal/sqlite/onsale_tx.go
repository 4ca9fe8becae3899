package sqlite

import (
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// The on-sale steps' reads and writes (booking.OnSaleTx).

func (t *tx) OnSaleByID(id string) (booking.OnSale, error) {
	o, err := scanOnSale(t.tx.QueryRowContext(t.ctx, `SELECT `+onSaleColumns+` FROM onsales WHERE id = ?`, id))
	return o, notFound(err, booking.ErrOnSaleNotFound)
}

func (t *tx) OpenOnSalesCovering(showIDs []string, now time.Time) ([]booking.OnSale, error) {
	return listRows(t.ctx, t.tx, "on-sales covering", `SELECT `+onSaleColumns+` FROM onsales
		WHERE closes_at > ? AND id IN (SELECT onsale_id FROM onsale_shows INDEXED BY onsale_shows_show
			WHERE show_id IN (SELECT value FROM json_each(?)))`,
		[]any{now.UnixNano(), idsJSON(showIDs)}, scanOnSaleRows)
}

func (t *tx) ShowsOfMovie(movieID string) ([]booking.Show, error) {
	return listRows(t.ctx, t.tx, "shows of movie", `SELECT `+showColumns+` FROM shows WHERE movie_id = ? ORDER BY starts_at, id`,
		[]any{movieID}, func(r *sql.Rows) (booking.Show, error) { return scanShow(r) })
}

func (t *tx) InsertOnSale(o booking.OnSale) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO onsales (id, name, opens_at, closes_at, pass_ttl, key, segments, closed_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		o.ID, o.Name, nanos(o.OpensAt), nanos(o.ClosesAt), int64(o.PassTTL), o.Key, segmentsJSON(o.Segments), nanos(o.ClosedAt), nanos(o.CreatedAt))
	if err != nil {
		return err
	}
	for _, id := range o.Shows {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO onsale_shows (onsale_id, show_id) VALUES (?, ?)`, o.ID, id); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) SetOnSale(o booking.OnSale) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE onsales SET segments = ?, closes_at = ?, closed_at = ? WHERE id = ?`,
		segmentsJSON(o.Segments), nanos(o.ClosesAt), nanos(o.ClosedAt), o.ID)
	return err
}

func (t *tx) SetShowSalesOpen(showID string, at time.Time) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET sales_open_at = ? WHERE id = ?`, nanos(at), showID)
	return err
}
