-- 0021_deleted_shows: the ids of deleted shows. DeleteShow records the
-- id in the step that deletes the show, and CreateShow refuses an id
-- found here, so that a demo show an admin deleted is not added again by
-- the next refresh of the demo's schedule, whose ids are derived (SPEC
-- §10). One short row per deleted show.
CREATE TABLE deleted_shows (
	id TEXT PRIMARY KEY
) WITHOUT ROWID;
