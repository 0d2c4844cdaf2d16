-- A batch's items are erased with their batch (docs/scale.md, "Fewer writes per verdict"; README, "What is kept"). Each
-- ended evaluation wrote an entry in `evaluations_retention (tenant, finished_at)`, by which retention found it once
-- the tenant's `retentionDays` had passed since its end. A batch's items now leave that index: retention erases them
-- once the days have passed since their batch completed (an item ends before its batch completes, so it is kept at
-- most the batch's duration longer), finding the batch through `batches_retention`, one entry per batch written
-- with its completion, and its items through `evaluations_batch` from `items_erased_below` (the positions below it
-- were erased) until `items_erased_at` marks the batch done. Evaluations outside a batch are erased as before.
DROP INDEX evaluations_retention;
CREATE INDEX evaluations_retention ON evaluations (tenant, finished_at)
  WHERE deleted_at IS NULL AND finished_at IS NOT NULL AND batch_id IS NULL;
ALTER TABLE batches ADD COLUMN items_erased_below INTEGER NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN items_erased_at INTEGER;
-- A completed batch with no item left to erase needs no visit.
UPDATE batches SET items_erased_at = completed_at, items_erased_below = items_total
WHERE completed_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM evaluations e WHERE e.batch_id = batches.id AND e.deleted_at IS NULL);
CREATE INDEX batches_retention ON batches (completed_at) WHERE completed_at IS NOT NULL AND items_erased_at IS NULL;
