-- Thinner evaluation rows (docs/scale.md): resolved method configs stored once, by hash. The config (about 2 KB
-- for a debate preset, 6 KB with long prompts) was repeated on every `evaluations` row. New rows keep the first
-- 32 hex characters of the sha-256 of its canonical JSON in `config_hash` and an empty `config`; `method_configs`
-- holds each config once. A batch budget's grant to an item, which was written into the item's config, is the
-- item's own `budget` column (JSON), laid over the config's `budget` where it is read
-- (src/evaluations/config-rows.ts). Rows written before keep their inline config and read as before
-- (`config_hash` NULL), so nothing has to move.
CREATE TABLE method_configs (
  hash       TEXT PRIMARY KEY,   -- 32 hex characters of the sha-256 of the config's canonical JSON
  config     TEXT NOT NULL,      -- the resolved method config (JSON)
  created_at INTEGER NOT NULL
) WITHOUT ROWID;

ALTER TABLE evaluations ADD COLUMN config_hash TEXT;
ALTER TABLE evaluations ADD COLUMN budget TEXT;

-- Open batches indexed by when they were created, not by `updated_at`: every item's ending bumps its batch's
-- `updated_at`, and with `updated_at` in the index each of those writes was a second D1 row. The sweeper's page
-- of stalled batches (src/batches/rows.ts, `stalledBatches`) still reads only the open ones, and sorts those.
DROP INDEX batches_open;
CREATE INDEX batches_open ON batches (created_at) WHERE completed_at IS NULL;

-- The sweeper's stalled evaluations (src/evaluations/job-rows.ts, `findStalled`) found through the rows not ended
-- (`finished_at` is set by every end), indexed by creation, instead of an index on (status, updated_at): the
-- running mark and every progress write changed that index too, one more D1 row each.
DROP INDEX evaluations_status_updated;
CREATE INDEX evaluations_open ON evaluations (created_at) WHERE finished_at IS NULL;
