-- The verdict cache (src/verdict-cache/) and the USD the providers' prompt caches saved.
-- Times are Unix epoch milliseconds.

-- One entry per tenant and key: the succeeded evaluation whose verdict a later identical request gets. The
-- verdict itself is not copied here: an entry points at its source, whose `verdicts` row a hit reads, so a
-- deleted source (its verdict erased in the same transaction as its entries) can never serve again. Entries
-- are written by the source's ending, in its own transaction (src/evaluations/verdict-cache-entry.ts), so an
-- entry exists exactly when its verdict does. Expiry (VERDICT_CACHE_TTL_DAYS) is checked when looked up.
CREATE TABLE verdict_cache (
  tenant        TEXT NOT NULL,
  key           TEXT NOT NULL,               -- sha-256 hex of the key's parts (src/verdict-cache/key.ts)
  evaluation_id TEXT NOT NULL REFERENCES evaluations (id),
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (tenant, key)
);
-- Deleting an evaluation removes the entries it is the source of.
CREATE INDEX verdict_cache_source ON verdict_cache (evaluation_id);

-- Per evaluation: what the cache did for it.
-- cache_mode: 'use' (looked up at creation, written on success), 'refresh' (written, not looked up), 'off',
-- or 'bypass' (a judge sampling at temperature > 0 without a seed, or a repeat of a reliability run). NULL for
-- rows written before this migration (read as 'off').
ALTER TABLE evaluations ADD COLUMN cache_mode TEXT;
-- The key it is cached under (NULL for 'off' and 'bypass').
ALTER TABLE evaluations ADD COLUMN cache_key TEXT;
-- A hit: the evaluation whose verdict it took (no LLM call made), and what that verdict had cost (USD saved).
ALTER TABLE evaluations ADD COLUMN cache_from TEXT;
ALTER TABLE evaluations ADD COLUMN cache_saved_usd REAL;
-- Usage by hits (GET /v1/usage), and the pending hits a deletion of their source turns back into misses.
CREATE INDEX evaluations_cache_hits ON evaluations (tenant, created_at) WHERE cache_from IS NOT NULL;
CREATE INDEX evaluations_cache_from ON evaluations (cache_from) WHERE cache_from IS NOT NULL;

-- A trigger's cache mode for the evaluations it creates (NULL: the default).
ALTER TABLE triggers ADD COLUMN cache TEXT;

-- USD the provider's prompt cache saved on this call: cached prompt tokens × (input − cached input price).
ALTER TABLE usage ADD COLUMN cache_saved_usd REAL NOT NULL DEFAULT 0;
