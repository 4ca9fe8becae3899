-- 0041_reason_codes: the reasons stored on bookings and payment events
-- (why a booking failed or is due a refund) are codes with arguments, read
-- in each page's language (SPEC §19; booking.ParseReason documents the
-- form). The English texts stored before become their codes, as
-- booking.LegacyReason converts them (MongoDB's conversion
-- 0041_reason_codes calls it):
--
--   * the exact texts of show_cancelled, payment_declined,
--     checkout_expired and payment_replaced;
--   * a late payment's seats ("… on seat A1 had ended, …", "… on seats
--     A1, A2 had ended, …"): seats_taken with their count;
--   * any of those, an empty reason or any other text followed by a failed
--     refund's note (" (A refund failed at the payment provider: WHY; it
--     is due again.)"): the reason's code, or text?text=…, then
--     ;refund_failed?provider_reason=WHY.
--
-- Any other text (an amount mismatch's, whose amounts were stored
-- formatted, or a callback log's note) stays as it is, and reads as it
-- is. A value is escaped as the parser needs it: "%", "+", "&", ";" and
-- "=" as %XX, a space as "+"; other characters as they are, which
-- net/url's QueryUnescape reads the same as its own escaping. A reason a
-- process of an older release stores after this ran is English again, and
-- is read through booking.LegacyReason.
CREATE TEMP TABLE reason_codes (
    old  TEXT PRIMARY KEY,
    base TEXT,    -- old without a failed refund's note
    why  TEXT,    -- the note's provider reason, or NULL without one
    new  TEXT     -- the stored code, or NULL to leave old as it is
);

INSERT INTO reason_codes (old)
SELECT reason FROM bookings WHERE reason <> ''
UNION
SELECT reason FROM payment_events WHERE reason <> '';

-- A failed refund's note at the end.
UPDATE reason_codes SET
    base = substr(old, 1, instr(old, ' (A refund failed at the payment provider: ') - 1),
    why  = substr(old,
                  instr(old, ' (A refund failed at the payment provider: ') + length(' (A refund failed at the payment provider: '),
                  length(old) - (instr(old, ' (A refund failed at the payment provider: ') - 1)
                      - length(' (A refund failed at the payment provider: ') - length('; it is due again.)'))
WHERE instr(old, ' (A refund failed at the payment provider: ') > 0
  AND length(old) >= instr(old, ' (A refund failed at the payment provider: ') - 1
                     + length(' (A refund failed at the payment provider: ') + length('; it is due again.)')
  AND substr(old, -length('; it is due again.)')) = '; it is due again.)';
UPDATE reason_codes SET base = old WHERE why IS NULL;

-- The reason the note was added to, or the whole reason.
UPDATE reason_codes SET new = CASE base
        WHEN 'show cancelled' THEN 'show_cancelled'
        WHEN 'The payment was declined.' THEN 'payment_declined'
        WHEN 'Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged.' THEN 'checkout_expired'
        WHEN 'Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it.' THEN 'payment_replaced'
    END
WHERE base IN (
    'show cancelled',
    'The payment was declined.',
    'Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged.',
    'Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it.');

-- A late payment's seats: the part between the two fixed texts.
UPDATE reason_codes SET new = 'seats_taken?count=1&seats=' || replace(replace(replace(replace(replace(replace(
        substr(base, length('Your payment arrived after your hold on seat ') + 1,
               length(base) - length('Your payment arrived after your hold on seat ')
                   - length(' had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.')),
        '%', '%25'), '+', '%2B'), '&', '%26'), ';', '%3B'), '=', '%3D'), ' ', '+')
WHERE new IS NULL
  AND substr(base, 1, length('Your payment arrived after your hold on seat ')) = 'Your payment arrived after your hold on seat '
  AND substr(base, -length(' had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.'))
      = ' had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.'
  AND length(base) > length('Your payment arrived after your hold on seat ')
      + length(' had ended, and by then it was no longer free. Nothing was booked; your money will be refunded.');

-- Its count is one more than the ", " between the seats: the number of
-- ", " in the whole text, as the fixed end has one ("had ended, and").
UPDATE reason_codes SET new = 'seats_taken?count=' || ((length(base) - length(replace(base, ', ', ''))) / 2)
        || '&seats=' || replace(replace(replace(replace(replace(replace(
        substr(base, length('Your payment arrived after your hold on seats ') + 1,
               length(base) - length('Your payment arrived after your hold on seats ')
                   - length(' had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.')),
        '%', '%25'), '+', '%2B'), '&', '%26'), ';', '%3B'), '=', '%3D'), ' ', '+')
WHERE new IS NULL
  AND substr(base, 1, length('Your payment arrived after your hold on seats ')) = 'Your payment arrived after your hold on seats '
  AND substr(base, -length(' had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.'))
      = ' had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.'
  AND length(base) > length('Your payment arrived after your hold on seats ')
      + length(' had ended, and by then they were no longer free. Nothing was booked; your money will be refunded.');

-- Other text a refund failure was added to is kept as text.
UPDATE reason_codes SET new = 'text?text=' || replace(replace(replace(replace(replace(replace(
        base, '%', '%25'), '+', '%2B'), '&', '%26'), ';', '%3B'), '=', '%3D'), ' ', '+')
WHERE new IS NULL AND why IS NOT NULL AND base <> '';

UPDATE reason_codes SET new = CASE WHEN base = '' THEN '' ELSE new || ';' END
        || 'refund_failed?provider_reason=' || replace(replace(replace(replace(replace(replace(
        why, '%', '%25'), '+', '%2B'), '&', '%26'), ';', '%3B'), '=', '%3D'), ' ', '+')
WHERE why IS NOT NULL;

UPDATE bookings SET reason = (SELECT new FROM reason_codes WHERE old = bookings.reason)
WHERE reason IN (SELECT old FROM reason_codes WHERE new IS NOT NULL);
UPDATE payment_events SET reason = (SELECT new FROM reason_codes WHERE old = payment_events.reason)
WHERE reason IN (SELECT old FROM reason_codes WHERE new IS NOT NULL);

DROP TABLE reason_codes;
