-- 0002_ratelimit: counters of the fixed-window rate limiter (HOLD_RATE,
-- SPEC §8), in the database so that every process counts against one total.
--
-- A row is one key's current window: it starts at window_start, ends at
-- window_end (unix nanoseconds, like every time here) and has seen count
-- events. The end is stored, not derived from a window length, so that an
-- expired row is recognised without knowing which limit wrote it.

CREATE TABLE rate_limits (
    key          TEXT    PRIMARY KEY,
    window_start INTEGER NOT NULL,
    window_end   INTEGER NOT NULL,
    count        INTEGER NOT NULL
) WITHOUT ROWID;

-- The sweep finds expired windows without walking the table. Only a new
-- window changes window_end, so counting within one touches no index entry.
CREATE INDEX rate_limits_end ON rate_limits (window_end);
