/**
 * @module
 * A run at the batch tier (`service_tier: batch`): its model calls go through the providers' Batch API in the
 * same waves as Tribunal's evaluations (src/waves/: one coordinator per (run, provider, model), the same
 * `placeCall` line and `decide` reading of each outcome). A pass over the run's items (./run-process.ts) never
 * waits on a provider: a call with no answer yet is registered with its coordinator (again, idempotently, on
 * every pass) and the item is left ungraded; the coordinator hands the outcomes to {@link runWaveResults},
 * (./run-queue.ts), which stores each in `eval_run_wave_calls` and queues the run, whose next pass replays them through the
 * item's stored calls (./run-ledger.ts: stored once, billed at tier `batch`) and registers the calls that now
 * follow (a grader's after its sample). A failed or expired line goes in the next wave, counted as a try; past
 * the retry policy's tries the call goes once as a synchronous standard call. A Tribunal judge as a grader's
 * model runs its evaluation at tier `batch` itself; the pass looks at it and goes on without waiting.
 *
 * ```
 * pass ── call answered? ── eval_run_wave_calls.state = done ──▶ replayed, stored, billed (tier batch)
 *      └─ no ──▶ row `wave` + WAVES.register(<run>|<provider>|<model>, run, [<idx>:<call>]) ── wait
 * coordinator ── outcomes ──▶ runWaveResults: done / next try / sync ──▶ queue the run ──▶ next pass
 * ```
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmAttempt, LlmCallRequest, LlmCallResult, LlmFunction } from '../engine/call.js';
import type { LlmSettings } from '../llm/settings.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { log, messageOf } from '../log/log.js';
import type { PlacedCall } from '../waves/item.js';
import { placeCall } from '../waves/item.js';
import type { WaveCall } from '../waves/rpc.js';
import type { RunRecord } from './run-rows.js';
import { UNENDED } from './run-rows.js';

/** The error code of a call that waits for its provider batch (or a judge's evaluation): the item waits. */
export const WAITING = 'waiting_for_batch';

/** What one item's pass left waiting: calls to register, and Tribunal judges' evaluations not ended yet. */
export interface Waiting {
  calls: PlacedCall[];
  judges: number;
}

/** A fresh, empty {@link Waiting}. */
export function nothingWaiting(): Waiting {
  return { calls: [], judges: 0 };
}

/** The coordinator's call id of item `idx`'s call `callId` (unique within the run: the run is its "evaluation"). */
function waveCallId(idx: number, callId: string): string {
  return `${String(idx)}:${callId}`;
}

/** The item and call of a coordinator's call id (see {@link waveCallId}), or null. */
export function parseWaveCallId(id: string): { idx: number; callId: string } | null {
  const at = id.indexOf(':');
  const idx = Number(id.slice(0, at));
  return at > 0 && Number.isInteger(idx) ? { idx, callId: id.slice(at + 1) } : null;
}

/** An `eval_run_wave_calls` row's state. */
export interface WaveRow {
  request: string;
  attempts: string;
  state: 'wave' | 'sync' | 'done';
  result: string | null;
}

/** Item `idx`'s call `callId` in its waves, or null. */
export async function waveRow(db: D1Database, runId: string, idx: number, callId: string): Promise<WaveRow | null> {
  return db
    .prepare(
      `SELECT request, attempts, state, result FROM eval_run_wave_calls WHERE run_id = ? AND idx = ? AND call_id = ?`,
    )
    .bind(runId, idx, callId)
    .first<WaveRow>();
}

/** A result that says the call waits (never stored: storedLlm and the verdict cache keep only answers). */
export function waitingResult(request: LlmCallRequest, why: string): LlmCallResult {
  return { id: request.id, ok: false, error: { code: WAITING, message: why } };
}

/**
 * `llm` of item `idx` of a batch-tier run (see the module note): a delivered answer is returned; a call past
 * its tries in waves goes to `sync` (the standard tier); any other is placed in its wave, added to
 * `waiting.calls`, and answered {@link waitingResult}.
 */
export function waveLlm(
  db: D1Database,
  run: RunRecord,
  idx: number,
  settings: LlmSettings,
  waiting: Waiting,
  sync: LlmFunction,
): LlmFunction {
  return async (request) => {
    const row = await waveRow(db, run.id, idx, request.id);
    if (row?.state === 'done' && row.result !== null) return JSON.parse(row.result) as LlmCallResult;
    if (row?.state === 'sync') return sync(request);
    const earlier = row ? (JSON.parse(row.attempts) as LlmAttempt[]).length : 0;
    const placed = placeCall(settings, run.id, { ...request, id: waveCallId(idx, request.id) }, earlier, run.id);
    if (!row) {
      await db
        .prepare(
          // Not for a deleted run: its delete erased these rows, and `request` holds the item's content.
          `INSERT INTO eval_run_wave_calls (run_id, idx, call_id, request, coordinator, updated_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM eval_runs WHERE id = ?1 AND deleted_at IS NULL)
           ON CONFLICT DO NOTHING`,
        )
        .bind(run.id, idx, request.id, JSON.stringify(request), placed.coordinator, Date.now())
        .run();
    }
    waiting.calls.push(placed);
    return waitingResult(request, 'waiting for its provider batch');
  };
}

/** Whether the run still runs (neither ended nor deleted): only then do its calls go to a coordinator. */
async function stillRunning(db: D1Database, runId: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS one FROM eval_runs WHERE id = ? AND ${UNENDED} AND deleted_at IS NULL`)
    .bind(runId)
    .first();
  return row !== null;
}

/**
 * Registers the waiting calls with their coordinators (one RPC per coordinator; idempotent there) and notes
 * the coordinators on the run (`waves`), which a cancel or delete withdraws from. Nothing for a run cancelled
 * or deleted; one that ends while registering (its withdraw read `waves` before this note) is withdrawn here:
 * the note is written only on a running run, after the registering, so either the end's withdraw sees it or
 * this note misses and withdraws.
 */
export async function registerWaves(env: Bindings, db: D1Database, run: RunRecord, calls: readonly PlacedCall[]) {
  const by = new Map<string, WaveCall[]>();
  for (const c of calls) by.set(c.coordinator, [...(by.get(c.coordinator) ?? []), c.call]);
  if (by.size === 0 || !(await stillRunning(db, run.id))) return;
  for (const [name, list] of by) await env.WAVES.get(env.WAVES.idFromName(name)).register(name, run.id, list);
  const noted = await db
    .prepare(
      `UPDATE eval_runs SET waves = (SELECT json_group_array(value) FROM (
         SELECT value FROM json_each(COALESCE(waves, '[]')) UNION SELECT value FROM json_each(?)))
       WHERE id = ? AND ${UNENDED} AND deleted_at IS NULL`,
    )
    .bind(JSON.stringify([...by.keys()]), run.id)
    .run();
  if (noted.meta.changes === 0) await withdrawFrom(env, run.id, [...by.keys()]);
}

/** Whether an outcome of the run's waves was stored at or after `since` (epoch ms). */
export async function deliveredSince(db: D1Database, runId: string, since: number): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 AS one FROM eval_run_wave_calls WHERE run_id = ? AND updated_at >= ? AND (state != 'wave' OR attempts != '[]') LIMIT 1`,
    )
    .bind(runId, since)
    .first();
  return row !== null;
}

/**
 * Tells the coordinators of an ended run (cancelled, deleted) to drop its calls (a provider batch left with
 * none is cancelled). Lines already at the provider may run all the same; their outcomes are not stored.
 */
export async function withdrawWaves(env: Bindings, db: D1Database, runId: string): Promise<void> {
  const row = await db
    .prepare(`SELECT waves FROM eval_runs WHERE id = ?`)
    .bind(runId)
    .first<{ waves: string | null }>();
  await withdrawFrom(env, runId, JSON.parse(row?.waves ?? '[]') as string[]);
}

/** Withdraws the run's calls from each named coordinator; a failure is logged, the rest still withdrawn. */
async function withdrawFrom(env: Bindings, runId: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    try {
      await env.WAVES.get(env.WAVES.idFromName(name)).withdraw(name, runId);
    } catch (e) {
      // The provider batch then runs to its end and its outcomes are dropped: the cancel itself stands.
      log('warn', 'eval_run.withdraw_failed', { runId, coordinator: name, error: messageOf(e) });
    }
  }
}

/** The run's LLM settings for placing its calls. */
export function waveSettings(env: Bindings): LlmSettings {
  return settingsFromEnv(llmEnvOf(env));
}
