package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

var _ booking.OnSaleStore = (*Store)(nil)

// onSaleColumns are read by scanOnSale, in this order: the on-sale's row and
// its shows as a JSON array, so that a list of on-sales is one query.
const onSaleColumns = `id, name, opens_at, closes_at, pass_ttl, key, segments, closed_at, created_at,
	(SELECT json_group_array(show_id) FROM onsale_shows WHERE onsale_id = onsales.id)`

// segmentJSON is a booking.Segment as the segments column keeps it.
type segmentJSON struct {
	From   int64 `json:"from"` // Unix ns
	Rate   int   `json:"rate"`
	Paused bool  `json:"paused,omitempty"`
}

func segmentsJSON(segs []booking.Segment) string {
	out := make([]segmentJSON, len(segs))
	for i, s := range segs {
		out[i] = segmentJSON{From: s.From.UnixNano(), Rate: s.Rate, Paused: s.Paused}
	}
	b, _ := json.Marshal(out) // ints and bools always marshal
	return string(b)
}

func scanOnSale(r scanner) (booking.OnSale, error) {
	var (
		o                                    booking.OnSale
		opensAt, closesAt, closedAt, created sql.NullInt64
		ttl                                  int64
		segs, shows                          string
	)
	if err := r.Scan(&o.ID, &o.Name, &opensAt, &closesAt, &ttl, &o.Key, &segs, &closedAt, &created, &shows); err != nil {
		return booking.OnSale{}, err
	}
	o.OpensAt, o.ClosesAt, o.ClosedAt, o.CreatedAt = fromNanos(opensAt), fromNanos(closesAt), fromNanos(closedAt), fromNanos(created)
	o.PassTTL = time.Duration(ttl)
	var js []segmentJSON
	if err := json.Unmarshal([]byte(segs), &js); err != nil {
		return booking.OnSale{}, fmt.Errorf("on-sale %s: segments: %w", o.ID, err)
	}
	for _, s := range js {
		o.Segments = append(o.Segments, booking.Segment{From: time.Unix(0, s.From).UTC(), Rate: s.Rate, Paused: s.Paused})
	}
	if err := json.Unmarshal([]byte(shows), &o.Shows); err != nil {
		return booking.OnSale{}, fmt.Errorf("on-sale %s: shows: %w", o.ID, err)
	}
	return o, nil
}

func scanOnSaleRows(rows *sql.Rows) (booking.OnSale, error) { return scanOnSale(rows) }

// OnSale returns one on-sale.
func (s *Store) OnSale(ctx context.Context, id string) (booking.OnSale, error) {
	o, err := scanOnSale(s.read.QueryRowContext(ctx, `SELECT `+onSaleColumns+` FROM onsales WHERE id = ?`, id))
	if err != nil {
		return booking.OnSale{}, wrapErr("on-sale", notFound(err, booking.ErrOnSaleNotFound))
	}
	return o, nil
}

// ListOnSales lists every on-sale, the latest opening first.
func (s *Store) ListOnSales(ctx context.Context) ([]booking.OnSale, error) {
	return listRows(ctx, s.read, "list on-sales", `SELECT `+onSaleColumns+` FROM onsales ORDER BY opens_at DESC, id`, nil, scanOnSaleRows)
}

// OpenOnSales lists the on-sales open at now, by the onsales_closes index.
func (s *Store) OpenOnSales(ctx context.Context, now time.Time) ([]booking.OnSale, error) {
	return listRows(ctx, s.read, "open on-sales", `SELECT `+onSaleColumns+` FROM onsales WHERE closes_at > ? ORDER BY opens_at, id`,
		[]any{now.UnixNano()}, scanOnSaleRows)
}

// JoinQueue inserts e: one statement, one row.
func (s *Store) JoinQueue(ctx context.Context, e booking.QueueEntry) error {
	return s.writeStmt(ctx, "join queue", func() error {
		_, err := s.write.ExecContext(ctx, `INSERT INTO queue_entries (onsale_id, join_id, joined_at, before_open, rank)
			VALUES (?, ?, ?, ?, ?)`, e.OnSaleID, e.JoinID, e.JoinedAt.UnixNano(), e.Before, e.Rank)
		return err
	})
}

// CountQueue counts an on-sale's queue entries.
func (s *Store) CountQueue(ctx context.Context, onSaleID string) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM queue_entries WHERE onsale_id = ?`, onSaleID).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count queue: %w", err)
	}
	return n, nil
}
