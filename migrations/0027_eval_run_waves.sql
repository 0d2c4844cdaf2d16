-- Evals runs at the batch tier, and the evaluations a run's item starts (src/evals/):
-- * `eval_run_wave_calls`: each model call of a batch-tier run's item (the sampler's, a model grader's) while it
--   goes through the provider's Batch API: its request (what the delivered line is read against), the wave
--   coordinator it is registered with, its failed tries (JSON), its state (`wave`: registered, waiting for its
--   line; `sync`: its tries in waves spent, it goes as one synchronous call; `done`: `result` holds the
--   answer the item replays). Times are Unix epoch milliseconds.
-- * `eval_runs.wake_at`: when the run, waiting on provider batches or a Tribunal judge's evaluation, is
--   looked at again by a delayed queue message (NULL when none is due): one such message at a time.
-- * `evaluations.counted_by`: the ledger row of the run item that started this evaluation (a Tribunal judge
--   as a grader's model): the item already counts once against the monthly evaluation cap, so this row does not.
CREATE TABLE eval_run_wave_calls (
  run_id      TEXT NOT NULL,
  idx         INTEGER NOT NULL,
  call_id     TEXT NOT NULL,
  request     TEXT NOT NULL,
  coordinator TEXT NOT NULL,
  attempts    TEXT NOT NULL DEFAULT '[]',
  state       TEXT NOT NULL DEFAULT 'wave' CHECK (state IN ('wave', 'sync', 'done')),
  result      TEXT,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (run_id, idx, call_id)
);
ALTER TABLE eval_runs ADD COLUMN wake_at INTEGER;
ALTER TABLE evaluations ADD COLUMN counted_by TEXT;
CREATE INDEX evaluations_counted_by ON evaluations (tenant, created_at) WHERE counted_by IS NOT NULL;
