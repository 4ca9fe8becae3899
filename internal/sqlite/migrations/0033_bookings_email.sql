-- 0033_bookings_email: the counter finds a customer's bookings by email
-- to print them again (SPEC §16), the newest first, ignoring the case of
-- ASCII letters (NOCASE, as the query compares).
CREATE INDEX bookings_email ON bookings (email COLLATE NOCASE, created_at, id);
