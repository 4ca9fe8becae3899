package sqlite

import (
	"context"
	"fmt"
	"strings"

	"boxoffice/internal/booking"
)

// ListOccupancy is the admin's overview in one aggregate query: the shows f
// selects are picked first (by shows_starts_at or shows_theatre), then only
// their seats are counted, each by its primary key range, with "available
// online" in SQL (seatOnline), and their confirmed and refund_due bookings summed
// through bookings_show. No seat leaves the database.
func (s *Store) ListOccupancy(ctx context.Context, f booking.ShowFilter, m booking.Moment) ([]booking.ShowOccupancy, error) {
	var where []string
	var args []any
	if !f.From.IsZero() {
		where = append(where, "starts_at >= ?")
		args = append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		where = append(where, "starts_at < ?")
		args = append(args, f.To.UnixNano())
	}
	if f.TheatreID != "" {
		where = append(where, "theatre_id = ?")
		args = append(args, f.TheatreID)
	}
	cond := ""
	if len(where) > 0 {
		cond = "WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	order := "starts_at, id"
	if f.Newest {
		order = "starts_at DESC, id DESC"
	}
	args = append(args, limit, max(f.Offset, 0), cutoff(m))
	// The seats are aggregated by show_id in primary key order, which needs
	// no sort (a GROUP BY over the join did: a temporary b-tree of every
	// seat row). held is what is neither booked, reserved nor available
	// online, as booking.CountOccupancy counts.
	rows, err := s.read.QueryContext(ctx, `
		WITH up AS (SELECT `+showColumns+` FROM shows `+cond+` ORDER BY `+order+` LIMIT ? OFFSET ?),
		agg AS (
			SELECT show_id, count(*) AS total, sum(status = 'booked') AS booked, sum(`+seatOnline+`) AS free,
				sum(status <> 'booked' AND reserve <> '') AS reserved
			FROM seats WHERE show_id IN (SELECT id FROM up)
			GROUP BY show_id)
		SELECT `+prefixed("up.", showColumns)+`,
			coalesce(agg.total, 0),
			coalesce(agg.booked, 0),
			coalesce(agg.total - agg.booked - agg.free - agg.reserved, 0),
			coalesce(agg.free, 0),
			coalesce(agg.reserved, 0),
			(SELECT coalesce(sum(b.amount), 0) FROM bookings AS b WHERE b.show_id = up.id AND b.state = 'confirmed'),
			(SELECT count(*) FROM bookings AS b WHERE b.show_id = up.id AND b.state = 'refund_due')
		FROM up LEFT JOIN agg ON agg.show_id = up.id
		ORDER BY `+prefixed("up.", order)+``, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list occupancy: %w", err)
	}
	defer rows.Close()
	list := []booking.ShowOccupancy{}
	for rows.Next() {
		var so booking.ShowOccupancy
		so.Show, err = scanShow(rows, &so.Total, &so.Booked, &so.Held, &so.Available, &so.Reserved, &so.Revenue, &so.RefundsDue)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list occupancy: %w", err)
		}
		list = append(list, so)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list occupancy: %w", err)
	}
	return list, nil
}

// Theatres lists the theatres that have shows, by name.
func (s *Store) Theatres(ctx context.Context) ([]booking.Theatre, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT theatre_id, min(theatre_name), min(theatre_city)
		FROM shows GROUP BY theatre_id ORDER BY 2, 1`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: theatres: %w", err)
	}
	defer rows.Close()
	list := []booking.Theatre{}
	for rows.Next() {
		var t booking.Theatre
		if err := rows.Scan(&t.ID, &t.Name, &t.City); err != nil {
			return nil, fmt.Errorf("sqlite: theatres: %w", err)
		}
		list = append(list, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: theatres: %w", err)
	}
	return list, nil
}
