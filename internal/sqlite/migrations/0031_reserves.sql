-- 0031_reserves: a seat's reserve (SPEC §16), stored beside its status: ''
-- (none: on sale online), 'house' (kept for the counter) or 'blocked'
-- (nobody's). The seat rule does not read it; "available online" does.
-- And a show's online cut-off: online holds stop while at most that many
-- seats are available online; 0 for none.
ALTER TABLE seats ADD COLUMN reserve TEXT NOT NULL DEFAULT ''
    -- Equalities, not an IN list: see 0030.
    CHECK (reserve = '' OR reserve = 'house' OR reserve = 'blocked');
ALTER TABLE shows ADD COLUMN online_cutoff INTEGER NOT NULL DEFAULT 0;
