-- 0023_callback_outbox_prune: the sandbox's callbacks delivered or given
-- up, by when, so that Prune finds those older than RETENTION.
CREATE INDEX callback_outbox_done ON callback_outbox (coalesce(delivered_at, gave_up_at))
	WHERE delivered_at IS NOT NULL OR gave_up_at IS NOT NULL;
