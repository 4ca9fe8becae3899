-- 0032_box_office: sales at the counter (SPEC §16). A booking's channel
-- (existing bookings were all sold online), the staff account that sold
-- it, the method (cash, card, comp), the card terminal's reference, the
-- comp's reason and how a counter refund gave the money back; a
-- payment's provider ('box_office' at the counter, '' for the provider
-- the process is configured with) and method; and whether a hold was
-- made at the counter.
ALTER TABLE bookings ADD COLUMN channel TEXT NOT NULL DEFAULT 'online'
    CHECK (channel = 'online' OR channel = 'box_office');
ALTER TABLE bookings ADD COLUMN sold_by TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN method TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN card_ref TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN comp_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN refund_method TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN provider TEXT NOT NULL DEFAULT '';
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT '';
ALTER TABLE holds ADD COLUMN counter INTEGER NOT NULL DEFAULT 0;

-- A cash-up reads a day's box-office sales and refunds.
CREATE INDEX bookings_box_office_sold ON bookings (created_at) WHERE channel = 'box_office';
CREATE INDEX bookings_box_office_refunded ON bookings (refunded_at) WHERE channel = 'box_office';
