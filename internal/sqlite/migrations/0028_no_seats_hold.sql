-- 0028_no_seats_hold: no index of the seats' hold. Every lock and release
-- of a seat wrote seats_hold (an entry in, an entry out); the statements
-- that used it find a hold's seats by their primary key instead, among the
-- seat ids the hold was made with (holds.seat_ids): a hold locks no other
-- seats. Counting a show's locked seats (deleting a show) reads its seats.
DROP INDEX seats_hold;
