package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"boxoffice/internal/booking"
)

// Theatre returns one theatre.
func (s *Store) Theatre(ctx context.Context, id string) (booking.Theatre, error) {
	var t booking.Theatre
	err := s.read.QueryRowContext(ctx, `SELECT id, name, city, time_zone, currency, tax_rate, tax_above, tax_rate_above FROM theatres WHERE id = ?`, id).
		Scan(&t.ID, &t.Name, &t.City, &t.TimeZone, &t.Currency, &t.Tax.Rate, &t.Tax.Above, &t.Tax.AboveRate)
	return t, wrapErr("theatre", notFound(err, booking.ErrTheatreNotFound))
}

// ListTheatres lists the theatres by name.
func (s *Store) ListTheatres(ctx context.Context) ([]booking.Theatre, error) {
	return listRows(ctx, s.read, "theatres", `SELECT id, name, city, time_zone, currency, tax_rate, tax_above, tax_rate_above FROM theatres ORDER BY name, id`, nil,
		func(r *sql.Rows) (booking.Theatre, error) {
			var t booking.Theatre
			err := r.Scan(&t.ID, &t.Name, &t.City, &t.TimeZone, &t.Currency, &t.Tax.Rate, &t.Tax.Above, &t.Tax.AboveRate)
			return t, err
		})
}

// Screen returns one screen.
func (s *Store) Screen(ctx context.Context, id string) (booking.Screen, error) {
	var sc booking.Screen
	err := s.read.QueryRowContext(ctx, `SELECT id, theatre_id, name, layout FROM screens WHERE id = ?`, id).
		Scan(&sc.ID, &sc.TheatreID, &sc.Name, &sc.Layout)
	return sc, wrapErr("screen", notFound(err, booking.ErrScreenNotFound))
}

// ListScreens lists a theatre's screens by name.
func (s *Store) ListScreens(ctx context.Context, theatreID string) ([]booking.Screen, error) {
	return listRows(ctx, s.read, "screens", `SELECT id, theatre_id, name, layout FROM screens WHERE theatre_id = ? ORDER BY name, id`,
		[]any{theatreID}, func(r *sql.Rows) (booking.Screen, error) {
			var sc booking.Screen
			err := r.Scan(&sc.ID, &sc.TheatreID, &sc.Name, &sc.Layout)
			return sc, err
		})
}

// Movie returns one movie.
func (s *Store) Movie(ctx context.Context, id string) (booking.Movie, error) {
	var m booking.Movie
	err := s.read.QueryRowContext(ctx, `SELECT id, title, rating, runtime_min, language, rent FROM movies WHERE id = ?`, id).
		Scan(&m.ID, &m.Title, &m.Rating, &m.RuntimeMin, &m.Language, &m.Rent)
	return m, wrapErr("movie", notFound(err, booking.ErrMovieNotFound))
}

// ListMovies lists the movies by title.
func (s *Store) ListMovies(ctx context.Context) ([]booking.Movie, error) {
	return listRows(ctx, s.read, "movies", `SELECT id, title, rating, runtime_min, language, rent FROM movies ORDER BY title, id`, nil,
		func(r *sql.Rows) (booking.Movie, error) {
			var m booking.Movie
			err := r.Scan(&m.ID, &m.Title, &m.Rating, &m.RuntimeMin, &m.Language, &m.Rent)
			return m, err
		})
}

func count(ctx context.Context, tx *sql.Tx, query string, arg any) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, query, arg).Scan(&n)
	return n, err
}

// listRows runs query with args on q and scans each row with scan; what is
// the list's name in errors. It never returns a nil slice without an error.
func listRows[T any](ctx context.Context, q querier, what, query string, args []any, scan func(*sql.Rows) (T, error)) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", what, err)
	}
	return out, nil
}
