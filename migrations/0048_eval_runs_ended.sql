-- The retention sweep of Evals runs (src/evals/run-retention.ts) reads the ended runs not deleted, oldest end
-- first (a run's `updated_at` is its end once it has ended), a page a minute per shard: through this index
-- rather than a scan of every run.
CREATE INDEX eval_runs_ended ON eval_runs (updated_at)
  WHERE deleted_at IS NULL AND status IN ('completed', 'failed', 'canceled');
