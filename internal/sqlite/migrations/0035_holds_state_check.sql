-- 0035_holds_state_check: holds.state's CHECK as a chain of equalities, as
-- 0030 made seats.status's: SQLite checks an IN list of three constants or
-- more through a temporary b-tree, opened again for every row written, and
-- every hold inserts one hold and marks the one it replaces (7-9 µs a
-- replacing hold, docs/PERFORMANCE.md; TestHoldWriteBuildsNoListPerRow).
--
-- A CHECK constraint cannot be altered, so the table is rebuilt. payments
-- and bookings refer to holds, and the foreign keys are on (they cannot be
-- turned off inside the migration's transaction): defer_foreign_keys lets
-- the drop leave their rows without a hold until the commit, which checks
-- them. The holds are copied aside, the table dropped (each payment and
-- booking of a hold counts as a violation), made again and filled from the
-- copy (each hold inserted resolves the violations of the rows that refer
-- to it): at the commit none is left, or the migration fails and nothing
-- changes. The copy goes, and the indexes are made again.
PRAGMA defer_foreign_keys = ON;

CREATE TABLE holds_copy AS SELECT id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter FROM holds;

DROP TABLE holds;

CREATE TABLE holds (
    id         TEXT    PRIMARY KEY,
    show_id    TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    seat_ids   TEXT    NOT NULL, -- comma-separated, sorted as a person reads them
    amount     INTEGER NOT NULL,
    currency   TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    state      TEXT    NOT NULL
               CHECK (state = 'active' OR state = 'released' OR state = 'replaced' OR state = 'completed'),
    address    TEXT    NOT NULL DEFAULT '',
    extensions INTEGER NOT NULL DEFAULT 0,
    counter    INTEGER NOT NULL DEFAULT 0 -- made at the box office (0032_box_office)
) WITHOUT ROWID;

INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter)
SELECT id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter
FROM holds_copy;

DROP TABLE holds_copy;

CREATE INDEX holds_address ON holds (show_id, address, created_at) WHERE state = 'active' AND address <> '';
CREATE INDEX holds_active_owner ON holds (show_id, owner, created_at) WHERE state = 'active';
