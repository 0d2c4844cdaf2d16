-- Fewer D1 rows per verdict (docs/scale.md, "The verdict on the row"). The verdict was a `verdicts` row of its
-- own (two D1 rows written: the row and its primary key's index) and a verdict cache entry a `verdict_cache` row
-- (three: the row, its key and its source index). Now:
-- - `winner`, `score`, `confidence`, `position_flip` on the evaluation's row: the verdict's summary (what
--   listings, comparisons, meta-evaluations and batch statistics read), written by the guarded status update
--   that ends it, which was written anyway. `confidence` is set exactly when the row has a verdict.
-- - `verdict_texts`: the verdict JSON without its transcript, keyed by the evaluation (two D1 rows, as
--   `verdicts` wrote). Not on the evaluation's row: a row that grows by 1-2 KB at its end no longer fits the
--   page it was inserted in, and with a 3 KB task it then takes two pages (bench:capacity measured 8.4 KB a
--   verdict). Not WITHOUT ROWID either: such a table keeps its rows in an index b-tree, where a 1.4 KB verdict
--   spills into an overflow page of its own (measured 4.7 KB a verdict).
-- - `cache_entry_at`: set when the succeeded evaluation is its key's verdict cache entry (epoch ms, what the
--   cache's TTL counts from); NULL otherwise. A later entry for the same key (a `refresh`) clears the older one,
--   and a deletion clears its own, so at most one row per tenant and key carries it, as `verdict_cache`'s
--   primary key kept it. The partial index holds only entries: one index row written per entry.
-- The usage sums (`billed_calls`, …) are set by the same status update instead of an update of their own.
-- Existing rows move here: each `verdicts` row's summary onto its evaluation and its JSON into `verdict_texts`,
-- each `verdict_cache` row as its source's `cache_entry_at`; then both tables go.
ALTER TABLE evaluations ADD COLUMN winner TEXT CHECK (winner IN ('A', 'B', 'tie'));
ALTER TABLE evaluations ADD COLUMN score REAL;
ALTER TABLE evaluations ADD COLUMN confidence REAL;
ALTER TABLE evaluations ADD COLUMN position_flip INTEGER;
ALTER TABLE evaluations ADD COLUMN cache_entry_at INTEGER;
CREATE TABLE verdict_texts (
  evaluation_id TEXT PRIMARY KEY REFERENCES evaluations (id),
  verdict       TEXT NOT NULL   -- Verdict JSON without the transcript
);

UPDATE evaluations SET (winner, score, confidence, position_flip) = (
    SELECT v.winner, v.score, v.confidence, v.position_flip FROM verdicts v WHERE v.evaluation_id = evaluations.id)
  WHERE id IN (SELECT evaluation_id FROM verdicts);
INSERT INTO verdict_texts (evaluation_id, verdict) SELECT evaluation_id, verdict FROM verdicts WHERE true
  ON CONFLICT DO NOTHING;
UPDATE evaluations SET cache_entry_at = (SELECT c.created_at FROM verdict_cache c WHERE c.evaluation_id = evaluations.id)
  WHERE id IN (SELECT evaluation_id FROM verdict_cache);

DROP TABLE verdict_cache;
DROP TABLE verdicts;

-- The verdict cache's lookup (src/verdict-cache/rows.ts): a tenant's newest live entry for a key.
CREATE INDEX evaluations_cache_entries ON evaluations (tenant, cache_key, cache_entry_at) WHERE cache_entry_at IS NOT NULL;

-- The running mark (status `running`, its start time, planned calls, engine version) wrote three D1 rows: the
-- row and its entries in the two partial indexes whose terms named the status. They now name `finished_at`
-- instead, which every end sets with the status and nothing else writes, so the running mark and progress
-- writes leave them alone (one row each). Same rows as before: a batch item runs only once admitted to a slot.
DROP INDEX evaluations_tenant_slots;
CREATE INDEX evaluations_tenant_slots ON evaluations (tenant) WHERE slot_at IS NOT NULL AND finished_at IS NULL;
DROP INDEX evaluations_stalled;
CREATE INDEX evaluations_stalled ON evaluations (created_at)
  WHERE finished_at IS NULL AND (batch_id IS NULL OR slot_at IS NOT NULL);
