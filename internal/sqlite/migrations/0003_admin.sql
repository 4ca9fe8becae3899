-- 0003_admin: admin accounts, refund audit, the payment callback log, and
-- the indexes of the admin pages.

CREATE TABLE admins (
    id            TEXT    PRIMARY KEY,
    email         TEXT    NOT NULL UNIQUE, -- normalized: trimmed, lower case
    password_hash TEXT    NOT NULL,        -- bcrypt
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) WITHOUT ROWID;

-- A refund_due booking stays refund_due once refunded; these say who
-- recorded the refund and when.
ALTER TABLE bookings ADD COLUMN refunded_at INTEGER;
ALTER TABLE bookings ADD COLUMN refunded_by TEXT NOT NULL DEFAULT '';

-- The overview sums each show's confirmed bookings and counts its refunds
-- due; the show page lists its bookings.
CREATE INDEX bookings_show ON bookings (show_id, state);

-- The overview filtered by theatre.
CREATE INDEX shows_theatre ON shows (theatre_id, starts_at);

-- Every payment callback received, refused ones too. payment_id and
-- event_id are what the body claimed; they are not foreign keys, since a
-- refused callback may name a payment that does not exist.
CREATE TABLE payment_callbacks (
    id          TEXT    PRIMARY KEY,
    received_at INTEGER NOT NULL,
    signature   TEXT    NOT NULL CHECK (signature IN ('valid', 'invalid', 'unchecked')),
    event_id    TEXT    NOT NULL DEFAULT '',
    event_type  TEXT    NOT NULL DEFAULT '',
    payment_id  TEXT    NOT NULL DEFAULT '',
    status      INTEGER NOT NULL,
    outcome     TEXT    NOT NULL,
    duplicate   INTEGER NOT NULL DEFAULT 0,
    reason      TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

CREATE INDEX payment_callbacks_payment ON payment_callbacks (payment_id, received_at);
