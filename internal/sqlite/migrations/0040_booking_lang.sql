-- 0040_booking_lang: a booking remembers the language of its Pay (a
-- counter sale: the counter page's), and its mails use it (SPEC §19).
-- Existing bookings get DEFAULT_LANG, which this file cannot know: the
-- column starts '' and Migrate gives every booking that has '' the
-- language the store was opened with (sqlite.DefaultLang), at every
-- start, so bookings a process of an older release makes during a
-- rolling deploy get it too. The partial index keeps that look cheap
-- once none is left.
ALTER TABLE bookings ADD COLUMN lang TEXT NOT NULL DEFAULT '';
CREATE INDEX bookings_no_lang ON bookings (id) WHERE lang = '';
