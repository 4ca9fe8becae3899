-- 0012_mail: where a booking's tickets are mailed, the key of its link,
-- and the outbox of mails to send (SPEC §11). A mail is written in the
-- transaction of the change it tells of and sent afterwards by whichever
-- process claims it.
ALTER TABLE bookings ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN access_key TEXT NOT NULL DEFAULT '';

CREATE TABLE mail (
    id            TEXT    PRIMARY KEY,
    kind          TEXT    NOT NULL,
    booking_id    TEXT    NOT NULL,
    recipient     TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_at       INTEGER NOT NULL,
    claimed_until INTEGER,
    sent_at       INTEGER,
    gave_up_at    INTEGER,
    last_error    TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

-- What is still to send, by when it is due: the sender's reads and claims.
CREATE INDEX mail_due ON mail (next_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;
