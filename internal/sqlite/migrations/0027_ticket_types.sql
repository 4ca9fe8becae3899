-- 0027_ticket_types: ticket types and price cards (SPEC §15). A theatre's
-- types in the order its admin sets (position); its price cards, each a
-- table of a price per seat category × type (a cell not stored is not
-- offered). A show copies its theatre's types and its card's table when it
-- is made (show_types, show_prices); a show without rows there sells the
-- implicit type standard at its seats' prices, as every show made before.
-- A theatre's tax rate and a movie's rental terms (SPEC §17) are kept
-- beside them, set by their own steps, not by the catalog's forms.
CREATE TABLE ticket_types (
    theatre_id  TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    note        TEXT    NOT NULL DEFAULT '',
    door_check  INTEGER NOT NULL DEFAULT 0,
    accompanied INTEGER NOT NULL DEFAULT 0,
    online      INTEGER NOT NULL,
    box_office  INTEGER NOT NULL,
    PRIMARY KEY (theatre_id, id)
) WITHOUT ROWID;

CREATE TABLE price_cards (
    id         TEXT PRIMARY KEY,
    theatre_id TEXT NOT NULL,
    name       TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX price_cards_theatre ON price_cards (theatre_id, name);

CREATE TABLE price_card_cells (
    card_id  TEXT    NOT NULL,
    position INTEGER NOT NULL,
    category TEXT    NOT NULL,
    type_id  TEXT    NOT NULL,
    price    INTEGER NOT NULL,
    PRIMARY KEY (card_id, category, type_id)
) WITHOUT ROWID;

CREATE TABLE show_types (
    show_id     TEXT    NOT NULL,
    theatre_id  TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    note        TEXT    NOT NULL DEFAULT '',
    door_check  INTEGER NOT NULL DEFAULT 0,
    accompanied INTEGER NOT NULL DEFAULT 0,
    online      INTEGER NOT NULL,
    box_office  INTEGER NOT NULL,
    PRIMARY KEY (show_id, id)
) WITHOUT ROWID;
-- Deleting a theatre's type asks whether a show copied it.
CREATE INDEX show_types_theatre ON show_types (theatre_id, id);

CREATE TABLE show_prices (
    show_id  TEXT    NOT NULL,
    position INTEGER NOT NULL,
    category TEXT    NOT NULL,
    type_id  TEXT    NOT NULL,
    price    INTEGER NOT NULL,
    PRIMARY KEY (show_id, category, type_id)
) WITHOUT ROWID;

ALTER TABLE theatres ADD COLUMN tax_rate INTEGER NOT NULL DEFAULT 0;
ALTER TABLE movies ADD COLUMN rent TEXT NOT NULL DEFAULT '';
