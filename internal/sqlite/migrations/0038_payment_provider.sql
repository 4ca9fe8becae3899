-- 0038_payment_provider: every payment names its provider (SPEC §15,
-- existing data). Online payments were stored with provider '' (the
-- provider the process was configured with); Pay now records 'stripe' or
-- 'sandbox'. An older payment's is told by its checkout reference: a
-- Stripe Checkout Session's id starts with 'cs_' (cs_test_…, cs_live_…);
-- the sandbox records none. A payment a process of an older release
-- makes after this ran has '' again: readers take '' as the configured
-- provider for those. So does a payment still pending without a checkout
-- reference: a Stripe one gets its session's id only after it is stored,
-- so it cannot be told from a sandbox one yet.
UPDATE payments SET provider = CASE
        WHEN substr(checkout_ref, 1, 3) = 'cs_' THEN 'stripe'
        ELSE 'sandbox'
    END
WHERE provider = '' AND NOT (state = 'pending' AND coalesce(checkout_ref, '') = '');
