-- Evals runs (src/evals/) at a service tier, with the verdict cache, and their end announced by webhook:
-- * `service_tier`: the tier of the run's model calls (`standard`, `flex`, `batch`), resolved at create.
-- * `cache_mode`: what the verdict cache does for its model graders (`use`, `refresh`, `off`, `bypass`).
-- * `waves`: at the batch tier, the provider batches the run waits on (JSON), NULL when it waits on none.
-- * `eval_run_calls.cache_saved_usd`: set when the call was answered from the cache (what it had cost).
-- * `eval_verdict_cache`: a tenant's model grader answers by key (sha-256 of the model, its provider's
--   endpoint, the messages and parameters), each with what it cost. Times are Unix epoch milliseconds.
ALTER TABLE eval_runs ADD COLUMN service_tier TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE eval_runs ADD COLUMN cache_mode TEXT NOT NULL DEFAULT 'off';
ALTER TABLE eval_runs ADD COLUMN waves TEXT;
ALTER TABLE eval_run_calls ADD COLUMN cache_saved_usd REAL;
CREATE TABLE eval_verdict_cache (
  tenant     TEXT NOT NULL,
  key        TEXT NOT NULL,
  result     TEXT NOT NULL,
  cost_usd   REAL NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, key)
);
