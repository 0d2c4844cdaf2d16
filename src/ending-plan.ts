/**
 * @module
 * What an evaluation's ending does, in order and in which transaction: the one list. Whoever ends an
 * evaluation (the Durable Object's final write, a cancel or failure through the object, the dead-letter
 * consumer, a batch's cancel fan-out) runs this plan through the ending's own functions
 * (src/evaluations/ending.ts), which take it as a parameter: the D1 layer imports no feature, and each
 * feature implements its part of the typed interface there.
 *
 * ```
 * ONE D1 transaction (the ending's batch())
 *   final write only: verdict, transcript and usage rows            evaluations/final-write.ts
 *   1. the evaluation.<status> webhook event + deliveries   [hands on]   evaluations/webhook-event.ts
 *      (the tenant's OTLP export among them: a sourced, finished one)   exports/delivery.ts
 *   2. a succeeded verdict becomes its key's verdict cache entry         evaluations/verdict-cache-entry.ts
 *   3. the batch counts the ending (budget: spend booked, grant freed)   batches/progress.ts
 *   4-5: only in the ending that completes the batch (the final write: apart, see below)
 *   4. the batch.completed / meta_evaluation.completed event [hands on]  batches/progress.ts
 *   4b. a comparison's batch: the comparison marked completed [hands on] comparisons/finish.ts
 *   4c. an alignment waiting on the batch woken [hands on]               align/queue.ts
 *   5. the task groups erased, the pending usage rolled up, the batch
 *      marked completed (or cancelled)                                   batches/progress.ts
 *   -- the guarded status update (frees the tenant's running slot) --   evaluations/ending.ts
 *   final write only, after the status update:
 *   6. the tenant's oldest waiting evaluation takes the slot             evaluations/admission.ts
 *   7. the batch's next items are claimed (the first takes a slot)       batches/pump.ts
 *   7b. a tenant that stores no content: read (returned by the status update), erased after commit   retention/content.ts
 *   the status update returns whether the final write's count ended the batch's last item
 * the final write only, after its commit, when it did: 4-5 in ONE transaction of their own, selecting the batch
 *   by its counts alone (every item ended, not marked yet); a crash before it leaves that state, which a repeat
 *   of the write (it reads the row's batch when it changed nothing) or else the sweeper completes (`completeBatchInD1`)
 * after the commit
 *   8. the new webhook deliveries go to their queue                      webhooks/dispatch.ts
 *   9. a tenant that stores no content: task texts hashed, transcript     retention/content.ts
 *      and the object's storage erased
 *      (markEnded: when it ended the row; the final write: when a [hands on] effect wrote a row, or D1
 *      had ended the row elsewhere)
 *   10. a comparison marked in 4b: its statistics stored and comparison.completed written, once   comparisons/finish.ts
 *   final write only: 6's evaluation starts; 7's items start             (the steps' own follow-ups)
 * ```
 *
 * Steps 1-5 carry the ending's guard, so they take effect exactly when the status update does: once per
 * evaluation, never on a repeat, never for a row another writer ended; apart, 4-5 act once per batch by its counts. Every after-commit step is best
 * effort: what it would do is durable in D1, and the cron sweeper does it later if it fails.
 */
import { BATCH_COMPLETED, BATCH_COUNTS, BATCH_TO_COMPLETE, batchCompletionEvent } from './batches/progress.js';
import { CLAIM_BATCH_WINDOW } from './batches/pump.js';
import type { Bindings } from './config/bindings.js';
import { ADMIT_NEXT_WAITING } from './evaluations/admission.js';
import type { EndingPlan } from './evaluations/ending.js';
import {
  afterEnding as afterEndingWith,
  completeBatch as completeBatchWith,
  markEnded as markEndedWith,
} from './evaluations/ending.js';
import type { FinalWrite, FinalWriteResult } from './evaluations/final-write.js';
import { writeFinal as writeFinalWith } from './evaluations/final-write.js';
import type { EvaluationError } from './evaluations/live-events.js';
import type { EndStatus } from './evaluations/status.js';
import { evaluationWebhookEvent } from './evaluations/webhook-event.js';
import { otlpExportRecipients } from './exports/delivery.js';
import { VERDICT_CACHE_ENTRY } from './evaluations/verdict-cache-entry.js';
import { dispatchDeliveriesCausedBy } from './webhooks/dispatch.js';
import { finishComparisonOf, markComparisonCompleting } from './comparisons/finish.js';
import { ERASE_UNSTORED_CONTENT, ERASE_UNSTORED_CONTENT_AFTER_FINAL } from './retention/content.js';
import { recordDb } from './config/d1-shards.js';
import { resumeAlignmentsAfter, WAKE_WAITING_ON_EVALUATION, wakeWaitingOnBatch } from './align/queue.js';

/** What an ending does (see the module note). */
export const ENDING: EndingPlan = {
  beforeStatus: [
    // The tenant's OTLP export is one more recipient of the evaluation's event (src/exports/delivery.ts).
    evaluationWebhookEvent(otlpExportRecipients),
    VERDICT_CACHE_ENTRY,
    BATCH_COUNTS,
    batchCompletionEvent(),
    batchCompletionEvent(markComparisonCompleting, 'the completing ending marks its comparison completed'),
    WAKE_WAITING_ON_EVALUATION,
    batchCompletionEvent(wakeWaitingOnBatch, 'the completing ending wakes an alignment waiting on its batch'),
    BATCH_COMPLETED,
  ],
  afterStatus: [ADMIT_NEXT_WAITING, CLAIM_BATCH_WINDOW, ERASE_UNSTORED_CONTENT_AFTER_FINAL],
  afterCommit: [
    { name: 'the new webhook deliveries go to their queue', run: dispatchDeliveriesCausedBy },
    {
      name: "a completed comparison's statistics are stored and comparison.completed written",
      run: finishComparisonOf,
    },
    {
      name: 'an alignment waiting on the evaluation, or on the batch it completed, goes on',
      run: resumeAlignmentsAfter,
    },
    ERASE_UNSTORED_CONTENT,
  ],
  batchToComplete: BATCH_TO_COMPLETE,
};

/**
 * Ends evaluation `id` as failed or cancelled in D1 unless it has already ended, with every effect of the
 * plan's transaction; the caller runs {@link afterEnding} when it returns true (this call ended the row).
 */
export function markEnded(
  db: D1Database,
  id: string,
  status: EndStatus,
  error: EvaluationError | null,
  now: number,
): Promise<boolean> {
  return markEndedWith(db, ENDING, { id, status, error, now });
}

/** The plan's after-commit steps for `evaluationId`, which has just ended (repeats are harmless). Never throws. */
export function afterEnding(env: Bindings, evaluationId: string): Promise<void> {
  return afterEndingWith(env, ENDING, evaluationId);
}

/**
 * Ends evaluation `id` in D1 alone (no object: the dead-letter consumer, a batch item never handed over), then,
 * when this call ended it, runs the after-commit steps. @returns whether this call ended it.
 */
export async function endInD1(env: Bindings, id: string, status: EndStatus, error: EvaluationError): Promise<boolean> {
  const ended = await markEnded(await recordDb(env, id), id, status, error, Date.now());
  if (ended) await afterEnding(env, id);
  return ended;
}

/** The object's final write with the plan (see `writeFinal` in src/evaluations/final-write.ts). */
export function writeFinal(
  db: D1Database,
  w: FinalWrite,
  extra: readonly D1PreparedStatement[] = [],
): Promise<FinalWriteResult> {
  return writeFinalWith(db, ENDING, w, extra);
}

/**
 * Completes batch `batchId` of `db` (the database the caller read it from: no lookup of its shard), every item of
 * which has ended, unless it is marked already (4-5 of the plan, on their own: `completeBatch` in
 * src/evaluations/ending.ts), then runs the after-commit steps for `causeId` (an item of it, or the batch itself
 * when none is left in D1) when they have something to hand on. The sweeper's net for a final write that counted
 * the last item and did not get to complete the batch. @returns whether this call completed it.
 */
export async function completeBatchInD1(
  env: Bindings,
  db: D1Database,
  batchId: string,
  causeId: string,
): Promise<boolean> {
  const done = await completeBatchWith(db, ENDING, { batchId, causeId, now: Date.now() });
  if (done.handedOn > 0) await afterEnding(env, causeId);
  return done.changes > 0;
}
