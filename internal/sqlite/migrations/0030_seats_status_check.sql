-- 0030_seats_status_check: seats.status's CHECK as a chain of equalities.
--
-- SQLite checks x IN ('a', 'b', 'c') (three constants or more) by building
-- a temporary b-tree of the list, and in a CHECK constraint it builds it
-- again for every row written: every seat a hold locks, and every seat it
-- frees, opened and closed one. status = 'a' OR status = 'b' OR … accepts
-- and refuses exactly the same values with three comparisons. A hold that
-- replaces the previous one writes eight seats: the store step cost a fifth
-- less (BenchmarkStore/seats=1k/hold-replacing, docs/PERFORMANCE.md).
--
-- A CHECK constraint cannot be altered, and a production file is never
-- edited in sqlite_schema (0006), so the table is rebuilt the way SQLite
-- documents (https://sqlite.org/lang_altertable.html, "other kinds of
-- table schema changes"), as 0007 rebuilt bookings: a new table with the
-- same columns in the same order, the rows copied, the old one dropped,
-- the new one renamed, its index made again. No table refers to seats, so
-- the foreign keys (on) are not disturbed. It takes a few seconds on a
-- million seats, once. Files an earlier release of 0006 edited have the
-- chain already; they are rebuilt all the same.
--
-- holds.state keeps its IN list: payments and bookings refer to holds, and
-- with foreign keys on, dropping it inside the migration's transaction
-- would fail.
CREATE TABLE seats_new (
    show_id    TEXT    NOT NULL REFERENCES shows (id),
    seat_id    TEXT    NOT NULL,
    row_label  TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    grid_row   INTEGER NOT NULL,
    grid_col   INTEGER NOT NULL,
    category   TEXT    NOT NULL DEFAULT '',
    price      INTEGER NOT NULL,
    kind       TEXT    NOT NULL DEFAULT 'standard',
    status     TEXT    NOT NULL DEFAULT 'available'
               CHECK (status = 'available' OR status = 'locked' OR status = 'booked'),
    hold_id    TEXT,
    locked_at  INTEGER,
    booking_id TEXT,
    hold_owner TEXT,
    PRIMARY KEY (show_id, seat_id)
) WITHOUT ROWID;

INSERT INTO seats_new (show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind,
                       status, hold_id, locked_at, booking_id, hold_owner)
SELECT show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind,
       status, hold_id, locked_at, booking_id, hold_owner
FROM seats;

DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;

CREATE INDEX seats_by_place ON seats (show_id, grid_row, grid_col);
