-- Thinner evaluation rows (docs/scale.md): resolved method configs stored once, by hash. The config (about 2 KB
-- for a debate preset, 6 KB with long prompts) was repeated on every `evaluations` row. New rows keep the first
-- 32 hex characters of the sha-256 of its canonical JSON in `config_hash` and an empty `config`; `method_configs`
-- holds each config once. A batch budget's grant to an item, which was written into the item's config, is the
-- item's own `budget` column (JSON), laid over the config's `budget` where it is read
-- (src/evaluations/config-rows.ts). Rows written before keep their inline config and read as before
-- (`config_hash` NULL), so nothing has to move.
CREATE TABLE method_configs (
  hash       TEXT PRIMARY KEY,   -- 32 hex characters of the sha-256 of the config's canonical JSON
  config     TEXT NOT NULL,      -- the resolved method config (JSON)
  created_at INTEGER NOT NULL
) WITHOUT ROWID;

ALTER TABLE evaluations ADD COLUMN config_hash TEXT;
ALTER TABLE evaluations ADD COLUMN budget TEXT;
