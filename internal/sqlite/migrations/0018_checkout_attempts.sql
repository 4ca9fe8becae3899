-- 0018_checkout_attempts: Pay may open more than one checkout for a payment
-- (SPEC §9): checkout_attempt numbers them (0: none yet) and moves on by
-- compare-and-set before a checkout is created; checkout_expires_at (Unix
-- ns) is when the current attempt's checkout expires at the provider.
-- checkout_ref and checkout_closed_at now describe the last checkout made.
ALTER TABLE payments ADD COLUMN checkout_attempt INTEGER NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN checkout_expires_at INTEGER;
