package sqlite

import (
	"context"
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// filmShowsSQL is the film report's read (booking.FilmReportReader): the
// movies and theatres with a show not cancelled in the range
// (shows_starts_at), each of their shows through its end (shows_film), and
// each show's confirmed bookings summed from bookings_report alone, by a
// subquery a column rather than a join grouped by show, which sorts every
// booking: a third less time in BenchmarkFilmReport.
const filmShowsSQL = `
WITH films AS (
    SELECT DISTINCT movie_id, theatre_id FROM shows
    WHERE starts_at >= ?1 AND starts_at < ?2 AND cancelled_at IS NULL)
SELECT s.id, s.movie_id, coalesce(m.title, s.movie_title), coalesce(m.rent, ''),
       s.theatre_id, coalesce(t.name, s.theatre_name), coalesce(nullif(t.time_zone, ''), s.theatre_tz), s.currency,
       s.starts_at, s.cancelled_at IS NOT NULL,
       (SELECT coalesce(sum(admissions), 0) FROM bookings INDEXED BY bookings_report WHERE show_id = s.id AND state = 'confirmed'),
       (SELECT coalesce(sum(comps), 0) FROM bookings INDEXED BY bookings_report WHERE show_id = s.id AND state = 'confirmed'),
       (SELECT coalesce(sum(gross), 0) FROM bookings INDEXED BY bookings_report WHERE show_id = s.id AND state = 'confirmed'),
       (SELECT coalesce(sum(tax), 0) FROM bookings INDEXED BY bookings_report WHERE show_id = s.id AND state = 'confirmed')
FROM films f
JOIN shows s INDEXED BY shows_film ON s.movie_id = f.movie_id AND s.theatre_id = f.theatre_id AND s.starts_at < ?2
LEFT JOIN movies m ON m.id = s.movie_id
LEFT JOIN theatres t ON t.id = s.theatre_id`

// FilmShows reads the film report's shows in one statement (filmShowsSQL).
func (s *Store) FilmShows(ctx context.Context, from, to time.Time) ([]booking.ShowSales, error) {
	return listRows(ctx, s.read, "film shows", filmShowsSQL, []any{from.UnixNano(), to.UnixNano()}, func(r *sql.Rows) (booking.ShowSales, error) {
		var (
			v        booking.ShowSales
			startsAt sql.NullInt64
		)
		err := r.Scan(&v.ShowID, &v.MovieID, &v.Title, &v.Rent, &v.TheatreID, &v.Theatre, &v.TimeZone, &v.Currency,
			&startsAt, &v.Cancelled, &v.Sums.Admissions, &v.Sums.Comps, &v.Sums.Gross, &v.Sums.Tax)
		v.StartsAt = fromNanos(startsAt)
		return v, err
	})
}

// salesBookingsSQL is the sales report's read (booking.SalesReportReader):
// the bookings confirmed in the range (bookings_confirmed) and those
// refunded in it (bookings_refunded), each once, with their show's
// theatre and their payment's provider.
var salesBookingsSQL = `SELECT ` + prefixed("b.", bookingColumns) + `,
       s.theatre_id, coalesce(t.name, s.theatre_name), coalesce(nullif(t.time_zone, ''), s.theatre_tz), coalesce(p.provider, '')
FROM bookings b
JOIN shows s ON s.id = b.show_id
LEFT JOIN theatres t ON t.id = s.theatre_id
LEFT JOIN payments p ON p.id = b.payment_id
WHERE b.id IN (
    SELECT id FROM bookings INDEXED BY bookings_confirmed WHERE confirmed_at >= ?1 AND confirmed_at < ?2
    UNION
    SELECT id FROM bookings INDEXED BY bookings_refunded WHERE refunded_at >= ?1 AND refunded_at < ?2 AND state = 'refunded')
  AND (?3 = '' OR b.show_id = ?3)`

// SalesBookings reads the sales report's bookings in one statement
// (salesBookingsSQL).
func (s *Store) SalesBookings(ctx context.Context, q booking.SalesQuery) ([]booking.BookingSale, error) {
	return listRows(ctx, s.read, "sales bookings", salesBookingsSQL, []any{q.From.UnixNano(), q.To.UnixNano(), q.ShowID},
		func(r *sql.Rows) (booking.BookingSale, error) {
			var theatreID, theatre, zone, provider string
			b, err := scanBooking(withExtra{r, []any{&theatreID, &theatre, &zone, &provider}})
			v := booking.SaleOf(b)
			v.TheatreID, v.Theatre, v.TimeZone, v.Provider = theatreID, theatre, zone, provider
			return v, err
		})
}

// withExtra scans a row's first columns as its scanner's caller asks, the
// rest into extra.
type withExtra struct {
	r     scanner
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.r.Scan(append(dest, w.extra...)...) }
