-- Usage rolled up (docs/scale.md): the final write no longer inserts one `usage` row per LLM call (three D1
-- rows written each, with the primary key and the tenant/time index). It adds the evaluation's calls to one
-- `usage_rollup` row per (tenant, UTC hour, model, tier, preset, key) and books the evaluation's own sums on
-- its `evaluations` row, once (`billed_calls` stays NULL until then, which makes a repeated final write a
-- no-op). The per-call detail (tier, attempts, failed attempts, latency) stays in the evaluation's Durable
-- Object with its transcript. GET /v1/usage, quotas, batch budgets and costs read these; `usage` keeps the rows
-- written before this migration, which transcripts kept in D1's `transcripts` still join for their per-call usage.
CREATE TABLE usage_rollup (
  tenant               TEXT NOT NULL,
  hour                 INTEGER NOT NULL,            -- start of the UTC hour the calls were recorded in, epoch ms
  model                TEXT NOT NULL,
  tier                 TEXT NOT NULL,
  preset               TEXT NOT NULL DEFAULT '',    -- the evaluation's preset; '' for none
  key_id               TEXT NOT NULL DEFAULT '',    -- the API key that created the evaluation; '' for none
  calls                INTEGER NOT NULL,
  prompt_tokens        INTEGER NOT NULL,
  completion_tokens    INTEGER NOT NULL,
  cached_prompt_tokens INTEGER NOT NULL,
  estimated            INTEGER NOT NULL,            -- 1 when some token counts were estimated
  cost_usd             REAL NOT NULL,
  cache_saved_usd      REAL NOT NULL,               -- what the providers' prompt caches saved
  PRIMARY KEY (tenant, hour, model, tier, preset, key_id)
) WITHOUT ROWID;

-- An evaluation's own usage sums, booked by its final write (NULL calls: not booked yet).
ALTER TABLE evaluations ADD COLUMN billed_calls INTEGER;
ALTER TABLE evaluations ADD COLUMN prompt_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evaluations ADD COLUMN completion_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evaluations ADD COLUMN cached_prompt_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evaluations ADD COLUMN usage_estimated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evaluations ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
ALTER TABLE evaluations ADD COLUMN prompt_cache_saved_usd REAL NOT NULL DEFAULT 0;

-- Carry an existing database over: the per-call rows become the roll-up and each evaluation's sums.
INSERT INTO usage_rollup (tenant, hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens,
  cached_prompt_tokens, estimated, cost_usd, cache_saved_usd)
SELECT u.tenant, (u.created_at / 3600000) * 3600000, u.model, u.tier, COALESCE(e.preset, ''), COALESCE(e.key_id, ''),
  count(*), SUM(u.prompt_tokens), SUM(u.completion_tokens), SUM(u.cached_prompt_tokens), MAX(u.estimated),
  SUM(u.cost_usd), SUM(u.cache_saved_usd)
FROM usage u LEFT JOIN evaluations e ON e.id = u.evaluation_id
GROUP BY 1, 2, 3, 4, 5, 6;

UPDATE evaluations SET (billed_calls, prompt_tokens, completion_tokens, cached_prompt_tokens, usage_estimated, cost_usd,
    prompt_cache_saved_usd) = (
  SELECT count(*), SUM(u.prompt_tokens), SUM(u.completion_tokens), SUM(u.cached_prompt_tokens), MAX(u.estimated),
    SUM(u.cost_usd), SUM(u.cache_saved_usd)
  FROM usage u WHERE u.evaluation_id = evaluations.id)
WHERE id IN (SELECT evaluation_id FROM usage);

-- Nothing reads the old rows by tenant and time any more.
DROP INDEX usage_tenant_time;
