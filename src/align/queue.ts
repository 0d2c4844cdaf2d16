/**
 * @module
 * An alignment's work goes through the batches queue (`tribunal-batches`), one message per job (ids only):
 * at-least-once, so a worker that dies mid-step leaves its message to be delivered again, and the redelivery
 * resumes from the steps the job recorded (./process.ts). A job waiting on a run queues itself again with a
 * delay ({@link POLL_SECONDS}); a message for a job that ended is acked.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { advanceAlignment } from './process.js';
import { getAlignmentById } from './rows.js';

/** Delay between two steps of a job that waits on a run, seconds: 2. */
export const POLL_SECONDS = 2;

/** An alignment's queue message. */
export const AlignMessageSchema = z
  .object({
    op: z.literal('align'),
    alignmentId: z.string().min(1).max(200),
    tenant: z.string().min(1).max(200),
  })
  .strict();
/** A parsed alignment message. */
export type AlignMessage = z.infer<typeof AlignMessageSchema>;

/** Queues a job's next step, after `delaySeconds` (default: at once). */
export async function queueAlignment(env: Bindings, tenant: string, id: string, delaySeconds = 0): Promise<void> {
  const body = { op: 'align', alignmentId: id, tenant } satisfies AlignMessage;
  await env.BATCHES.send(body, delaySeconds > 0 ? { delaySeconds } : {});
}

/** Handles one message: the job's steps as far as they go, then its next message when it waits. */
export async function handleAlignMessage(env: Bindings, m: AlignMessage): Promise<'ack'> {
  const a = await getAlignmentById(tenantDb(env, m.tenant), m.tenant, m.alignmentId);
  if (!a) return 'ack';
  if ((await advanceAlignment(env, a)) === 'wait') await queueAlignment(env, m.tenant, m.alignmentId, POLL_SECONDS);
  return 'ack';
}
