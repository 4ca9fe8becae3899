-- 0008_cancelled_shows: an admin can cancel a show (SPEC §10). NULL while
-- it runs; the home page leaves cancelled shows out, and no seat of one is
-- sold.
ALTER TABLE shows ADD COLUMN cancelled_at INTEGER;
