/**
 * @module
 * A run's work goes through the batches queue (`tribunal-batches`, the batches' fan-out work), one message
 * per run (ids only): at-least-once, so a worker that dies mid-run leaves its message to be delivered again,
 * and the redelivery resumes from the stored items (./run-process.ts). A message whose run another worker
 * holds comes back when that lease runs out; one whose slice ended queues the run again. A batch-tier run
 * waiting on provider batches is queued again by their outcomes ({@link runWaveResults}), and by one delayed
 * message (`wake_at`) should an outcome's message be lost or a Tribunal judge's evaluation be awaited.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { recordDb } from '../config/d1-shards.js';
import type { LlmAttempt, LlmCallRequest } from '../engine/call.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { log } from '../log/log.js';
import { decide } from '../waves/item.js';
import type { WaveCall, WaveResult } from '../waves/rpc.js';
import { processRun } from './run-process.js';
import type { RunRecord } from './run-rows.js';
import { parseWaveCallId, waveRow } from './run-waves.js';

/** A run's queue message. */
export const EvalRunMessageSchema = z
  .object({ op: z.literal('eval_run'), runId: z.string().min(1).max(200), tenant: z.string().min(1).max(200) })
  .strict();
/** A parsed run message. */
export type EvalRunMessage = z.infer<typeof EvalRunMessageSchema>;

/** Whether an id names an Evals run (a wave coordinator's "evaluation" for a batch-tier run's calls). */
export function isRunId(id: string): boolean {
  return id.startsWith('evalrun_');
}

/** Queues a run's work, at once or after `delaySeconds`. */
export async function queueRun(env: Bindings, tenant: string, runId: string, delaySeconds = 0): Promise<void> {
  const message = { op: 'eval_run', runId, tenant } satisfies EvalRunMessage;
  await env.BATCHES.send(message, delaySeconds > 0 ? { delaySeconds } : {});
}

/** How long a run may sit `queued` before a read queues it again, ms (its first message was lost). */
const QUEUED_GRACE_MS = 10_000;

/**
 * Whether a read should queue run `r` again: it is unfinished and nobody works on it (queued for longer than
 * its first message takes, or in progress with a lapsed lease: its worker died) and no delayed message is due
 * for it (a batch-tier run waiting on its provider batches).
 */
export function stalled(r: RunRecord, now: number): boolean {
  if (r.status === 'queued') return now - r.createdAt > QUEUED_GRACE_MS;
  return r.status === 'in_progress' && (r.leaseUntil ?? 0) < now && (r.wakeAt ?? 0) < now;
}

/** Handles one run message: `ack`, or come back after `retryInSeconds` (another worker holds the run). */
export async function handleRunMessage(env: Bindings, m: EvalRunMessage): Promise<'ack' | { retryInSeconds: number }> {
  const progress = await processRun(env, m.tenant, m.runId);
  if (progress.kind === 'busy') {
    return { retryInSeconds: Math.max(1, Math.ceil((progress.until - Date.now()) / 1000) + 1) };
  }
  if (progress.kind === 'more') await queueRun(env, m.tenant, m.runId);
  if (progress.kind === 'waiting' && progress.wakeInMs !== null)
    await queueRun(env, m.tenant, m.runId, Math.max(1, Math.ceil(progress.wakeInMs / 1000)));
  return 'ack';
}

/**
 * The coordinator's outcomes for run `runId` (./run-waves.ts): each stored as its call's answer, its next
 * try or its synchronous fallback (a stale one, for a try already decided, is ignored), then the run queued
 * for its next pass. Answers no further calls: the pass registers them.
 */
export async function runWaveResults(
  env: Bindings,
  runId: string,
  results: readonly WaveResult[],
): Promise<WaveCall[]> {
  const db = await recordDb(env, runId);
  const run = await db
    .prepare(`SELECT tenant, status FROM eval_runs WHERE id = ? AND deleted_at IS NULL`)
    .bind(runId)
    .first<{ tenant: string; status: string }>();
  if (!run || (run.status !== 'queued' && run.status !== 'in_progress')) return [];
  const settings = settingsFromEnv(llmEnvOf(env));
  const now = Date.now();
  const updates: D1PreparedStatement[] = [];
  for (const res of results) {
    const ref = parseWaveCallId(res.callId);
    const row = ref && (await waveRow(db, runId, ref.idx, ref.callId));
    const earlier = row ? (JSON.parse(row.attempts) as LlmAttempt[]) : [];
    if (!ref || !row || row.state !== 'wave' || earlier.length + 1 !== res.attempt) {
      log('info', 'wave.stale_result', { evaluationId: runId, callId: res.callId, attempt: res.attempt });
      continue;
    }
    const decision = decide(settings, JSON.parse(row.request) as LlmCallRequest, res, earlier);
    const [state, attempts, result] =
      'store' in decision
        ? (['done', earlier, JSON.stringify(decision.store)] as const)
        : 'retry' in decision
          ? (['wave', decision.retry, null] as const)
          : (['sync', decision.sync, null] as const);
    updates.push(
      db
        .prepare(
          `UPDATE eval_run_wave_calls SET state = ?, attempts = ?, result = ?, updated_at = ?
           WHERE run_id = ? AND idx = ? AND call_id = ? AND state = 'wave' AND json_array_length(attempts) = ?`,
        )
        .bind(state, JSON.stringify(attempts), result, now, runId, ref.idx, ref.callId, earlier.length),
    );
  }
  if (updates.length > 0) await db.batch(updates);
  await queueRun(env, run.tenant, runId);
  return [];
}
