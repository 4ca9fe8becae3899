-- 0014_prune: what Prune (RETENTION, SPEC §12) needs to find history
-- older than the cutoff one small batch at a time, without walking a
-- whole table while it holds the write lock.
--
-- Each of these tables is written once per callback, settled event or
-- mail, never on a hold, so the entries cost nothing a visitor waits for.
CREATE INDEX payment_callbacks_received ON payment_callbacks (received_at);
CREATE INDEX payment_events_received ON payment_events (received_at);

-- Mail that is done, by when: sent, or given up. Partial, so that mail
-- still to send has no entry (mail_due has those).
CREATE INDEX mail_done ON mail (coalesce(sent_at, gave_up_at))
    WHERE sent_at IS NOT NULL OR gave_up_at IS NOT NULL;

-- Deleting a hold makes SQLite look for bookings that refer to it (the
-- foreign key bookings.hold_id): without an index, a walk of every
-- booking for each hold deleted. payments.hold_id has payments_hold.
CREATE INDEX bookings_hold ON bookings (hold_id);
