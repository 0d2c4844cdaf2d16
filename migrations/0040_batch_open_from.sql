-- A batch item's insert writes no index entry for its being open (docs/scale.md, "Fewer writes per verdict"). Each
-- item wrote one in `evaluations_batch_open (batch_id, batch_seq) WHERE finished_at IS NULL`, the same key as the
-- unique `evaluations_batch` every item is in anyway. The readers of a batch's handed-over items that have not
-- ended (the admission's count, the waiting evaluations, the sweeper) read `evaluations_batch` instead, between the
-- batch's `open_from` and its `sent`: `open_from` is at or below the position of every item of the batch that has
-- not ended, moved up by the update that counts an ending (the batch's row, written anyway) to the next position
-- that has not ended. A lag (an ending that moved nothing) only makes a reader pass more ended items, never miss one.
--
-- Open batches start from their first item that has not ended, read through the index this then drops.
ALTER TABLE batches ADD COLUMN open_from INTEGER NOT NULL DEFAULT 0;
UPDATE batches SET open_from = COALESCE(
  (SELECT MIN(e.batch_seq) FROM evaluations e WHERE e.batch_id = batches.id AND e.finished_at IS NULL), items_total)
WHERE completed_at IS NULL;
DROP INDEX evaluations_batch_open;
