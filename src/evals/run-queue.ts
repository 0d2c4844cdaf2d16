/**
 * @module
 * A run's work goes through the batches queue (`tribunal-batches`, the batches' fan-out work), one message
 * per run (ids only): at-least-once, so a worker that dies mid-run leaves its message to be delivered again,
 * and the redelivery resumes from the stored items (./run-process.ts). A message whose run another worker
 * holds comes back when that lease runs out; one whose slice ended queues the run again.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { processRun } from './run-process.js';
import type { RunRecord } from './run-rows.js';

/** A run's queue message. */
export const EvalRunMessageSchema = z
  .object({ op: z.literal('eval_run'), runId: z.string().min(1).max(200), tenant: z.string().min(1).max(200) })
  .strict();
/** A parsed run message. */
export type EvalRunMessage = z.infer<typeof EvalRunMessageSchema>;

/** Queues a run's work. */
export async function queueRun(env: Bindings, tenant: string, runId: string): Promise<void> {
  await env.BATCHES.send({ op: 'eval_run', runId, tenant } satisfies EvalRunMessage);
}

/** How long a run may sit `queued` before a read queues it again, ms (its first message was lost). */
const QUEUED_GRACE_MS = 10_000;

/**
 * Whether a read should queue run `r` again: it is unfinished and nobody works on it (queued for longer than
 * its first message takes, or in progress with a lapsed lease: its worker died).
 */
export function stalled(r: RunRecord, now: number): boolean {
  if (r.status === 'queued') return now - r.createdAt > QUEUED_GRACE_MS;
  return r.status === 'in_progress' && (r.leaseUntil ?? 0) < now;
}

/** Handles one run message: `ack`, or come back after `retryInSeconds` (another worker holds the run). */
export async function handleRunMessage(env: Bindings, m: EvalRunMessage): Promise<'ack' | { retryInSeconds: number }> {
  const progress = await processRun(env, m.tenant, m.runId);
  if (progress.kind === 'busy') {
    return { retryInSeconds: Math.max(1, Math.ceil((progress.until - Date.now()) / 1000) + 1) };
  }
  if (progress.kind === 'more') await queueRun(env, m.tenant, m.runId);
  return 'ack';
}
