/**
 * @module
 * Batch progress without re-counting: each ending item adds 1 to its batch's counter for its terminal
 * status, and the ending that brings the counts to `items_total` marks the batch completed and emits the
 * completion event. The count always happens in the ending's own D1 transaction; the completion does too on
 * `markEnded`'s paths (a cancel, a failure, the dead-letter consumer), and apart on the object's final write (below).
 * These are effects of the ending, listed in src/ending-plan.ts, every statement of the ending's transaction guarded
 * by {@link endingGuard}: a repeated ending (idempotent final write, a cancel racing the object's end, the dead-letter
 * consumer) adds nothing, and D1 runs transactions one at a time, so exactly one ending sees the last count.
 *
 * The object's final write, on every item, runs only the count: its status update returns
 * {@link BATCH_TO_COMPLETE}, and the write whose count ended the last item runs the completion's statements (each
 * effect's `completion`) in a second transaction, selecting the batch by "every item ended, not marked yet" alone,
 * so whoever runs them acts once: that write; its repeat when the write's answer was lost or its object crashed
 * before the completion (which reads the batch from the row, its status update returning nothing); or the sweeper,
 * which alone finishes a completion that failed after the write returned (nothing repeats that write).
 *
 * A batch with a budget also books the item's usage and releases its grant (./budget-claims.ts).
 *
 * Cost: a few single-row statements per ending, whatever the batch's size (evaluations outside a
 * batch match no row).
 */
import type { BatchToComplete, Ending, EndingEffect } from '../evaluations/ending.js';
import { endingGuard } from '../evaluations/ending.js';
import { OPEN_FROM_AFTER_ENDING } from '../evaluations/batch-open.js';
import type { TerminalStatus } from '../evaluations/status.js';
import { budgetEndTerms } from './budget-claims.js';
import { dropBatchGroupsStatements } from '../evaluations/task-groups.js';
import { claimWithCountTerms } from './window-claims.js';
import type { BatchCompletion } from './completion-event.js';
import {
  PENDING_FLUSH_AT,
  flushPendingStatement,
  pendingAppendBinds,
  pendingAppendSql,
  pendingGroupsJson,
} from '../tenants/usage-rollup.js';
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

/** Statements that emit a batch's completion event (see ./completion-event.ts); tests pass their own. */
export type CompletionEmitter = (db: D1Database, completion: BatchCompletion) => D1PreparedStatement[];

/**
 * SQL over the ended `evaluations` row (the final write's status update returns it, after the ending's count): its
 * batch's id when every item of it has ended and it is not marked yet, i.e. this ending completed it; else NULL.
 */
export const BATCH_TO_COMPLETE = `(SELECT b.id FROM batches b WHERE b.id = evaluations.batch_id AND ${ALL_ENDED})`;

/** A condition on the batch row `b` (with its binds) that holds exactly while its completion is to be written. */
interface Completing {
  where: string;
  binds: string[];
}

/** The ending's batch row exactly while this ending completes it (in its transaction, before the mark). */
function completing(ending: Ending): Completing {
  return {
    where: `b.id = ${BATCH_OF_ENDING} AND ${ALL_ENDED} AND ${endingGuard(ending.status)}`,
    binds: [ending.id, ending.id],
  };
}

/** The batch to complete on its own (src/evaluations/ending.ts `completeBatch`), until it is marked. */
function completingApart(c: BatchToComplete): Completing {
  return { where: `b.id = ? AND ${ALL_ENDED}`, binds: [c.batchId] };
}

/** `c` as the `FROM batches b WHERE …` clause a {@link CompletionEmitter} reads. */
const rowsOf = (c: Completing) => ({ rows: `FROM batches b WHERE ${c.where}`, binds: c.binds });

/**
 * The ending counted in its batch (and, with a budget, its usage booked and its grant released). The same update
 * moves the batch's `open_from` past its items that have ended (src/evaluations/batch-open.ts) and appends the
 * item's usage to the batch's pending list (src/tenants/usage-rollup.ts), neither of which writes a row of its own;
 * the list an earlier ending filled to `PENDING_FLUSH_AT` items goes to the roll-up first, and this count empties it.
 */
export const BATCH_COUNTS: EndingEffect = {
  name: "the batch counts the ending, holds its usage for the roll-up (and books its spend against the batch's budget)",
  handedOn: false,
  batchOnly: true,
  statements: (db, ending) => {
    const column = COUNTER[ending.status];
    const guard = endingGuard(ending.status);
    // An item's final write claims the batch's next items in this same write (./pump.ts `CLAIM_BATCH_WINDOW`
    // reads them by its token); the other end paths only count.
    const token = ending.writeToken;
    const calls = ending.written?.calls ?? [];
    const groups = calls.length === 0 ? null : pendingGroupsJson(calls);
    const budget = budgetEndTerms(ending);
    return [
      flushPendingStatement(db, `b.id = ${BATCH_OF_ENDING} AND ${guard}`, [ending.id, ending.id], PENDING_FLUSH_AT),
      db
        .prepare(
          `UPDATE batches SET ${column} = ${column} + 1, updated_at = ?, ${OPEN_FROM_AFTER_ENDING}${token === undefined ? '' : `, ${claimWithCountTerms()}`},
             ${pendingAppendSql(groups !== null)}, ${budget.sql}
           WHERE id = ${BATCH_OF_ENDING} AND ${guard}`,
        )
        .bind(
          ending.now,
          ending.id,
          ...(token === undefined ? [] : [token]),
          ...(groups === null ? [] : pendingAppendBinds(ending.id, groups)),
          ...budget.binds,
          ending.id,
          ending.id,
        ),
    ];
  },
};

/**
 * The completion event of the batch this ending completes, emitted by `emit` (default: into the webhooks
 * outbox, ./completion-event.ts). Runs after {@link BATCH_COUNTS} and before {@link BATCH_COMPLETED}: its
 * clause selects the batch row only until the row is marked.
 */
export function batchCompletionEvent(
  emit: CompletionEmitter = batchCompletionEventStatements,
  name = 'the completing ending writes the batch.completed / meta_evaluation.completed event',
): EndingEffect {
  return {
    name,
    handedOn: true,
    batchOnly: true,
    statements: (db, ending) => emit(db, { ...rowsOf(completing(ending)), causeId: ending.id, now: ending.now }),
    completion: (db, c) => emit(db, { ...rowsOf(completingApart(c)), causeId: c.causeId, now: c.now }),
  };
}

/**
 * The statements of {@link BATCH_COMPLETED} for the batch `c` selects: the task groups erased (the owed tasks moved
 * first, but that of `except`, whose object holds its task), the pending usage rolled up, the mark.
 */
function completedStatements(db: D1Database, c: Completing, except: string | null, now: number): D1PreparedStatement[] {
  return [
    ...dropBatchGroupsStatements(db, rowsOf(c), except),
    flushPendingStatement(db, c.where, c.binds),
    db
      .prepare(
        `UPDATE batches AS b SET status = CASE WHEN b.cancel_requested_at IS NULL THEN 'completed' ELSE 'cancelled' END,
           completed_at = ?, updated_at = ?, usage_pending = NULL
         WHERE ${c.where}`,
      )
      .bind(now, now, ...c.binds),
  ];
}

/**
 * The batch's mark `completed`, or `cancelled` after a cancel: in the transaction of the ending that brings the counts
 * to the total on `markEnded`'s paths, in a completion of its own after the object's final write that did. Before
 * the mark, it erases the batch's task groups (src/evaluations/task-groups.ts), moving the tasks its items still owe
 * D1 to rows of their own (a final write's own task is held by its object), and adds the batch's pending usage to
 * the roll-up, which the mark empties.
 */
export const BATCH_COMPLETED: EndingEffect = {
  name: "the completing ending erases the batch's task groups, rolls its pending usage up and marks it completed (or cancelled)",
  handedOn: false,
  batchOnly: true,
  statements: (db, ending) =>
    completedStatements(db, completing(ending), ending.written === undefined ? null : ending.id, ending.now),
  // After the completing final write committed, its own usage is booked (`billed_calls`): it owes no task.
  completion: (db, c) => completedStatements(db, completingApart(c), null, c.now),
};
