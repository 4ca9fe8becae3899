-- 0029_seat_tickets: each seat of a payment and of a booking as sold, with
-- its ticket type and price (SPEC §15), as a JSON array of
-- {"seat","category","type","price"} in the hold's seat order; and when a
-- repeated Pay with another choice of types replaced a pending payment.
-- Existing bookings get the type standard for every seat at the price its
-- seat carries; payments made before types keep none and settle at their
-- stored amounts.
ALTER TABLE payments ADD COLUMN tickets TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN replaced_at INTEGER;
ALTER TABLE bookings ADD COLUMN tickets TEXT NOT NULL DEFAULT '';

UPDATE bookings SET tickets = coalesce((
    SELECT json_group_array(json_object('seat', seat_id, 'category', category, 'type', 'standard', 'price', price))
    FROM (SELECT s.seat_id, s.category, s.price
          FROM seats s
          WHERE s.show_id = bookings.show_id
            AND instr(',' || bookings.seat_ids || ',', ',' || s.seat_id || ',') > 0
          ORDER BY instr(',' || bookings.seat_ids || ',', ',' || s.seat_id || ','))
    HAVING count(*) > 0), '');
