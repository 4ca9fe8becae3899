-- 0006_checks_without_lists: nothing.
--
-- Files migrated by an earlier release of 0006 had the CHECK constraints of
-- seats.status and holds.state rewritten in sqlite_schema from IN (…) to
-- chains of equalities, to save a few microseconds per hold. They accept
-- and refuse exactly the same values, so those files stay as they are, and
-- every other file keeps 0001's constraints: a production file is never
-- edited that way (TestChecksOfEveryRelease opens both kinds).
SELECT 1;
