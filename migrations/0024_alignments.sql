-- Alignments (src/align/): a rubric version aligned to the human labels of one annotation queue, as a durable
-- job driven through the batches queue. `items` is the snapshot of the labelled items taken when the job was
-- created (task and human label), so a redelivery sees the same items whatever was labelled since. Each step's
-- product is recorded here (the meta-evaluations' ids, the rewrite evaluation's id, the new version) and each
-- is created under an idempotency key derived from the job id, so a repeated step finds what it made before.
-- Times are Unix epoch milliseconds.
CREATE TABLE alignments (
  id              TEXT PRIMARY KEY,
  tenant          TEXT NOT NULL,
  rubric_id       TEXT NOT NULL,
  base_version    INTEGER NOT NULL,
  queue_id        TEXT NOT NULL,
  method          TEXT NOT NULL CHECK (method IN ('few-shot', 'instructions', 'thresholds', 'auto')),
  holdout         REAL NOT NULL,
  tag             TEXT NOT NULL,
  judge           TEXT NOT NULL,
  key_id          TEXT,
  items           TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  steps           TEXT NOT NULL,
  result          TEXT,
  error_code      TEXT,
  error_message   TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX alignments_rubric ON alignments (tenant, rubric_id, created_at);
