/**
 * @module
 * Batch progress without re-counting: each ending item adds 1 to its batch's counter for its terminal
 * status, and the ending that brings the counts to `items_total` marks the batch completed and emits the
 * completion event. Both happen in the ending's own D1 transaction (an entry of `END_EFFECTS`,
 * src/ending.ts), every statement guarded by {@link endingGuard}: a repeated ending (idempotent
 * final write, a cancel racing the object's end, the dead-letter consumer) adds nothing, and D1 runs
 * transactions one at a time, so exactly one ending sees the last count and completes the batch.
 *
 * A batch with a budget also books the item's usage and releases its grant (./budget.ts).
 *
 * Cost: a few single-row statements per ending, whatever the batch's size (evaluations outside a
 * batch match no row).
 */
import type { EndEffect } from '../evaluations/ending.js';
import { endingGuard } from '../evaluations/ending.js';
import type { TerminalStatus } from '../evaluations/status.js';
import { budgetEndStatement } from './budget-claims.js';
import type { BatchCompletion } from './completion-event.js';
import { batchCompletionEventStatements } from './completion-event.js';

/** The `batches` counter each terminal status adds to (column names are literals, never input). */
const COUNTER: { readonly [S in TerminalStatus]: 'succeeded' | 'failed' | 'cancelled' } = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The batch of the ending evaluation (binds its id once); NULL outside a batch, which matches no row. */
const BATCH_OF_ENDING = '(SELECT batch_id FROM evaluations WHERE id = ?)';

/** True for a batch row whose items have all ended and that is not marked completed yet. */
const ALL_ENDED = 'b.completed_at IS NULL AND b.succeeded + b.failed + b.cancelled >= b.items_total';

/** Statements that emit a batch's completion event (see ./events.ts); tests pass their own. */
export type CompletionEmitter = (db: D1Database, completion: BatchCompletion) => D1PreparedStatement[];

/**
 * The batch-progress effect with `emit` for the completion event: count the ending in its batch; if it
 * was the last item, emit the completion event and mark the batch `completed`, or `cancelled` when a
 * cancel was asked.
 */
export function batchProgressEffectWith(emit: CompletionEmitter): EndEffect {
  return (db, ending) => {
    const column = COUNTER[ending.status];
    const guard = endingGuard(ending.status);
    const completing = `FROM batches b WHERE b.id = ${BATCH_OF_ENDING} AND ${ALL_ENDED} AND ${guard}`;
    return [
      budgetEndStatement(db, ending.id, ending.now, BATCH_OF_ENDING, guard),
      db
        .prepare(
          `UPDATE batches SET ${column} = ${column} + 1, updated_at = ? WHERE id = ${BATCH_OF_ENDING} AND ${guard}`,
        )
        .bind(ending.now, ending.id, ending.id),
      // Before the row is marked: `completing` selects it only until then.
      ...emit(db, { rows: completing, binds: [ending.id, ending.id], causeId: ending.id, now: ending.now }),
      db
        .prepare(
          `UPDATE batches AS b SET status = CASE WHEN b.cancel_requested_at IS NULL THEN 'completed' ELSE 'cancelled' END,
             completed_at = ?, updated_at = ?
           WHERE b.id = ${BATCH_OF_ENDING} AND ${ALL_ENDED} AND ${guard}`,
        )
        .bind(ending.now, ending.now, ending.id, ending.id),
    ];
  };
}

/** The END_EFFECTS entry: batch progress, emitting the completion event through ./events.ts. */
export const batchProgressEffect: EndEffect = batchProgressEffectWith(batchCompletionEventStatements);
