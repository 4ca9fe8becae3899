-- 0037_bookings_refund_due: the site-wide refund queue (/admin/refunds)
-- lists every show's refund_due bookings, the longest waiting first, a
-- page at a time; the index holds those rows alone, in that order.
CREATE INDEX bookings_refund_due ON bookings (updated_at, id) WHERE state = 'refund_due';
