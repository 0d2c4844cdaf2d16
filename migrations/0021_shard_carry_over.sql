-- The D1 shards (src/config/d1-shards.ts, docs/scale.md).
-- 1. The carry-over of a one-database state into the shards (src/config/d1-carry-over.ts) records here, in the
--    control database, the shard count it finished for: later runs (every `npm start`, the admin command) then
--    stop after one read. Every database gets the table; only DB's is written.
CREATE TABLE d1_carry_over (
  shards      INTEGER PRIMARY KEY,  -- D1_SHARDS the tenants' rows were carried over into
  finished_at INTEGER NOT NULL      -- epoch ms
);

-- 2. The sweeper's stalled evaluations (src/evaluations/job-rows.ts `findStalled`) without reading the items
--    a batch's window has not handed over yet: the old (status, updated_at) index held every queued row, so
--    a 10,000-item batch cost each minute's sweep up to 10,000 row reads per shard to skip them. This one holds
--    only the rows the sweeper may re-kick as they are (outside a batch, admitted to a slot, or running); a
--    batch's handed-over items that wait for a slot are found through `evaluations_waiting_batch` instead.
--    Ended rows leave it, so it stays the size of what is in flight. It is keyed by creation, not `updated_at`:
--    the running mark and progress writes bump `updated_at`, and an index on it made each of those a second D1
--    row written; the sweeper sorts the in-flight rows it reads instead. It replaces `evaluations_open`
--    (migration 0020), which held the waiting batch items too.
DROP INDEX IF EXISTS evaluations_status_updated;
DROP INDEX IF EXISTS evaluations_open;
CREATE INDEX evaluations_stalled ON evaluations (created_at)
  WHERE status IN ('queued', 'running') AND (batch_id IS NULL OR slot_at IS NOT NULL OR status = 'running');
