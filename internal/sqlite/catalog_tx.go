package sqlite

import "boxoffice/internal/booking"

// The catalog steps' reads and writes (booking.CatalogTx).

func (t *tx) TheatreByID(id string) (booking.Theatre, error) {
	var th booking.Theatre
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, name, city, time_zone, currency, tax_rate, tax_above, tax_rate_above FROM theatres WHERE id = ?`, id).
		Scan(&th.ID, &th.Name, &th.City, &th.TimeZone, &th.Currency, &th.Tax.Rate, &th.Tax.Above, &th.Tax.AboveRate)
	return th, notFound(err, booking.ErrTheatreNotFound)
}

func (t *tx) ScreenByID(id string) (booking.Screen, error) {
	var sc booking.Screen
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, theatre_id, name, layout FROM screens WHERE id = ?`, id).
		Scan(&sc.ID, &sc.TheatreID, &sc.Name, &sc.Layout)
	return sc, notFound(err, booking.ErrScreenNotFound)
}

func (t *tx) MovieByID(id string) (booking.Movie, error) {
	var m booking.Movie
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, title, rating, runtime_min, language, rent FROM movies WHERE id = ?`, id).
		Scan(&m.ID, &m.Title, &m.Rating, &m.RuntimeMin, &m.Language, &m.Rent)
	return m, notFound(err, booking.ErrMovieNotFound)
}

func (t *tx) CountTheatreScreens(theatreID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM screens WHERE theatre_id = ?`, theatreID)
}

func (t *tx) CountTheatreShows(theatreID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM shows WHERE theatre_id = ?`, theatreID)
}

func (t *tx) CountScreenShows(screenID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM shows WHERE screen_id = ?`, screenID)
}

func (t *tx) CountMovieShows(movieID string) (int, error) {
	return count(t.ctx, t.tx, `SELECT count(*) FROM shows WHERE movie_id = ?`, movieID)
}

func (t *tx) PutTheatre(th booking.Theatre) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO theatres (id, name, city, time_zone, currency) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, city = excluded.city, time_zone = excluded.time_zone,
			currency = excluded.currency`,
		th.ID, th.Name, th.City, th.TimeZone, th.Currency)
	return err
}

func (t *tx) CopyTheatreToShows(th booking.Theatre) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET theatre_name = ?, theatre_city = ?, theatre_tz = ? WHERE theatre_id = ?`,
		th.Name, th.City, th.TimeZone, th.ID)
	return err
}

func (t *tx) PutScreen(sc booking.Screen) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO screens (id, theatre_id, name, layout) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET theatre_id = excluded.theatre_id, name = excluded.name, layout = excluded.layout`,
		sc.ID, sc.TheatreID, sc.Name, sc.Layout)
	return err
}

func (t *tx) CopyScreenToShows(sc booking.Screen) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET screen = ? WHERE screen_id = ?`, sc.Name, sc.ID)
	return err
}

func (t *tx) PutMovie(m booking.Movie) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO movies (id, title, rating, runtime_min, language) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET title = excluded.title, rating = excluded.rating,
			runtime_min = excluded.runtime_min, language = excluded.language`,
		m.ID, m.Title, m.Rating, m.RuntimeMin, m.Language)
	return err
}

func (t *tx) CopyMovieToShows(m booking.Movie) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE shows SET movie_title = ?, movie_rating = ?, movie_runtime_min = ?, movie_language = ?
		WHERE movie_id = ?`, m.Title, m.Rating, m.RuntimeMin, m.Language, m.ID)
	return err
}

func (t *tx) DeleteTheatreRecord(id string) error {
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM theatres WHERE id = ?`, id)
	return err
}

func (t *tx) DeleteScreenRecord(id string) error {
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM screens WHERE id = ?`, id)
	return err
}

func (t *tx) DeleteMovieRecord(id string) error {
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM movies WHERE id = ?`, id)
	return err
}
