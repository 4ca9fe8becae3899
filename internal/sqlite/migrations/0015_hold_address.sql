-- 0015_hold_address: the client address a hold came from, so that the
-- seats held live from one address in one show can be capped
-- (HOLD_SEATS_PER_ADDRESS). holds_address finds an address's holds of a
-- show that may still lock seats: active, and made after the seat rule's
-- cutoff (a hold's seats are locked when it is made).
ALTER TABLE holds ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX holds_address ON holds (show_id, address, created_at) WHERE state = 'active' AND address <> '';
