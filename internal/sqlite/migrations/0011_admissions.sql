-- 0011_admissions: when and by whom a ticket was admitted at the door.
-- The door finds a booking by its ticket code through bookings_ticket_code.
ALTER TABLE bookings ADD COLUMN admitted_at INTEGER;
ALTER TABLE bookings ADD COLUMN admitted_by TEXT NOT NULL DEFAULT '';
