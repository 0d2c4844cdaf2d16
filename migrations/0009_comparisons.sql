-- Comparisons (src/comparisons/): candidates compared over items as pairwise evaluations on the batch
-- machinery. A comparison is a batch of kind 'comparison' (its evaluations, window, budget, cancel and
-- counters are the batch's) plus its `comparisons` row (same id), which keeps what is particular to it:
-- the candidates, the design, the gate, and the statistics computed once the last evaluation ended.
--
-- Reliability (`repeats` on meta-evaluations): each labelled item is judged `repeats` times; the item's
-- repeats are its evaluations in the batch (batch_seq = item position × repeats + repeat).
--
-- Times are Unix epoch milliseconds.

-- `batches.kind` gains 'comparison': SQLite cannot change a CHECK, so the table is rebuilt (no foreign key
-- refers to it), with its indexes and every column the earlier migrations gave it (0007's tier columns too).
CREATE TABLE batches_new (
  id                  TEXT PRIMARY KEY,
  tenant              TEXT NOT NULL,
  kind                TEXT NOT NULL CHECK (kind IN ('batch', 'meta_evaluation', 'comparison')),
  status              TEXT NOT NULL CHECK (status IN ('running', 'cancelling', 'completed', 'cancelled')),
  method              TEXT NOT NULL,
  preset              TEXT,
  config              TEXT NOT NULL,
  webhook_url         TEXT,
  idempotency_key     TEXT,
  request_hash        TEXT,
  items_total         INTEGER NOT NULL,
  succeeded           INTEGER NOT NULL DEFAULT 0,
  failed              INTEGER NOT NULL DEFAULT 0,
  cancelled           INTEGER NOT NULL DEFAULT 0,
  concurrency         INTEGER NOT NULL,
  sent                INTEGER NOT NULL DEFAULT 0,
  sent_from           INTEGER NOT NULL DEFAULT 0,
  claim_token         TEXT,
  cancel_requested_at INTEGER,
  completion_event_id TEXT,
  budget              TEXT,
  spent_calls         INTEGER NOT NULL DEFAULT 0,
  spent_tokens        INTEGER NOT NULL DEFAULT 0,
  spent_cost_usd      REAL NOT NULL DEFAULT 0,
  reserved_calls      INTEGER NOT NULL DEFAULT 0,
  reserved_tokens     INTEGER NOT NULL DEFAULT 0,
  reserved_cost_usd   REAL NOT NULL DEFAULT 0,
  budget_exhausted_at INTEGER,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  completed_at        INTEGER,
  tier                TEXT NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'flex', 'batch')),
  flex_fallback       TEXT NOT NULL DEFAULT 'standard' CHECK (flex_fallback IN ('standard', 'wait'))
);
INSERT INTO batches_new (id, tenant, kind, status, method, preset, config, webhook_url, idempotency_key, request_hash,
  items_total, succeeded, failed, cancelled, concurrency, sent, sent_from, claim_token, cancel_requested_at,
  completion_event_id, budget, spent_calls, spent_tokens, spent_cost_usd, reserved_calls, reserved_tokens,
  reserved_cost_usd, budget_exhausted_at, created_at, updated_at, completed_at, tier, flex_fallback)
SELECT id, tenant, kind, status, method, preset, config, webhook_url, idempotency_key, request_hash,
  items_total, succeeded, failed, cancelled, concurrency, sent, sent_from, claim_token, cancel_requested_at,
  completion_event_id, budget, spent_calls, spent_tokens, spent_cost_usd, reserved_calls, reserved_tokens,
  reserved_cost_usd, budget_exhausted_at, created_at, updated_at, completed_at, tier, flex_fallback
FROM batches;
DROP TABLE batches;
ALTER TABLE batches_new RENAME TO batches;
CREATE UNIQUE INDEX batches_idempotency ON batches (tenant, kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX batches_tenant_created ON batches (tenant, created_at, id);
CREATE INDEX batches_open ON batches (updated_at) WHERE completed_at IS NULL;

CREATE TABLE comparisons (
  id                TEXT PRIMARY KEY,          -- the batch's id (cp_…)
  tenant            TEXT NOT NULL,
  candidates        TEXT NOT NULL,             -- JSON array of candidate names, in request order
  design            TEXT NOT NULL,             -- JSON: "all-pairs" or {"baseline": "<candidate>"}
  -- Evaluations per item and pair: 1 when the judge runs both presentation orders itself, 2 when it runs
  -- one (the pair's order AB, then BA, as two evaluations). An item's evaluations are consecutive in the
  -- batch: batch_seq = item position × pairs × orders + pair × orders + order.
  orders            INTEGER NOT NULL CHECK (orders IN (1, 2)),
  items_total       INTEGER NOT NULL,
  gate              TEXT,                      -- JSON gate with its defaults, or NULL
  statistics        TEXT NOT NULL,             -- JSON: how the statistics are computed (model, level, resamples, seed)
  -- Set in the transaction of the ending that completes the batch; the statistics are computed after that
  -- commit (they need every verdict and the metrics code), stored once with `comparison.completed`.
  completed_at      INTEGER,
  result            TEXT,                      -- the statistics JSON, stored once
  gate_outcome      TEXT CHECK (gate_outcome IN ('passed', 'failed', 'inconclusive')),
  result_token      TEXT,                      -- the writer that stored `result` (guards its event)
  finalizing_until  INTEGER,                   -- a lease: one writer computes the statistics at a time
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
-- The sweeper's finish of comparisons whose statistics were never stored (a crash after the last ending).
CREATE INDEX comparisons_unfinished ON comparisons (completed_at) WHERE completed_at IS NOT NULL AND result IS NULL;

-- Meta-evaluations: how many times each item is judged (reliability; `meta_evaluation_items` links each
-- item to its first repeat, the one the agreement report reads), and the reliability report over every
-- repeat, stored once when the batch completed.
ALTER TABLE meta_evaluations ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1;
ALTER TABLE meta_evaluations ADD COLUMN reliability TEXT;
-- The latest Trust or Escalate calibration of a cascade's labelled run (POST …/calibrate), JSON.
ALTER TABLE meta_evaluations ADD COLUMN calibration TEXT;
