-- Runs of OpenAI-compatible evals (src/evals/): a run grades the items of its data source with its eval's
-- testing criteria (sampling a model first for a `completions` source). The items given inline are kept in
-- `data_source`; each graded item is one `eval_run_items` row, written once (a repeat of the work skips it).
-- `lease_until` is held by the one invocation working on the run; a run whose lease ran out is resumed by the
-- next read. Times are Unix epoch milliseconds.
CREATE TABLE eval_runs (
  id          TEXT PRIMARY KEY,
  tenant      TEXT NOT NULL,
  eval_id     TEXT NOT NULL,
  name        TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'canceled', 'failed')),
  data_source TEXT NOT NULL,
  model       TEXT,
  metadata    TEXT,
  items_total INTEGER NOT NULL,
  error       TEXT,
  lease_until INTEGER,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  deleted_at  INTEGER
);
CREATE INDEX eval_runs_eval_created ON eval_runs (tenant, eval_id, created_at, id);

CREATE TABLE eval_run_items (
  run_id     TEXT NOT NULL,
  idx        INTEGER NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('pass', 'fail', 'error')),
  item       TEXT NOT NULL,
  sample     TEXT,
  results    TEXT NOT NULL,
  usage      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, idx)
);
