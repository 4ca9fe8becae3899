-- 0019_holds_active_owner: a session's previous hold for a show is its
-- most recent hold of that show still active, whatever its seats are now
-- (SPEC §2), so a hold finds it by owner rather than through the seats it
-- locks (0005): one whose lock lapsed and lost every seat may still have a
-- payment pending, and a new hold must then be refused. Only active holds
-- are in the index; a hold leaves it when it is replaced, released or
-- completed.
CREATE INDEX holds_active_owner ON holds (show_id, owner, created_at) WHERE state = 'active';
