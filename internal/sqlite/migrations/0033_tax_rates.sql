-- 0033_tax_rates: a theatre's second tax rate, on prices above tax_above
-- (SPEC §17; 0: none). Each seat's rate is fixed when it is sold and kept
-- in its ticket ("rate" in the tickets column of 0029_seat_tickets;
-- seats sold before have none, which is 0).
ALTER TABLE theatres ADD COLUMN tax_above INTEGER NOT NULL DEFAULT 0;
ALTER TABLE theatres ADD COLUMN tax_rate_above INTEGER NOT NULL DEFAULT 0;
