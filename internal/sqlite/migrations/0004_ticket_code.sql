-- 0004_ticket_code: no two bookings share a ticket code.
--
-- A code is 40 random bits, so among about a million bookings two could
-- draw the same one. The store answers that violation with
-- booking.ErrTicketCodeTaken and the service settles again with a fresh
-- code. Partial: a booking without a code stores '' (the column is NOT
-- NULL), and there are many of those.
--
-- On a database that already holds a duplicate this migration fails, and
-- the store does not start; find the bookings with
--   SELECT ticket_code, count(*) FROM bookings WHERE ticket_code <> ''
--   GROUP BY ticket_code HAVING count(*) > 1;
CREATE UNIQUE INDEX bookings_ticket_code ON bookings (ticket_code)
    WHERE ticket_code <> '';
