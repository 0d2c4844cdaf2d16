/**
 * @module
 * A batch's handed-over items that have not ended, without an index of their own: the SQL terms that read them
 * through `evaluations_batch` between the batch's `open_from` and `sent`, and the term that keeps `open_from` at or
 * below every position of the batch that has not ended (migration 0040). The admission's count and the waiting
 * evaluations (./admission.ts) and the sweeper (./job-rows.ts `findStalled`) read them; the update that counts an
 * ending in its batch (src/batches/progress.ts) moves `open_from`.
 */

/**
 * SQL terms joining batch `b` to its handed-over items `e` that have not ended, through `evaluations_batch`: the
 * positions from `b.open_from` (at or below every position of the batch that has not ended) to `b.sent` (the
 * window's claims: an item takes a slot only once its batch's window claimed it, src/batches/pump.ts). So neither
 * the items not handed over nor those ended before `open_from` are read; items ended out of order above it are
 * read and skipped (no index of open items: it cost each item an index entry at its insert, migration 0040).
 */
export function batchOpenItems(b: string, e: string): string {
  return `${e}.batch_id = ${b}.id AND ${e}.batch_seq >= ${b}.open_from AND ${e}.batch_seq < ${b}.sent AND ${e}.finished_at IS NULL`;
}

/**
 * The SET term of the update that counts an ending in its batch's row (src/batches/progress.ts; binds the ending
 * evaluation's id once): `open_from` moves up to the batch's first handed-over position that has not ended but for
 * the ending one (its own status update comes later in the same transaction), or to `sent` when none is left (the
 * row as it was: positions the same update claims are at or above it). It reads the positions from the old
 * `open_from` in order and stops at the first open one, so over a batch's life each position is passed about
 * once. An end path that moves nothing leaves `open_from` lower, which only makes {@link batchOpenItems} read more
 * ended items.
 */
export const OPEN_FROM_AFTER_ENDING = `open_from = COALESCE((SELECT o.batch_seq FROM evaluations o INDEXED BY evaluations_batch
    WHERE o.batch_id = batches.id AND o.batch_seq >= batches.open_from AND o.batch_seq < batches.sent
      AND o.finished_at IS NULL AND o.id != ?
    ORDER BY o.batch_seq LIMIT 1), batches.sent)`;
