-- Batches: many evaluations submitted as one, with progress counted once per ending item
-- (src/batches/progress.ts, an END_EFFECTS entry run in the ending's own transaction), plus what
-- listing and deleting evaluations need.
--
-- A meta-evaluation is a labelled batch: its `batches` row (kind 'meta_evaluation') shares the id of its
-- `meta_evaluations` row, which keeps only what is particular to it (the agreement report; the human
-- labels stay in `meta_evaluation_items`). `evaluations.batch_id` is THE link of an item to its batch;
-- `evaluations.meta_id` is kept, equal to `batch_id` for a meta-evaluation's items, for the API's
-- `metaId` field and for rows written before this migration.

CREATE TABLE batches (
  id                  TEXT PRIMARY KEY,
  tenant              TEXT NOT NULL,
  kind                TEXT NOT NULL CHECK (kind IN ('batch', 'meta_evaluation')),
  -- running → completed (every item ended); running → cancelling (cancel asked, items still ending) → cancelled.
  status              TEXT NOT NULL CHECK (status IN ('running', 'cancelling', 'completed', 'cancelled')),
  method              TEXT NOT NULL,
  preset              TEXT,
  config              TEXT NOT NULL,             -- resolved method config shared by every item (JSON)
  webhook_url         TEXT,                      -- the request's `webhook.url` (delivery: src/webhooks)
  idempotency_key     TEXT,
  request_hash        TEXT,                      -- sha-256 of the canonical request, for 409 on key reuse
  items_total         INTEGER NOT NULL,
  -- Items ended so far, by terminal status: each ending adds 1 exactly once (guarded by the ending itself).
  succeeded           INTEGER NOT NULL DEFAULT 0,
  failed              INTEGER NOT NULL DEFAULT 0,
  cancelled           INTEGER NOT NULL DEFAULT 0,
  -- The window (src/batches/pump.ts): at most `concurrency` items in flight (handed over, not ended);
  -- items with batch_seq < `sent` have been handed over. The last claim moved `sent` up from `sent_from`
  -- and wrote its `claim_token`, so the claimer (and only it) reads back the range it claimed.
  concurrency         INTEGER NOT NULL,
  sent                INTEGER NOT NULL DEFAULT 0,
  sent_from           INTEGER NOT NULL DEFAULT 0,
  claim_token         TEXT,
  cancel_requested_at INTEGER,
  -- The event id of the batch's completion event (`batch.completed` / `meta_evaluation.completed`), fixed
  -- at creation (src/batches/events.ts): the ending that completes the batch knows the batch only in SQL.
  -- NULL for meta-evaluations created before this migration (they emit no completion event).
  completion_event_id TEXT,
  -- The batch's budget (JSON, src/budgets/schema.ts) or NULL. What its ended items spent, and what the
  -- items in flight may still spend (the budgets they were granted at launch, src/batches/budget.ts).
  budget              TEXT,
  spent_calls         INTEGER NOT NULL DEFAULT 0,
  spent_tokens        INTEGER NOT NULL DEFAULT 0,
  spent_cost_usd      REAL NOT NULL DEFAULT 0,
  reserved_calls      INTEGER NOT NULL DEFAULT 0,
  reserved_tokens     INTEGER NOT NULL DEFAULT 0,
  reserved_cost_usd   REAL NOT NULL DEFAULT 0,
  -- Set once nothing is left to launch an item with: the items never launched end `failed` (budget_exceeded).
  budget_exhausted_at INTEGER,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  completed_at        INTEGER                    -- set once, in the transaction of the last item's ending
);
-- An Idempotency-Key belongs to one tenant and one endpoint (batches, meta-evaluations).
CREATE UNIQUE INDEX batches_idempotency ON batches (tenant, kind, idempotency_key) WHERE idempotency_key IS NOT NULL;
-- Listing: keyset pagination on (created_at, id) per tenant.
CREATE INDEX batches_tenant_created ON batches (tenant, created_at, id);
-- The sweeper's top-up of open batches (a lost hand-over must not stall a batch).
CREATE INDEX batches_open ON batches (updated_at) WHERE completed_at IS NULL;

ALTER TABLE evaluations ADD COLUMN batch_id TEXT;   -- batch (or meta-evaluation) this item belongs to
ALTER TABLE evaluations ADD COLUMN batch_seq INTEGER; -- 0-based position in the batch request
ALTER TABLE evaluations ADD COLUMN item_id TEXT;    -- the caller's item id, if given
-- Set when the caller deleted the evaluation (DELETE /v1/evaluations/:id): task, metadata, transcript
-- and verdict are erased; the row stays as a tombstone, since the usage rows billing keeps refer to it.
ALTER TABLE evaluations ADD COLUMN deleted_at INTEGER;

-- Results of a batch in request order (keyset on batch_seq); one item per position.
CREATE UNIQUE INDEX evaluations_batch ON evaluations (batch_id, batch_seq) WHERE batch_id IS NOT NULL;
-- Listing: keyset pagination on (created_at, id) per tenant.
CREATE INDEX evaluations_tenant_created ON evaluations (tenant, created_at, id);

-- Meta-evaluations created before this migration become labelled batches with their counts so far
-- (every item was handed to the queue at once then).
INSERT INTO batches (id, tenant, kind, status, method, preset, config, items_total, succeeded, failed, cancelled,
                     concurrency, sent, created_at, updated_at)
SELECT m.id, m.tenant, 'meta_evaluation', 'running', json_extract(m.config, '$.method'), m.preset, m.config, m.items_total,
       (SELECT count(*) FROM evaluations e WHERE e.meta_id = m.id AND e.status = 'succeeded'),
       (SELECT count(*) FROM evaluations e WHERE e.meta_id = m.id AND e.status = 'failed'),
       (SELECT count(*) FROM evaluations e WHERE e.meta_id = m.id AND e.status = 'cancelled'),
       m.items_total, m.items_total, m.created_at, m.updated_at
FROM meta_evaluations m;
UPDATE batches SET status = 'completed', completed_at = updated_at
WHERE kind = 'meta_evaluation' AND succeeded + failed + cancelled = items_total;
-- Items in item-id order, as the meta-evaluation lists them.
UPDATE evaluations
SET batch_id = meta_id,
    item_id = (SELECT i.item_id FROM meta_evaluation_items i WHERE i.evaluation_id = evaluations.id),
    batch_seq = (SELECT count(*) FROM meta_evaluation_items i2
                 WHERE i2.meta_id = evaluations.meta_id
                   AND i2.item_id < (SELECT i.item_id FROM meta_evaluation_items i WHERE i.evaluation_id = evaluations.id))
WHERE meta_id IS NOT NULL;
