-- 0036_bookings_report_trigger: the sums of 0034_reports for bookings that
-- a process of an older release inserts after 0034 has run (a rolling
-- deploy, a rollback: it goes on inserting bookings at Pay and Sell without
-- them, and the film report would count them as 0).
--
-- A booking always has a seat, so this release always inserts admissions
-- or comps above 0: both 0 is an older release's insert, which gets its
-- sums as 0034 gave the bookings before it (from its tickets, else its
-- amount shared over its seats; tax 0, since an older release fixes no
-- seat's rate).
CREATE TRIGGER bookings_report_sums AFTER INSERT ON bookings
WHEN NEW.admissions = 0 AND NEW.comps = 0
BEGIN
    UPDATE bookings SET
        admissions = (SELECT count(*) FROM json_each(bookings.tickets) WHERE json_extract(value, '$.price') <> 0),
        comps      = (SELECT count(*) FROM json_each(bookings.tickets) WHERE json_extract(value, '$.price') = 0),
        gross      = (SELECT coalesce(sum(json_extract(value, '$.price')), 0) FROM json_each(bookings.tickets))
    WHERE id = NEW.id AND tickets <> '';

    UPDATE bookings SET
        admissions = min(amount, length(seat_ids) - length(replace(seat_ids, ',', '')) + 1),
        comps      = max(0, length(seat_ids) - length(replace(seat_ids, ',', '')) + 1 - amount),
        gross      = amount
    WHERE id = NEW.id AND tickets = '' AND seat_ids <> '';
END;
