package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

// showColumns are read by scanShow, in this order; callers may qualify them
// with an alias prefix.
const showColumns = `id, movie_id, movie_title, movie_rating, movie_runtime_min, movie_language,
	theatre_id, theatre_name, theatre_city, screen, starts_at, currency, cancelled_at, screen_id, theatre_tz, sales_open_at,
	online_cutoff`

func scanShow(r scanner, extra ...any) (booking.Show, error) {
	var (
		sh                                 booking.Show
		startsAt, cancelledAt, salesOpenAt sql.NullInt64
	)
	dest := append([]any{&sh.ID, &sh.Movie.ID, &sh.Movie.Title, &sh.Movie.Rating, &sh.Movie.RuntimeMin,
		&sh.Movie.Language, &sh.Theatre.ID, &sh.Theatre.Name, &sh.Theatre.City, &sh.Screen, &startsAt,
		&sh.Currency, &cancelledAt, &sh.ScreenID, &sh.Theatre.TimeZone, &salesOpenAt, &sh.OnlineCutoff}, extra...)
	err := r.Scan(dest...)
	sh.StartsAt, sh.CancelledAt, sh.SalesOpenAt = fromNanos(startsAt), fromNanos(cancelledAt), fromNanos(salesOpenAt)
	return sh, err
}

func getShow(ctx context.Context, q rowQuerier, showID string) (booking.Show, error) {
	sh, err := scanShow(q.QueryRowContext(ctx, `SELECT `+showColumns+` FROM shows WHERE id = ?`, showID))
	return sh, notFound(err, booking.ErrShowNotFound)
}

// CountShows counts every show, past ones too.
func (s *Store) CountShows(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM shows`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count shows: %w", err)
	}
	return n, nil
}

// Show returns one show.
func (s *Store) Show(ctx context.Context, showID string) (booking.Show, error) {
	sh, err := scanShow(s.stmts.show.QueryRowContext(ctx, showID))
	if err != nil {
		return booking.Show{}, wrapErr("show", notFound(err, booking.ErrShowNotFound))
	}
	return sh, nil
}

// showExists is ErrShowNotFound for an unknown show, nil otherwise. Queries
// that found no seats call it to tell "no such show" from "nothing left".
func (s *Store) showExists(ctx context.Context, showID string) error {
	var one int
	err := s.read.QueryRowContext(ctx, `SELECT 1 FROM shows WHERE id = ?`, showID).Scan(&one)
	return notFound(err, booking.ErrShowNotFound)
}

// UpcomingShows lists up to limit shows (all when limit <= 0) starting at or
// after from, soonest first, their seats left being those available
// online (seatOnline). The shows are picked first and only their seats
// aggregated, so the cost does not grow with the size of the catalog.
func (s *Store) UpcomingShows(ctx context.Context, from time.Time, limit int, m booking.Moment) ([]booking.ShowSummary, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.read.QueryContext(ctx, `
		SELECT `+prefixed("up.", showColumns)+`,
			count(seats.seat_id),
			coalesce(sum(`+seatOnline+`), 0),
			coalesce(min(seats.price), 0),
			coalesce(max(seats.price), 0)
		FROM (SELECT `+showColumns+` FROM shows WHERE starts_at >= ? AND cancelled_at IS NULL
			ORDER BY starts_at, id LIMIT ?) AS up
		LEFT JOIN seats ON seats.show_id = up.id
		GROUP BY up.id
		ORDER BY up.starts_at, up.id`,
		cutoff(m), from.UnixNano(), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: upcoming shows: %w", err)
	}
	defer rows.Close()
	list := []booking.ShowSummary{}
	for rows.Next() {
		var sum booking.ShowSummary
		sum.Show, err = scanShow(rows, &sum.SeatsTotal, &sum.SeatsLeft, &sum.MinPrice, &sum.MaxPrice)
		if err != nil {
			return nil, fmt.Errorf("sqlite: upcoming shows: %w", err)
		}
		list = append(list, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: upcoming shows: %w", err)
	}
	return list, nil
}

// prefixed qualifies each column of a column list with p.
func prefixed(p, columns string) string {
	var out []byte
	start := true
	for i := 0; i < len(columns); i++ {
		c := columns[i]
		if start && c != ' ' && c != '\n' && c != '\t' {
			out = append(out, p...)
			start = false
		}
		if c == ',' {
			start = true
		}
		out = append(out, c)
	}
	return string(out)
}

// ShowSeats reads the show, its seats and owner's active hold in one read
// transaction. In WAL mode a transaction reads one snapshot of the
// database, the one its first read finds, until it ends: a hold, Back or
// payment another connection or process commits meanwhile is in all three
// reads or in none.
func (s *Store) ShowSeats(ctx context.Context, showID, owner string) (booking.ShowSeats, error) {
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return booking.ShowSeats{}, wrapErr("show seats", err)
	}
	defer tx.Rollback() // it only read
	var ss booking.ShowSeats
	if ss.Show, err = scanShow(stmt(ctx, tx, s.stmts.show).QueryRowContext(ctx, showID)); err != nil {
		return booking.ShowSeats{}, wrapErr("show seats", notFound(err, booking.ErrShowNotFound))
	}
	if ss.Seats, err = s.seats(ctx, tx, showID); err != nil {
		return booking.ShowSeats{}, wrapErr("show seats", err)
	}
	if s.showSeatsHook != nil {
		s.showSeatsHook()
	}
	if owner != "" {
		h, err := activeHold(ctx, tx, showID, owner)
		switch {
		case err == nil:
			ss.Hold = &h
		case !errors.Is(err, booking.ErrHoldNotFound):
			return booking.ShowSeats{}, wrapErr("show seats", err)
		}
	}
	return ss, nil
}
