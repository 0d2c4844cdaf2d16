-- A batch's items' usage rolled up a page at a time (docs/scale.md, "Fewer writes per verdict"). Each item's final
-- write upserted its calls into `usage_rollup`: one D1 row written a verdict, the same row for every item of a
-- batch in the same hour. The item's groups (hour, model, tier with their sums, and the item's preset and key) are
-- appended instead to its batch's `usage_pending` by the update that counts the ending, which writes the batch's
-- row anyway; the ending after the list reached 32 items, and the ending that completes the batch, add it to
-- `usage_rollup` (one row per group) and empty it. Usage reports and the monthly spend quota add the lists of the
-- tenant's open batches, so what they show is unchanged (src/tenants/usage-rollup.ts).
ALTER TABLE batches ADD COLUMN usage_pending TEXT;  -- JSON: [[preset, key, [[hour, model, tier, calls, …], …]], …]
