/**
 * @module
 * An alignment's work goes through the batches queue (`tribunal-batches`), one message per job (ids only):
 * at-least-once, so a worker that dies mid-step leaves its message to be delivered again, and the redelivery
 * resumes from the steps the job recorded (./process.ts). A job waiting on a run is resumed by that run's end:
 * the ending that completes it queues the job at once ({@link resumeAlignmentsAfter}, a step of the ending plan).
 * Its own delayed message, with backoff ({@link waitDelaySeconds}), is only the net for a lost one; a message
 * for a job that ended is acked.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { recordDb, tenantDb } from '../config/d1-shards.js';
import { log } from '../log/log.js';
import { advanceAlignment, REWRITE_METHOD } from './process.js';
import { alignmentsWokenBy, getAlignmentById } from './rows.js';
import type { EndingEffect } from '../evaluations/ending.js';
import { endingGuard } from '../evaluations/ending.js';

/** First delay of a waiting job's own next message, seconds: 5; doubled at each wait up to {@link MAX_WAIT_SECONDS}. */
export const FIRST_WAIT_SECONDS = 5;
/** Longest delay between two looks of a waiting job, seconds: 60. */
export const MAX_WAIT_SECONDS = 60;

/** The delay of a waiting job's next own message after `waits` waits before it: 5, 10, 20, 40, then 60 s. */
export function waitDelaySeconds(waits: number): number {
  return Math.min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** Math.min(waits, 10));
}

/** An alignment's queue message. */
export const AlignMessageSchema = z
  .object({
    op: z.literal('align'),
    alignmentId: z.string().min(1).max(200),
    tenant: z.string().min(1).max(200),
    /** Waits in a row of this message's line (its backoff); absent: 0. */
    waits: z.number().int().nonnegative().optional(),
    /** True: a run's end woke the job; when it waits again it queues no message (its own line goes on). */
    resumed: z.boolean().optional(),
  })
  .strict();
/** A parsed alignment message. */
export type AlignMessage = z.infer<typeof AlignMessageSchema>;

/** Queues a job's next step, after `delaySeconds` (default: at once). */
export async function queueAlignment(
  env: Bindings,
  tenant: string,
  id: string,
  delaySeconds = 0,
  extra: Pick<AlignMessage, 'waits' | 'resumed'> = {},
): Promise<void> {
  const body = { op: 'align', alignmentId: id, tenant, ...extra } satisfies AlignMessage;
  await env.BATCHES.send(body, delaySeconds > 0 ? { delaySeconds } : {});
}

/** Handles one message: the job's steps as far as they go, then, when it waits, its line's next message. */
export async function handleAlignMessage(env: Bindings, m: AlignMessage): Promise<'ack'> {
  const a = await getAlignmentById(tenantDb(env, m.tenant), m.tenant, m.alignmentId);
  if (!a) return 'ack';
  if ((await advanceAlignment(env, a)) === 'wait' && m.resumed !== true) {
    const waits = m.waits ?? 0;
    await queueAlignment(env, m.tenant, m.alignmentId, waitDelaySeconds(waits), { waits: waits + 1 });
  }
  return 'ack';
}

/**
 * An effect of every ending: a job waiting on the ending evaluation is marked woken by it (`woken_by`), in the
 * ending's transaction; a written row makes the final write run the after-commit steps, {@link resumeAlignmentsAfter}.
 * A job waits on one evaluation only for its criteria rewrite ({@link REWRITE_METHOD}; on a run, it waits on the
 * run's batch), so an ending that knows another method has nothing to wake: no statement.
 */
export const WAKE_WAITING_ON_EVALUATION: EndingEffect = {
  name: 'an alignment waiting on the ending evaluation is woken',
  handedOn: true,
  statements: (db, ending) =>
    ending.method !== undefined && ending.method !== REWRITE_METHOD
      ? []
      : [
          db
            .prepare(
              `UPDATE alignments SET woken_by = ?, updated_at = ?
         WHERE status = 'running' AND waiting_on = ? AND ${endingGuard(ending.status)}`,
            )
            .bind(ending.id, ending.now, ending.id, ending.id),
        ],
};

/**
 * A completion emitter (src/batches/progress.ts `batchCompletionEvent`): the ending that completes a batch marks
 * the job waiting on it woken by that ending, in its transaction (`rows`: the completing batch's row, guarded).
 */
export function wakeWaitingOnBatch(
  db: D1Database,
  c: { rows: string; binds: readonly (string | number | null)[]; causeId: string; now: number },
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE alignments SET woken_by = ?, updated_at = ? WHERE status = 'running' AND waiting_on = (SELECT b.id ${c.rows})`,
      )
      .bind(c.causeId, c.now, ...c.binds),
  ];
}

/**
 * After evaluation `evaluationId` ended: queues at once every job its ending woke. Never throws (a job it misses
 * is found by its own delayed message).
 */
export async function resumeAlignmentsAfter(env: Bindings, evaluationId: string): Promise<void> {
  try {
    const jobs = await alignmentsWokenBy(await recordDb(env, evaluationId), evaluationId);
    for (const j of jobs) await queueAlignment(env, j.tenant, j.id, 0, { resumed: true });
  } catch (e) {
    log('warn', 'align.resume_failed', { evaluationId, error: e instanceof Error ? e.message : String(e) });
  }
}
