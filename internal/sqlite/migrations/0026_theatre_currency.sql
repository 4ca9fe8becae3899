-- 0026_theatre_currency: a theatre prices its shows in its currency (SPEC
-- §10), which a show copies when it is made. A theatre made before has the
-- currency of its shows (of its latest one, should they differ), or INR,
-- the only currency shows were made in, when it has none.
ALTER TABLE theatres ADD COLUMN currency TEXT NOT NULL DEFAULT 'INR';

UPDATE theatres SET currency = (
    SELECT shows.currency FROM shows
    WHERE shows.theatre_id = theatres.id AND shows.currency <> ''
    ORDER BY shows.starts_at DESC LIMIT 1)
WHERE EXISTS (
    SELECT 1 FROM shows WHERE shows.theatre_id = theatres.id AND shows.currency <> '');
