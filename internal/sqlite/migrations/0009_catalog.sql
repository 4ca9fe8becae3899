-- 0009_catalog: what admins manage a cinema with (SPEC §10). A show keeps
-- copies of its theatre's, screen's and movie's names, so that its pages
-- read one row; saving one of those updates the copies in the same
-- transaction. A show's seats are copied from its screen's layout when it
-- is made, and do not follow later edits of the layout.
CREATE TABLE theatres (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    city       TEXT    NOT NULL,
    time_zone  TEXT    NOT NULL
) WITHOUT ROWID;

CREATE TABLE screens (
    id         TEXT    PRIMARY KEY,
    theatre_id TEXT    NOT NULL REFERENCES theatres (id),
    name       TEXT    NOT NULL,
    layout     TEXT    NOT NULL
) WITHOUT ROWID;

CREATE INDEX screens_theatre ON screens (theatre_id, name);

CREATE TABLE movies (
    id          TEXT    PRIMARY KEY,
    title       TEXT    NOT NULL,
    rating      TEXT    NOT NULL DEFAULT '',
    runtime_min INTEGER NOT NULL DEFAULT 0,
    language    TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;

ALTER TABLE shows ADD COLUMN screen_id TEXT NOT NULL DEFAULT '';
ALTER TABLE shows ADD COLUMN theatre_tz TEXT NOT NULL DEFAULT '';

-- Saving a movie or screen updates its shows' copies; deleting one asks
-- whether a show uses it.
CREATE INDEX shows_movie ON shows (movie_id);
CREATE INDEX shows_screen ON shows (screen_id);
