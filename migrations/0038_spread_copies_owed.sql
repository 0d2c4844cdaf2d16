-- Whether a spread tenant's copies (docs/scale.md, "A tenant over several shards": its settings row, webhook
-- endpoints, signing secret and OTLP export, copied from its home shard into every shard of its spread) are
-- complete, on the control database's row. `copies_spread`: the largest spread whose shards all took a whole
-- copy (NULL = none yet, as for every tenant before this migration). `copies_owed_at`: when a write last failed
-- to copy into some shard (epoch ms; NULL = none since the last whole copy). The maintenance cron copies every
-- tenant whose largest spread is above `copies_spread` or that owes a copy (src/admin/spread-copies.ts), so no
-- admin action is needed for tenants spread before the copies existed.
ALTER TABLE tenants ADD COLUMN copies_spread INTEGER;
ALTER TABLE tenants ADD COLUMN copies_owed_at INTEGER;
CREATE INDEX tenants_copies_owed ON tenants (id) WHERE copies_owed_at IS NOT NULL OR max(COALESCE(spread, 1), COALESCE(spread_seen, 1)) > COALESCE(copies_spread, 1);
