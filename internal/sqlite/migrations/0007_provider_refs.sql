-- 0007_provider_refs: what a real payment provider needs remembered.
--
-- Stop processes running an older boxoffice before this migrates a file:
-- they would write bookings marked refunded the old way (refund_due with
-- refunded_at), which this binary counts as still due.
--
-- payments: the provider's id of the checkout (a Stripe Checkout Session)
-- and of the money taken (a PaymentIntent), when boxoffice closed the
-- checkout because its hold ended, and when it last asked the provider
-- about the payment because it stayed pending.
ALTER TABLE payments ADD COLUMN checkout_ref TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN checkout_closed_at INTEGER;
ALTER TABLE payments ADD COLUMN charge_ref TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN looked_up_at INTEGER;

-- The checkouts that may still need closing: pending payments with an open
-- checkout. Partial, so settled payments leave it.
CREATE INDEX payments_open_checkouts ON payments (created_at, id)
    WHERE state = 'pending' AND checkout_ref <> '' AND checkout_closed_at IS NULL;

-- bookings gains the state refunded and the provider's refund id. A CHECK
-- constraint cannot be altered, so the table is rebuilt the way SQLite
-- documents (https://sqlite.org/lang_altertable.html, "other kinds of
-- table schema changes"): a new table, the rows copied, the old one
-- dropped, the new one renamed, its indexes made again. No table refers
-- to bookings, so the foreign keys (on) are not disturbed. A booking that
-- 0003 marked refunded (refund_due with refunded_at) becomes refunded.
-- The CHECK lists its states with IN: 0006 chained equalities for seats and
-- holds, written on every hold, while a booking is written a few times in
-- its life, where the list costs nothing measurable.
CREATE TABLE bookings_new (
    id          TEXT    PRIMARY KEY,
    hold_id     TEXT    NOT NULL REFERENCES holds (id),
    payment_id  TEXT    NOT NULL REFERENCES payments (id),
    owner       TEXT    NOT NULL,
    show_id     TEXT    NOT NULL REFERENCES shows (id),
    seat_ids    TEXT    NOT NULL,
    amount      INTEGER NOT NULL,
    currency    TEXT    NOT NULL,
    state       TEXT    NOT NULL
                CHECK (state IN ('pending', 'confirmed', 'failed', 'refund_due', 'refunded')),
    ticket_code TEXT    NOT NULL DEFAULT '',
    reason      TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    refunded_at INTEGER,
    refunded_by TEXT    NOT NULL DEFAULT '',
    refund_id   TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

INSERT INTO bookings_new (id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency, state,
                          ticket_code, reason, created_at, updated_at, refunded_at, refunded_by)
SELECT id, hold_id, payment_id, owner, show_id, seat_ids, amount, currency,
       CASE WHEN state = 'refund_due' AND refunded_at IS NOT NULL THEN 'refunded' ELSE state END,
       ticket_code, reason, created_at, updated_at, refunded_at, refunded_by
FROM bookings;

DROP TABLE bookings;
ALTER TABLE bookings_new RENAME TO bookings;

CREATE INDEX bookings_show ON bookings (show_id, state);
CREATE UNIQUE INDEX bookings_ticket_code ON bookings (ticket_code) WHERE ticket_code <> '';
