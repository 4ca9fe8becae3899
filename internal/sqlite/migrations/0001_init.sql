-- 0001_init: the whole schema of boxoffice.
--
-- Every time is an INTEGER of unix nanoseconds, so that SQL comparisons
-- (the seat rule's locked_at <= cutoff) and Go's agree to the nanosecond.
-- Tables keyed by a text id are WITHOUT ROWID: the primary key is then the
-- table's only b-tree, so a write touches one tree instead of two.

CREATE TABLE shows (
    id                TEXT PRIMARY KEY,
    movie_id          TEXT    NOT NULL DEFAULT '',
    movie_title       TEXT    NOT NULL DEFAULT '',
    movie_rating      TEXT    NOT NULL DEFAULT '',
    movie_runtime_min INTEGER NOT NULL DEFAULT 0,
    movie_language    TEXT    NOT NULL DEFAULT '',
    theatre_id        TEXT    NOT NULL DEFAULT '',
    theatre_name      TEXT    NOT NULL DEFAULT '',
    theatre_city      TEXT    NOT NULL DEFAULT '',
    screen            TEXT    NOT NULL DEFAULT '',
    starts_at         INTEGER,
    currency          TEXT    NOT NULL
) WITHOUT ROWID;

CREATE INDEX shows_starts_at ON shows (starts_at, id);

-- seats is the hot table: a hold is one UPDATE of a few rows found by the
-- primary key (show_id, seat_id). There is deliberately no foreign key from
-- hold_id to holds: the seats are locked before the hold row is written, in
-- the same transaction.
CREATE TABLE seats (
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
               CHECK (status IN ('available', 'locked', 'booked')),
    hold_id    TEXT,
    locked_at  INTEGER,
    booking_id TEXT,
    PRIMARY KEY (show_id, seat_id)
) WITHOUT ROWID;

-- Releasing a hold finds its seats by (show_id, hold_id). Partial: only
-- locked seats are in it, so seeding writes no entries, the index stays
-- small, and locking a free seat inserts one entry without deleting another.
-- A query term hold_id = ? implies hold_id IS NOT NULL, so it is usable.
CREATE INDEX seats_hold ON seats (show_id, hold_id) WHERE hold_id IS NOT NULL;

-- holds.show_id has no foreign key: a hold is inserted by INSERT … SELECT
-- FROM shows, which cannot name a missing show, and the check cost the hold
-- ~10 µs.
CREATE TABLE holds (
    id         TEXT    PRIMARY KEY,
    show_id    TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    seat_ids   TEXT    NOT NULL, -- comma-separated, sorted as a person reads them
    amount     INTEGER NOT NULL,
    currency   TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    state      TEXT    NOT NULL
               CHECK (state IN ('active', 'released', 'replaced', 'completed'))
) WITHOUT ROWID;

-- A session's active hold for a show is looked up on every hold and seat map.
CREATE INDEX holds_owner ON holds (show_id, owner, state);

CREATE TABLE payments (
    id         TEXT    PRIMARY KEY,
    hold_id    TEXT    NOT NULL REFERENCES holds (id),
    booking_id TEXT    NOT NULL,
    owner      TEXT    NOT NULL,
    amount     INTEGER NOT NULL,
    currency   TEXT    NOT NULL,
    state      TEXT    NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
    created_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX payments_hold ON payments (hold_id, state);

CREATE TABLE bookings (
    id          TEXT    PRIMARY KEY,
    hold_id     TEXT    NOT NULL REFERENCES holds (id),
    payment_id  TEXT    NOT NULL REFERENCES payments (id),
    owner       TEXT    NOT NULL,
    show_id     TEXT    NOT NULL REFERENCES shows (id),
    seat_ids    TEXT    NOT NULL,
    amount      INTEGER NOT NULL,
    currency    TEXT    NOT NULL,
    state       TEXT    NOT NULL
                CHECK (state IN ('pending', 'confirmed', 'failed', 'refund_due')),
    ticket_code TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- Each provider event takes effect at most once: its id is recorded here in
-- the transaction that applies its effect.
CREATE TABLE payment_events (
    id          TEXT    PRIMARY KEY,
    payment_id  TEXT    NOT NULL,
    type        TEXT    NOT NULL,
    effect      TEXT    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT '',
    received_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX payment_events_payment ON payment_events (payment_id);

-- Sessions of alexedwards/scs. A rowid table: session data can be large.
CREATE TABLE sessions (
    token  TEXT    PRIMARY KEY,
    data   BLOB    NOT NULL,
    expiry INTEGER NOT NULL
);

CREATE INDEX sessions_expiry ON sessions (expiry);
