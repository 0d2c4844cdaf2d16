-- The open batches by tenant (docs/scale.md, "Rows read per verdict"). `batches_open` held a shard's open batches
-- by `created_at`, so the admission (src/evaluations/admission.ts: the count of a tenant's slot holders and its
-- waiting batch items, on every ending and every slot taken) read every open batch of every tenant of the shard
-- to keep its own: rows read per verdict grew with the other tenants' open batches. Keyed by tenant first, it reads
-- the tenant's own; the readers of every open batch (the sweeper, src/evaluations/job-rows.ts; the stalled
-- batches, src/batches/rows.ts) scan it whole as before. Same name, same rows, same writes: one entry a batch,
-- written at its insert and taken out by its completion (neither key column changes while it is open).
DROP INDEX batches_open;
CREATE INDEX batches_open ON batches (tenant, created_at) WHERE completed_at IS NULL;
