-- 0022_callback_outbox: the sandbox's callbacks (SPEC §6), one per
-- payment whose outcome was chosen on its checkout page: recorded with the
-- choice, and delivered afterwards by whichever process claims it, so
-- that a crash loses no callback. It is also what a lookup of the payment
-- answers.
CREATE TABLE callback_outbox (
    payment_id    TEXT    PRIMARY KEY,
    event_id      TEXT    NOT NULL,
    type          TEXT    NOT NULL,
    body          BLOB    NOT NULL,
    created_at    INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_at       INTEGER NOT NULL,
    claimed_until INTEGER,
    delivered_at  INTEGER,
    gave_up_at    INTEGER,
    last_error    TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- What is still to deliver, by when it is due: the deliverer's reads and
-- claims.
CREATE INDEX callback_outbox_due ON callback_outbox (next_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;
