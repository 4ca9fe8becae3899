-- 0005_holds_by_seat: a session's hold for a show is found through the
-- seats it locks, so that a hold writes its own row and nothing else about
-- itself.
--
-- Before, every hold also wrote an entry of holds_owner (show_id, owner,
-- state), on a random page of an index that grows with every hold ever
-- made. Now a locked seat carries its hold's owner, and seats_hold, which
-- every lock writes anyway, is keyed by (show_id, hold_owner, hold_id): the
-- seats a session locks in a show are one range of it. Only locked seats
-- are in it (a booked seat leaves it), so seeding writes no entries. It
-- carries the price too, so that a hold's amount is summed from the index
-- alone (measured: 5 % of a hold).
--
-- Hold ids now begin with their time (booking.NewHoldID), so the holds
-- table grows at one end. Ids made before keep working.
--
-- Stop every process of an older boxoffice before this runs: their hold
-- statement names seats_hold in a form the new index cannot serve, so
-- every hold they try fails. (From this version on, a store refuses to
-- open a file whose schema is newer than it knows.)
ALTER TABLE seats ADD COLUMN hold_owner TEXT;

UPDATE seats SET hold_owner = (SELECT owner FROM holds WHERE holds.id = seats.hold_id)
WHERE status = 'locked';

DROP INDEX seats_hold;
CREATE INDEX seats_hold ON seats (show_id, hold_owner, hold_id, price) WHERE status = 'locked';

DROP INDEX holds_owner;
