-- Eval runs billed and replayed as Tribunal's evaluations are (src/evals/run-ledger.ts):
-- * `eval_run_calls` stores each LLM call a run's item made (the sampler's, each model grader's) once, before
--   the item is graded on: a repeat of the item (a redelivered queue message, a resumed run) reads it back
--   instead of calling the model again.
-- * each graded item has an `evaluations` row of its own (method `openai-eval-item`, ended and hidden:
--   `deleted_at` set), so the monthly evaluation cap counts a run's items and its calls' `usage` rows (the
--   spend cap, GET /v1/usage) have the evaluation they belong to.
-- * `key_id`: the key that created the run, for usage by key.
CREATE TABLE eval_run_calls (
  run_id     TEXT NOT NULL,
  idx        INTEGER NOT NULL,
  call_id    TEXT NOT NULL,
  result     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, idx, call_id)
);
ALTER TABLE eval_runs ADD COLUMN key_id TEXT;
