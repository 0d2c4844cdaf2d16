-- Tenants, their API keys, and what limits, quotas and usage need on evaluations (src/tenants/).
-- Times are Unix epoch milliseconds. A NULL limit means "the deployment's default" (wrangler.toml [vars]);
-- a NULL cap means "no cap".

CREATE TABLE tenants (
  id                     TEXT PRIMARY KEY,   -- tn_… (or an API_KEYS tenant id an operator adopted)
  name                   TEXT NOT NULL,
  rate_requests          INTEGER,            -- per key: requests per rate_window_seconds (token bucket)
  rate_window_seconds    INTEGER,
  max_running            INTEGER,            -- evaluations running at once
  monthly_spend_cap_usd  REAL,               -- calendar month, UTC
  monthly_evaluation_cap INTEGER,            -- evaluations created per calendar month, UTC
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
);

-- A key is shown once; only the sha-256 of the whole key is kept (keys carry ≥ 160 random bits, so a
-- plain hash cannot be reversed by guessing). `prefix` is the first characters, for people to tell keys apart.
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,             -- key_…
  tenant_id    TEXT NOT NULL REFERENCES tenants (id),
  hash         TEXT NOT NULL UNIQUE,         -- sha-256 hex of the full key
  prefix       TEXT NOT NULL,
  label        TEXT NOT NULL DEFAULT '',
  scopes       TEXT NOT NULL,                -- space-separated: evaluations:write read admin
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,                      -- written at most once a minute per key
  expires_at   INTEGER,
  revoked_at   INTEGER
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);

-- The key that created an evaluation (usage by key); NULL for API_KEYS tokens and open mode.
ALTER TABLE evaluations ADD COLUMN key_id TEXT;
-- When the evaluation got one of its tenant's running slots (NULL: not admitted yet). A slot is held while
-- the row is queued or running, so every end path frees it with the status change itself.
ALTER TABLE evaluations ADD COLUMN slot_at INTEGER;

-- Monthly evaluation quota: evaluations of a tenant by creation time. 0003 (batches/listing) creates an
-- index of the same name on (tenant, created_at, id), which serves this too.
CREATE INDEX IF NOT EXISTS evaluations_tenant_created ON evaluations (tenant, created_at);
-- Running-slot count per tenant: only rows that hold a slot and have not ended are in this index.
CREATE INDEX evaluations_tenant_slots ON evaluations (tenant) WHERE slot_at IS NOT NULL AND status IN ('queued', 'running');
-- Evaluations waiting for a running slot, oldest first per tenant (the next one to start when a slot frees).
CREATE INDEX evaluations_tenant_waiting ON evaluations (tenant, created_at) WHERE slot_at IS NULL AND status = 'queued';
