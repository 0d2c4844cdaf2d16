/**
 * @module
 * What must happen, in the same D1 transaction, when an evaluation ends — whoever ends it (the Durable
 * Object's final write, a cancel, the dead-letter consumer). Each effect returns statements that
 * {@link ./results.ts} runs in ONE `batch()` just BEFORE the guarded status update; every statement must be
 * guarded with {@link endingGuard}, so it takes effect exactly when the status update does: once per
 * evaluation, never again on a repeated (idempotent) write, never for a row another writer ended first.
 *
 * Add an effect (webhook events into the outbox, batch progress counters, …) by appending to
 * {@link END_EFFECTS}; keep its code in its own module, importing the types and the guard from
 * ./ending.ts (importing this module would be a cycle). Work that must wait for the commit (a queue send)
 * goes into {@link AFTER_END}; every end path calls {@link afterEnding}.
 */
import { batchProgressEffect } from './batches/progress.js';
import type { Bindings } from './config/bindings.js';
import { log, messageOf } from './log/log.js';
import { evaluationWebhookEffect } from './evaluations/webhook-event.js';
import { dispatchDeliveriesCausedBy } from './webhooks/dispatch.js';
import type { EndEffect, Ending } from './evaluations/ending.js';

export type { EndEffect, Ending } from './evaluations/ending.js';
export { endingGuard, handedOn } from './evaluations/ending.js';

/**
 * Every effect of an ending, in order: the evaluation's own webhook event, then its batch's progress
 * counters and the batch's completion (with its `batch.completed` / `meta_evaluation.completed` event,
 * src/batches/progress.ts), whose data reads the evaluation's row before the status update.
 */
export const END_EFFECTS: readonly EndEffect[] = [evaluationWebhookEffect, batchProgressEffect];

/** The statements of every effect of `ending`, to run before the guarded status update. */
export function endEffectStatements(db: D1Database, ending: Ending): D1PreparedStatement[] {
  return END_EFFECTS.flatMap((effect) => effect(db, ending));
}

/**
 * Work that follows an ending once its transaction committed, e.g. handing the new webhook deliveries to
 * their queue at once. Best effort: each failure is logged, never thrown, because whatever it would have
 * done is durable in D1 and picked up by the cron sweeper anyway (only later).
 */
export type AfterEnd = (env: Bindings, evaluationId: string) => Promise<unknown>;

/**
 * Every follow-up of a committed ending. The Durable Object's final write runs them only when its
 * {@link END_EFFECTS} statements changed a row (or D1 had ended the row elsewhere): a follow-up hands on
 * what an effect wrote, so with nothing written there is nothing to hand on.
 */
export const AFTER_END: readonly AfterEnd[] = [dispatchDeliveriesCausedBy];

/**
 * Runs every {@link AFTER_END} follow-up for the evaluation `evaluationId`, which has just ended (or was
 * found ended: repeats are harmless). Never throws.
 */
export async function afterEnding(env: Bindings, evaluationId: string): Promise<void> {
  await Promise.all(
    AFTER_END.map(async (followUp) => {
      try {
        await followUp(env, evaluationId);
      } catch (e) {
        log('warn', 'on_end.follow_up_failed', { evaluationId, error: messageOf(e) });
      }
    }),
  );
}
