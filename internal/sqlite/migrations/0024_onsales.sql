-- 0024_onsales: the waiting room of SPEC §18. A show's sales opening
-- (SPEC §10), which an on-sale sets to its T0; the on-sales, the shows each
-- covers, and their queues: one row a join, ordered by rank (those who
-- joined before T0) or by when they joined, each order one index so that a
-- position is one count.
ALTER TABLE shows ADD COLUMN sales_open_at INTEGER;

CREATE TABLE onsales (
	id         TEXT    PRIMARY KEY,
	name       TEXT    NOT NULL,
	opens_at   INTEGER NOT NULL,
	closes_at  INTEGER NOT NULL,
	pass_ttl   INTEGER NOT NULL,
	key        BLOB    NOT NULL,
	segments   TEXT    NOT NULL, -- JSON: [{"from":ns,"rate":n,"paused":bool}]
	closed_at  INTEGER,
	created_at INTEGER NOT NULL
);
CREATE INDEX onsales_closes ON onsales (closes_at);

CREATE TABLE onsale_shows (
	onsale_id TEXT NOT NULL REFERENCES onsales (id) ON DELETE CASCADE,
	show_id   TEXT NOT NULL,
	PRIMARY KEY (onsale_id, show_id)
) WITHOUT ROWID;
CREATE INDEX onsale_shows_show ON onsale_shows (show_id);

CREATE TABLE queue_entries (
	onsale_id   TEXT    NOT NULL,
	join_id     TEXT    NOT NULL,
	joined_at   INTEGER NOT NULL,
	before_open INTEGER NOT NULL, -- 1: joined before T0
	rank        TEXT    NOT NULL,
	PRIMARY KEY (onsale_id, join_id)
) WITHOUT ROWID;
CREATE INDEX queue_by_rank ON queue_entries (onsale_id, before_open, rank, join_id);
CREATE INDEX queue_by_time ON queue_entries (onsale_id, before_open, joined_at, join_id);
