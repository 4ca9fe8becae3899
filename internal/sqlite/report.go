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
// the bookings confirmed in the range (bookings_confirmed), then those
// refunded in it but not confirmed in it (bookings_refunded), so that each
// comes once without sorting them, with what the report needs of each
// (not the whole booking), their show's theatre and their payment's
// provider.
const salesBookingsSQL = `
SELECT b.id, b.show_id, b.seat_ids, b.amount, b.currency, b.state, b.tickets, b.channel, b.method, b.confirmed_at, b.refunded_at,
       s.theatre_id, coalesce(t.name, s.theatre_name), coalesce(nullif(t.time_zone, ''), s.theatre_tz), coalesce(p.provider, '')
FROM bookings b INDEXED BY bookings_confirmed
JOIN shows s ON s.id = b.show_id
LEFT JOIN theatres t ON t.id = s.theatre_id
LEFT JOIN payments p ON p.id = b.payment_id
WHERE b.confirmed_at >= ?1 AND b.confirmed_at < ?2 AND (?3 = '' OR b.show_id = ?3)
UNION ALL
SELECT b.id, b.show_id, b.seat_ids, b.amount, b.currency, b.state, b.tickets, b.channel, b.method, b.confirmed_at, b.refunded_at,
       s.theatre_id, coalesce(t.name, s.theatre_name), coalesce(nullif(t.time_zone, ''), s.theatre_tz), coalesce(p.provider, '')
FROM bookings b INDEXED BY bookings_refunded
JOIN shows s ON s.id = b.show_id
LEFT JOIN theatres t ON t.id = s.theatre_id
LEFT JOIN payments p ON p.id = b.payment_id
WHERE b.refunded_at >= ?1 AND b.refunded_at < ?2 AND b.state = 'refunded'
  AND NOT (coalesce(b.confirmed_at, 0) >= ?1 AND coalesce(b.confirmed_at, 0) < ?2)
  AND (?3 = '' OR b.show_id = ?3)`

// SalesBookings reads the sales report's bookings in one statement
// (salesBookingsSQL).
func (s *Store) SalesBookings(ctx context.Context, q booking.SalesQuery) ([]booking.BookingSale, error) {
	return listRows(ctx, s.read, "sales bookings", salesBookingsSQL, []any{q.From.UnixNano(), q.To.UnixNano(), q.ShowID},
		func(r *sql.Rows) (booking.BookingSale, error) {
			var (
				b                       booking.Booking
				seatIDs, tickets        string
				confirmedAt, refundedAt sql.NullInt64
				v                       booking.BookingSale
			)
			err := r.Scan(&b.ID, &b.ShowID, &seatIDs, &b.Amount, &b.Currency, &b.State, &tickets, &b.Channel, &b.Method,
				&confirmedAt, &refundedAt, &v.TheatreID, &v.Theatre, &v.TimeZone, &v.Provider)
			if err != nil {
				return v, err
			}
			b.SeatIDs, b.ConfirmedAt, b.RefundedAt = splitIDs(seatIDs), fromNanos(confirmedAt), fromNanos(refundedAt)
			if b.Tickets, err = decodeTickets(tickets); err != nil {
				return v, err
			}
			sale := booking.SaleOf(b)
			sale.TheatreID, sale.Theatre, sale.TimeZone, sale.Provider = v.TheatreID, v.Theatre, v.TimeZone, v.Provider
			return sale, nil
		})
}
