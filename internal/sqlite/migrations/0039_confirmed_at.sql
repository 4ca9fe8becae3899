-- 0039_confirmed_at: when a booking became confirmed, its sale time in the
-- sales report (SPEC §17). No column recorded it: updated_at moves on with
-- every later change (a refund, the door, a new email).
ALTER TABLE bookings ADD COLUMN confirmed_at INTEGER;

-- Existing bookings: a sale at the counter was confirmed as it was made;
-- an online booking when the event that booked it was received (its
-- payment_events row, effect booked); one whose event was pruned
-- (RETENTION) but that has a ticket code, which only confirmation gives,
-- at its creation, the nearest instant known. A booking never confirmed
-- (failed, pending, or due a refund because its payment came late) has
-- none.
UPDATE bookings SET confirmed_at = created_at WHERE channel = 'box_office';
UPDATE bookings SET confirmed_at = (
    SELECT min(e.received_at) FROM payment_events e WHERE e.payment_id = bookings.payment_id AND e.effect = 'booked')
WHERE channel <> 'box_office';
UPDATE bookings SET confirmed_at = created_at WHERE confirmed_at IS NULL AND ticket_code <> '';

-- The sales report reads the bookings confirmed, and those refunded, in a
-- range of instants.
CREATE INDEX bookings_confirmed ON bookings (confirmed_at) WHERE confirmed_at IS NOT NULL;
CREATE INDEX bookings_refunded ON bookings (refunded_at) WHERE refunded_at IS NOT NULL;
