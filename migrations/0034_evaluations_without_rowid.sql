-- `evaluations` as a `WITHOUT ROWID` table (docs/scale.md, "Fewer writes per verdict"): keyed by its `id`, so a new
-- row is one D1 row written fewer. A rowid table kept its primary key in an index of its own (`sqlite_autoindex`),
-- one more entry inserted with every row, where here the table's b-tree is that key. Worth it now that the task and the
-- verdict's JSON have left the row (migration 0030): a thin row (~600 B) fits a page with others, where a 3 KB one
-- would have spilled into overflow pages. Rows written before that keep an inline task and may spill, and read
-- the same.
--
-- SQLite cannot change a table to `WITHOUT ROWID` in place: the table is rebuilt with the same columns, in the same
-- order, and every row copied over, then its indexes are made again. D1 checks foreign keys, and four tables name
-- `evaluations (id)` (transcripts, usage, meta_evaluation_items, verdict_texts), so dropping the old table would
-- fail on their rows: the check is deferred to the end of this migration's transaction, by when every row they
-- name is back (re-inserting a parent row clears the violation its drop counted). Renaming a new table into place
-- would rewrite their `REFERENCES` to the old name instead, hence the copy through `evaluations_copy`.
PRAGMA defer_foreign_keys = ON;

CREATE TABLE evaluations_copy AS SELECT * FROM evaluations;
DROP TABLE evaluations;

CREATE TABLE evaluations (
  id                     TEXT NOT NULL PRIMARY KEY,
  tenant                 TEXT NOT NULL DEFAULT 'default',
  status                 TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  method                 TEXT NOT NULL,
  preset                 TEXT,
  config                 TEXT NOT NULL,  -- resolved method config (JSON) of rows before 0020, '' with `config_hash`
  task                   TEXT NOT NULL,  -- task (JSON) of rows before 0030, '' when kept elsewhere (evaluation_tasks, the object)
  metadata               TEXT,           -- caller's metadata (JSON)
  idempotency_key        TEXT,
  request_hash           TEXT,           -- sha-256 of the canonical request body, for 409 on key reuse
  meta_id                TEXT,           -- meta-evaluation batch this belongs to, if any
  calls_done             INTEGER NOT NULL DEFAULT 0,
  calls_planned          INTEGER NOT NULL DEFAULT 0,
  error_code             TEXT,
  error_message          TEXT,
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL,
  started_at             INTEGER,
  finished_at            INTEGER,
  engine_version         TEXT,
  batch_id               TEXT,
  batch_seq              INTEGER,
  item_id                TEXT,
  deleted_at             INTEGER,
  webhook_url            TEXT,
  key_id                 TEXT,
  slot_at                INTEGER,
  rubric_hash            TEXT,
  rubric_id              TEXT,
  rubric_version         INTEGER,
  tier                   TEXT NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'flex', 'batch')),
  flex_fallback          TEXT NOT NULL DEFAULT 'standard' CHECK (flex_fallback IN ('standard', 'wait')),
  cache_mode             TEXT,
  cache_key              TEXT,
  cache_from             TEXT,
  cache_saved_usd        REAL,
  content_erased_at      INTEGER,
  billed_calls           INTEGER,
  prompt_tokens          INTEGER NOT NULL DEFAULT 0,
  completion_tokens      INTEGER NOT NULL DEFAULT 0,
  cached_prompt_tokens   INTEGER NOT NULL DEFAULT 0,
  usage_estimated        INTEGER NOT NULL DEFAULT 0,
  cost_usd               REAL NOT NULL DEFAULT 0,
  prompt_cache_saved_usd REAL NOT NULL DEFAULT 0,
  config_hash            TEXT,
  budget                 TEXT,
  certify                TEXT,
  source                 TEXT,
  winner                 TEXT CHECK (winner IN ('A', 'B', 'tie')),
  score                  REAL,
  confidence             REAL,
  position_flip          INTEGER,
  cache_entry_at         INTEGER,
  counted_by             TEXT,
  task_kind              TEXT
) WITHOUT ROWID;

INSERT INTO evaluations SELECT * FROM evaluations_copy;
DROP TABLE evaluations_copy;

-- The indexes as they were (dropped with the old table), in the order the migrations made them.
CREATE UNIQUE INDEX evaluations_idempotency ON evaluations (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX evaluations_meta ON evaluations (meta_id) WHERE meta_id IS NOT NULL;
CREATE UNIQUE INDEX evaluations_batch ON evaluations (batch_id, batch_seq) WHERE batch_id IS NOT NULL;
CREATE INDEX evaluations_tenant_created ON evaluations (tenant, created_at, id);
CREATE INDEX evaluations_tenant_rubric ON evaluations (tenant, rubric_id, created_at, id) WHERE rubric_id IS NOT NULL;
CREATE INDEX evaluations_cache_hits ON evaluations (tenant, created_at) WHERE cache_from IS NOT NULL;
CREATE INDEX evaluations_cache_from ON evaluations (cache_from) WHERE cache_from IS NOT NULL;
CREATE INDEX evaluations_retention ON evaluations (tenant, finished_at) WHERE deleted_at IS NULL AND finished_at IS NOT NULL;
CREATE INDEX evaluations_waiting_single ON evaluations (tenant, created_at)
  WHERE slot_at IS NULL AND status = 'queued' AND batch_id IS NULL;
CREATE INDEX evaluations_waiting_batch ON evaluations (batch_id, batch_seq)
  WHERE slot_at IS NULL AND status = 'queued' AND batch_id IS NOT NULL;
CREATE INDEX evaluations_tenant_source_trace
  ON evaluations (tenant, json_extract(source, '$.traceId'), created_at) WHERE source IS NOT NULL;
CREATE INDEX evaluations_tenant_source_monitor
  ON evaluations (tenant, json_extract(source, '$.monitorId'), created_at) WHERE source IS NOT NULL;
CREATE INDEX evaluations_cache_entries ON evaluations (tenant, cache_key, cache_entry_at) WHERE cache_entry_at IS NOT NULL;
CREATE INDEX evaluations_counted_by ON evaluations (tenant, created_at) WHERE counted_by IS NOT NULL;
CREATE INDEX evaluations_in_flight ON evaluations (tenant) WHERE slot_at IS NOT NULL AND finished_at IS NULL;
