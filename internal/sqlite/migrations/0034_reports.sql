-- 0034_reports: what the reports of SPEC §17 read.
--
-- A theatre's second tax rate, on prices above tax_above (0: none). Each
-- seat's rate is fixed when it is sold and kept in its ticket ("rate" in
-- the tickets column of 0029_seat_tickets; seats sold before have none,
-- which is 0).
ALTER TABLE theatres ADD COLUMN tax_above INTEGER NOT NULL DEFAULT 0;
ALTER TABLE theatres ADD COLUMN tax_rate_above INTEGER NOT NULL DEFAULT 0;

-- A booking's seats as the reports count them (booking.Booking.Sums,
-- written with the booking, whose tickets never change): admissions (seats
-- sold for more than 0), comps (seats sold for 0), gross and tax. Existing
-- seats have rate 0, so tax 0; a booking stored without tickets shares its
-- amount out over its seats (booking.TicketsOf).
ALTER TABLE bookings ADD COLUMN admissions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD COLUMN comps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD COLUMN gross INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD COLUMN tax INTEGER NOT NULL DEFAULT 0;

UPDATE bookings SET
    admissions = (SELECT count(*) FROM json_each(bookings.tickets) WHERE json_extract(value, '$.price') <> 0),
    comps      = (SELECT count(*) FROM json_each(bookings.tickets) WHERE json_extract(value, '$.price') = 0),
    gross      = (SELECT coalesce(sum(json_extract(value, '$.price')), 0) FROM json_each(bookings.tickets))
WHERE tickets <> '';

UPDATE bookings SET
    admissions = min(amount, length(seat_ids) - length(replace(seat_ids, ',', '')) + 1),
    comps      = max(0, length(seat_ids) - length(replace(seat_ids, ',', '')) + 1 - amount),
    gross      = amount
WHERE tickets = '' AND seat_ids <> '';

-- The film report: the films at each theatre with a show in a week
-- (shows_starts_at), all their shows through its end (shows_film), and
-- each show's counted bookings from this index alone (bookings_report).
CREATE INDEX shows_film ON shows (movie_id, theatre_id, starts_at);
-- shows_film serves what shows_movie served (a movie's shows).
DROP INDEX shows_movie;
CREATE INDEX bookings_report ON bookings (show_id, state, admissions, comps, gross, tax);
