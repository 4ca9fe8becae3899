-- 0025_queue_positions: a queue entry's position is stored once numbered
-- (booking.NumberQueueStep), so that reading it is one point read instead
-- of a count of the entries before it. An on-sale keeps how many entries
-- are numbered and whether those who joined before T0 all are. Entries
-- stored before this migration are numbered like any other (NULL: not
-- yet). The counts' indexes give way to partial indexes of the unnumbered
-- entries in each order, which numbering reads from the front, and a
-- unique index that makes two entries of one queue with one position
-- impossible.
ALTER TABLE queue_entries ADD COLUMN position INTEGER;
ALTER TABLE onsales ADD COLUMN numbered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE onsales ADD COLUMN early_numbered INTEGER NOT NULL DEFAULT 0; -- 1: every entry from before T0 is numbered

DROP INDEX queue_by_rank;
DROP INDEX queue_by_time;
CREATE INDEX queue_unnumbered_rank ON queue_entries (onsale_id, before_open, rank, join_id) WHERE position IS NULL;
CREATE INDEX queue_unnumbered_time ON queue_entries (onsale_id, joined_at, join_id) WHERE position IS NULL;
CREATE UNIQUE INDEX queue_position ON queue_entries (onsale_id, position) WHERE position IS NOT NULL;
