/**
 * @module
 * The D1 reads and writes of a running evaluation: loading its job, reading its status, marking it
 * running, progress, and the sweeper's stalled-job query. Its end is ./ending.ts.
 *
 * Every status change is guarded by the status module's SQL guard (`sqlMayBecome`, i.e. the row has not
 * ended), so an evaluation that has ended never changes again, whoever writes second (DO, DLQ consumer,
 * API cancel). Times are epoch milliseconds.
 */
import { configSql } from './config-rows.js';
import { taskSql } from './task-rows.js';
import type { EvaluationError } from './live-events.js';
import type { EvaluationStatus } from './status.js';
import { SQL_NOT_ENDED, sqlMayBecome, sqlNotEnded } from './status.js';
import { batchOpenItems } from './batch-open.js';
import type { CacheHit } from '../verdict-cache/hit.js';
import { hitColumns, hitOf } from '../verdict-cache/hit.js';
import { cacheEntrySql } from '../verdict-cache/rows.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';

/**
 * The stored error of a row from its `error_code` / `error_message` columns, or null when it has none.
 * @param code the `error_code` column.
 * @param message the `error_message` column (an absent message reads as '').
 */
export function errorOf(code: string | null, message: string | null): EvaluationError | null {
  return code !== null ? { code, message: message ?? '' } : null;
}

/**
 * What the Durable Object needs to run an evaluation. Deliberately without a status: the API's fast
 * start hands this over right after the insert, and a status written by the caller would go stale the
 * moment a cancel lands (the object decides from its own storage and D1, never from the caller).
 */
export interface StartJob {
  id: string;
  tenant: string;
  method: string;
  /** Resolved method config, JSON text. */
  config: string;
  /** Task, JSON text. */
  task: string;
  /** The batch it belongs to (src/batches), null for none; absent when the caller does not know. */
  batchId?: string | null;
  /**
   * A verdict cache hit marked when it was created (src/verdict-cache/): the object ends it at once with the
   * cached verdict, making no LLM call. Null or absent: a miss (or the source was deleted meanwhile), it runs.
   */
  cached?: CacheHit | null;
  /**
   * Whether its mode and key let a succeeded verdict become its key's verdict cache entry (a `use` or `refresh`
   * evaluation with a key: src/verdict-cache/rows.ts `cacheEntrySql`); false lets its final write leave the
   * entry's statement out. True for a hit row too (its mode is `use`): the object, which knows the hit (`cached`),
   * makes its own flag false for it (durable-objects/evaluation/lifecycle.ts). Absent: unknown (the statement runs,
   * and its SQL decides).
   */
  cacheEntry?: boolean;
  /** The service tier it runs at (src/tiers/); absent: `standard` (rows from before tiers). */
  tier?: Tier;
  /** What a flex refusal leads to; absent: `standard`. */
  flexFallback?: FlexFallback;
  /** The rubric's content it judges by, JSON text; null or absent for none. */
  rubric?: string | null;
  /**
   * True when D1 shows it `running` already (the API's insert marks it: ./insert-rows.ts `insertEvaluation`): the
   * object writes no running mark of its own. Absent: the object marks it ({@link markRunning}).
   */
  markedRunning?: boolean;
}

/**
 * SQL giving the rubric content (JSON text, or NULL) of the evaluation row aliased `alias`: evaluations name
 * their rubric by hash, its content is stored once per tenant (src/rubrics, `rubric_contents`).
 */
export function rubricContentSql(alias: string): string {
  return `(SELECT rc.content FROM rubric_contents rc WHERE rc.tenant = ${alias}.tenant AND rc.hash = ${alias}.rubric_hash)`;
}

/** An `evaluations` row as loaded from D1: the job plus its current status and error. */
export interface EvaluationJob extends StartJob {
  status: EvaluationStatus;
  /** Set when the row ended with an error (failed/cancelled), else null. */
  error: EvaluationError | null;
  /**
   * Set when the evaluation must end `cancelled` instead of starting: its batch was cancelled while it
   * waited (src/batches), so it never starts. Null otherwise.
   */
  cancel: EvaluationError | null;
}

/** The error of an item whose batch was cancelled before it started. */
export const BATCH_CANCELLED_ERROR: EvaluationError = { code: 'cancelled', message: 'the batch was cancelled' };

/** Loads the job for `id` (and whether its batch was cancelled, in the same read), or null when there is no such row. */
export async function loadJob(db: D1Database, id: string): Promise<EvaluationJob | null> {
  const row = await db
    .prepare(
      `SELECT id, tenant, status, method, ${configSql('evaluations')} AS config, ${taskSql('evaluations')} AS task, error_code, error_message, batch_id, tier, flex_fallback, ${hitColumns()},
         ${cacheEntrySql('evaluations')} AS cache_entry,
         (SELECT batches.cancel_requested_at FROM batches WHERE batches.id = evaluations.batch_id) AS batch_cancelled_at,
         ${rubricContentSql('evaluations')} AS rubric
       FROM evaluations WHERE id = ?`,
    )
    .bind(id)
    .first<{
      id: string;
      tenant: string;
      status: EvaluationStatus;
      method: string;
      config: string;
      task: string | null;
      error_code: string | null;
      error_message: string | null;
      batch_id: string | null;
      cache_from: string | null;
      cached_verdict: string | null;
      cache_entry: number;
      tier: Tier;
      flex_fallback: FlexFallback;
      batch_cancelled_at: number | null;
      rubric: string | null;
    }>();
  if (!row) return null;
  return {
    id: row.id,
    tenant: row.tenant,
    status: row.status,
    method: row.method,
    config: row.config,
    // None kept in D1 only once its object holds it, which then never asks: read as no task (a failed start).
    task: row.task ?? 'null',
    batchId: row.batch_id,
    cached: hitOf(row),
    cacheEntry: row.cache_entry === 1,
    tier: row.tier,
    flexFallback: row.flex_fallback,
    rubric: row.rubric,
    error: errorOf(row.error_code, row.error_message),
    cancel: row.batch_cancelled_at !== null ? BATCH_CANCELLED_ERROR : null,
  };
}

/** Status and progress columns of one evaluation, or null. */
export async function readStatus(
  db: D1Database,
  id: string,
): Promise<{ status: EvaluationStatus; callsDone: number; updatedAt: number; error: EvaluationError | null } | null> {
  const row = await db
    .prepare('SELECT status, calls_done, updated_at, error_code, error_message FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{
      status: EvaluationStatus;
      calls_done: number;
      updated_at: number;
      error_code: string | null;
      error_message: string | null;
    }>();
  return row
    ? {
        status: row.status,
        callsDone: row.calls_done,
        updatedAt: row.updated_at,
        error: errorOf(row.error_code, row.error_message),
      }
    : null;
}

/**
 * Marks the evaluation running (keeps the first `started_at` and the first `engine_version`); no-op once
 * it has ended.
 * @param engineVersion the engine version the object started it with (src/engine/version.ts).
 * @returns true when a row changed; false means the row has ended (or does not exist), so the caller
 *   must not go on as if it were running.
 */
export async function markRunning(
  db: D1Database,
  id: string,
  callsPlanned: number,
  now: number,
  engineVersion: string,
): Promise<boolean> {
  const [r] = await db.batch([
    db
      .prepare(
        `UPDATE evaluations SET status = 'running', calls_planned = ?, started_at = COALESCE(started_at, ?), updated_at = ?,
           engine_version = COALESCE(engine_version, ?)
         WHERE id = ? AND ${sqlMayBecome('running')}`,
      )
      .bind(callsPlanned, now, now, engineVersion, id),
  ]);
  return (r?.meta.changes ?? 0) > 0;
}

/**
 * Records progress (`calls_done`, `updated_at`, which the sweeper watches). Never moves `calls_done`
 * backwards, so out-of-order fire-and-forget writes are harmless. Also promotes a `queued` row to
 * `running`: progress proves the object runs it, and a failed {@link markRunning} would otherwise leave
 * D1 showing `queued` for the whole run. Never touches an ended row.
 */
export async function recordProgress(db: D1Database, id: string, callsDone: number, now: number): Promise<void> {
  await db
    .prepare(
      `UPDATE evaluations SET status = 'running', started_at = COALESCE(started_at, ?), calls_done = MAX(calls_done, ?),
         updated_at = MAX(updated_at, ?)
       WHERE id = ? AND ${sqlMayBecome('running')}`,
    )
    .bind(now, callsDone, now, id)
    .run();
}

/**
 * The rows outside a batch holding a running slot (admitted or running), the terms of the partial index
 * `evaluations_in_flight` (migrations 0033, 0037: not ended by `finished_at`, which every end sets, and no status
 * term, so that the running mark writes no index row), so SQLite walks it. Every path that runs an evaluation
 * admits it first.
 */
const SQL_IN_FLIGHT = `slot_at IS NOT NULL AND finished_at IS NULL AND batch_id IS NULL AND ${SQL_NOT_ENDED}`;

/**
 * Evaluations still `queued` or `running` whose `updated_at` is older than `olderThan` (epoch ms),
 * oldest first, at most `limit`. Items of a batch that its window has not handed over yet
 * (src/batches/pump.ts) are not stalled: they wait for their turn. Reads the rows in flight, however many
 * items wait: the rows outside a batch holding a slot through `evaluations_in_flight` (sorted here: its key is
 * the tenant, so that progress writes do not rewrite it), those waiting for a slot through
 * `evaluations_waiting_single`, and an open batch's handed-over items that have not ended (holding a slot or
 * waiting for one) through `evaluations_batch` (positions from the batch's `open_from` to its `sent`,
 * ./batch-open.ts), never the positions not handed over.
 */
export async function findStalled(db: D1Database, olderThan: number, limit: number): Promise<string[]> {
  const [inFlight, single, waiting] = await db.batch<{ id: string; updated_at: number }>([
    db
      .prepare(
        `SELECT id, updated_at FROM evaluations INDEXED BY evaluations_in_flight
         WHERE ${SQL_IN_FLIGHT} AND updated_at < ? ORDER BY updated_at LIMIT ?`,
      )
      .bind(olderThan, limit),
    db
      .prepare(
        `SELECT id, updated_at FROM evaluations INDEXED BY evaluations_waiting_single
         WHERE batch_id IS NULL AND slot_at IS NULL AND status = 'queued' AND updated_at < ? ORDER BY updated_at LIMIT ?`,
      )
      .bind(olderThan, limit),
    db
      .prepare(
        // Open batches first (CROSS JOIN keeps that order), each one's handed-over positions by the index.
        `SELECT e.id, e.updated_at FROM batches b INDEXED BY batches_open
           CROSS JOIN evaluations e INDEXED BY evaluations_batch
         WHERE b.completed_at IS NULL AND ${batchOpenItems('b', 'e')} AND ${sqlNotEnded('e.status')} AND e.updated_at < ?
         ORDER BY e.updated_at LIMIT ?`,
      )
      .bind(olderThan, limit),
  ]);
  return [...(inFlight?.results ?? []), ...(single?.results ?? []), ...(waiting?.results ?? [])]
    .sort((a, b) => a.updated_at - b.updated_at)
    .slice(0, limit)
    .map((x) => x.id);
}

/** Bumps `updated_at` of a re-kicked evaluation so the next sweep does not pick it again at once. */
export async function touch(db: D1Database, id: string, now: number): Promise<void> {
  await db.prepare(`UPDATE evaluations SET updated_at = ? WHERE id = ? AND ${SQL_NOT_ENDED}`).bind(now, id).run();
}
