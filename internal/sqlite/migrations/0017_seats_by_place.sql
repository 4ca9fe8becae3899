-- 0017_seats_by_place: a show's seats by their place on the map. The
-- no-single-gap check reads the rows a hold touches inside the hold's
-- transaction, and without this scanned every seat of the show; the seat
-- map reads them in this order. A hold's UPDATEs do not touch these
-- columns, so it costs holds nothing to keep.
CREATE INDEX seats_by_place ON seats (show_id, grid_row, grid_col);
