-- 0016_hold_extensions: how often a hold was given more time (at most
-- twice, booking.MaxExtensions); its created_at is then the last time, equal
-- to its seats' locked_at as before.
ALTER TABLE holds ADD COLUMN extensions INTEGER NOT NULL DEFAULT 0;
