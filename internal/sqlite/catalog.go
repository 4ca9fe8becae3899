package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"boxoffice/internal/booking"
)

// SaveTheatre inserts or updates a theatre, and its name, city and zone in
// the shows that carry copies of them, in one transaction.
func (s *Store) SaveTheatre(ctx context.Context, t booking.Theatre) error {
	return s.inTx(ctx, "save theatre", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO theatres (id, name, city, time_zone) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, city = excluded.city, time_zone = excluded.time_zone`,
			t.ID, t.Name, t.City, t.TimeZone); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE shows SET theatre_name = ?, theatre_city = ?, theatre_tz = ? WHERE theatre_id = ?`,
			t.Name, t.City, t.TimeZone, t.ID)
		return err
	})
}

// Theatre returns one theatre.
func (s *Store) Theatre(ctx context.Context, id string) (booking.Theatre, error) {
	var t booking.Theatre
	err := s.read.QueryRowContext(ctx, `SELECT id, name, city, time_zone FROM theatres WHERE id = ?`, id).
		Scan(&t.ID, &t.Name, &t.City, &t.TimeZone)
	return t, wrapErr("theatre", notFound(err, booking.ErrTheatreNotFound))
}

// ListTheatres lists the theatres by name.
func (s *Store) ListTheatres(ctx context.Context) ([]booking.Theatre, error) {
	return listRows(ctx, s.read, "theatres", `SELECT id, name, city, time_zone FROM theatres ORDER BY name, id`, nil,
		func(r *sql.Rows) (booking.Theatre, error) {
			var t booking.Theatre
			err := r.Scan(&t.ID, &t.Name, &t.City, &t.TimeZone)
			return t, err
		})
}

// DeleteTheatre deletes a theatre without screens or shows.
func (s *Store) DeleteTheatre(ctx context.Context, id string) error {
	return s.inTx(ctx, "delete theatre", func(tx *sql.Tx) error {
		if err := exists(ctx, tx, `SELECT 1 FROM theatres WHERE id = ?`, id, booking.ErrTheatreNotFound); err != nil {
			return err
		}
		if n, err := count(ctx, tx, `SELECT count(*) FROM screens WHERE theatre_id = ?`, id); err != nil || n > 0 {
			return inUse(err, "The theatre has %d screen(s): delete them first.", n)
		}
		if n, err := count(ctx, tx, `SELECT count(*) FROM shows WHERE theatre_id = ?`, id); err != nil || n > 0 {
			return inUse(err, "The theatre has %d show(s); a theatre with shows stays.", n)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM theatres WHERE id = ?`, id)
		return err
	})
}

// SaveScreen inserts or updates a screen, and its name in its shows.
func (s *Store) SaveScreen(ctx context.Context, sc booking.Screen) error {
	return s.inTx(ctx, "save screen", func(tx *sql.Tx) error {
		if err := exists(ctx, tx, `SELECT 1 FROM theatres WHERE id = ?`, sc.TheatreID, booking.ErrTheatreNotFound); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO screens (id, theatre_id, name, layout) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, layout = excluded.layout`,
			sc.ID, sc.TheatreID, sc.Name, sc.Layout); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE shows SET screen = ? WHERE screen_id = ?`, sc.Name, sc.ID)
		return err
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

// DeleteScreen deletes a screen no show was made on.
func (s *Store) DeleteScreen(ctx context.Context, id string) error {
	return s.inTx(ctx, "delete screen", func(tx *sql.Tx) error {
		if err := exists(ctx, tx, `SELECT 1 FROM screens WHERE id = ?`, id, booking.ErrScreenNotFound); err != nil {
			return err
		}
		if n, err := count(ctx, tx, `SELECT count(*) FROM shows WHERE screen_id = ?`, id); err != nil || n > 0 {
			return inUse(err, "%d show(s) were made on this screen; a screen with shows stays.", n)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM screens WHERE id = ?`, id)
		return err
	})
}

// SaveMovie inserts or updates a movie, and its copies in its shows.
func (s *Store) SaveMovie(ctx context.Context, m booking.Movie) error {
	return s.inTx(ctx, "save movie", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO movies (id, title, rating, runtime_min, language) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET title = excluded.title, rating = excluded.rating,
				runtime_min = excluded.runtime_min, language = excluded.language`,
			m.ID, m.Title, m.Rating, m.RuntimeMin, m.Language); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE shows SET movie_title = ?, movie_rating = ?, movie_runtime_min = ?, movie_language = ?
			WHERE movie_id = ?`, m.Title, m.Rating, m.RuntimeMin, m.Language, m.ID)
		return err
	})
}

// Movie returns one movie.
func (s *Store) Movie(ctx context.Context, id string) (booking.Movie, error) {
	var m booking.Movie
	err := s.read.QueryRowContext(ctx, `SELECT id, title, rating, runtime_min, language FROM movies WHERE id = ?`, id).
		Scan(&m.ID, &m.Title, &m.Rating, &m.RuntimeMin, &m.Language)
	return m, wrapErr("movie", notFound(err, booking.ErrMovieNotFound))
}

// ListMovies lists the movies by title.
func (s *Store) ListMovies(ctx context.Context) ([]booking.Movie, error) {
	return listRows(ctx, s.read, "movies", `SELECT id, title, rating, runtime_min, language FROM movies ORDER BY title, id`, nil,
		func(r *sql.Rows) (booking.Movie, error) {
			var m booking.Movie
			err := r.Scan(&m.ID, &m.Title, &m.Rating, &m.RuntimeMin, &m.Language)
			return m, err
		})
}

// DeleteMovie deletes a movie no show shows.
func (s *Store) DeleteMovie(ctx context.Context, id string) error {
	return s.inTx(ctx, "delete movie", func(tx *sql.Tx) error {
		if err := exists(ctx, tx, `SELECT 1 FROM movies WHERE id = ?`, id, booking.ErrMovieNotFound); err != nil {
			return err
		}
		if n, err := count(ctx, tx, `SELECT count(*) FROM shows WHERE movie_id = ?`, id); err != nil || n > 0 {
			return inUse(err, "The movie has %d show(s); delete or keep them first.", n)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM movies WHERE id = ?`, id)
		return err
	})
}

// exists is sentinel unless query, with arg, finds a row.
func exists(ctx context.Context, tx *sql.Tx, query string, arg any, sentinel error) error {
	var one int
	return notFound(tx.QueryRowContext(ctx, query, arg).Scan(&one), sentinel)
}

func count(ctx context.Context, tx *sql.Tx, query string, arg any) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, query, arg).Scan(&n)
	return n, err
}

// inUse is err, or booking.ErrInUse with the message when there is none.
func inUse(err error, format string, n int) error {
	if err != nil {
		return err
	}
	return booking.ErrInUse(format, n)
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
