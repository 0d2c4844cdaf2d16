/**
 * @module
 * The pipeline's D1 writes: loading a job, marking it running, progress, the final write (verdict,
 * transcript, usage and status in ONE `batch()`, which D1 runs as one transaction), failures, and the
 * sweeper's stalled-job query.
 *
 * Every status change is guarded by the status module's SQL guard (`sqlMayBecome`, i.e. the row has not
 * ended), so an evaluation that has ended never changes again, whoever writes second (DO, DLQ consumer,
 * API cancel). Row inserts are keyed (`verdicts` PK, `transcripts (evaluation_id, seq)`,
 * `usage (evaluation_id, call_id)`) and use `ON CONFLICT DO NOTHING`, so a repeated final write is a
 * no-op. Times are epoch milliseconds.
 */
import type { Usage } from '../engine/call.js';
import type { EvaluationError, VerdictSummary } from './live-events.js';
import type { EndStatus, EvaluationStatus, TerminalStatus } from './status.js';
import { SQL_NOT_ENDED, sqlMayBecome } from './status.js';
import { endEffectStatements, handedOn } from '../ending.js';

/** SQL guard of the verdict insert: the row may still become `succeeded`; binds the evaluation id once. */
const ROW_MAY_SUCCEED = `EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND ${sqlMayBecome('succeeded')})`;

/**
 * SQL guard of the verdict and transcript inserts: the caller has not deleted the evaluation (src/evaluations/erase-rows.ts);
 * binds the evaluation id once. Usage rows are written regardless: billing keeps them.
 */
const ROW_NOT_ERASED = 'NOT EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL)';

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
      `SELECT id, tenant, status, method, config, task, error_code, error_message, batch_id,
         (SELECT batches.cancel_requested_at FROM batches WHERE batches.id = evaluations.batch_id) AS batch_cancelled_at
       FROM evaluations WHERE id = ?`,
    )
    .bind(id)
    .first<{
      id: string;
      tenant: string;
      status: EvaluationStatus;
      method: string;
      config: string;
      task: string;
      error_code: string | null;
      error_message: string | null;
      batch_id: string | null;
      batch_cancelled_at: number | null;
    }>();
  if (!row) return null;
  return {
    id: row.id,
    tenant: row.tenant,
    status: row.status,
    method: row.method,
    config: row.config,
    task: row.task,
    batchId: row.batch_id,
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
  const r = await db
    .prepare(
      `UPDATE evaluations SET status = 'running', calls_planned = ?, started_at = COALESCE(started_at, ?), updated_at = ?,
         engine_version = COALESCE(engine_version, ?)
       WHERE id = ? AND ${sqlMayBecome('running')}`,
    )
    .bind(callsPlanned, now, now, engineVersion, id)
    .run();
  return r.meta.changes > 0;
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
 * Ends an evaluation as failed or cancelled unless it has already ended.
 * @returns true when this call changed the row.
 */
export async function markEnded(
  db: D1Database,
  id: string,
  status: EndStatus,
  error: EvaluationError | null,
  now: number,
): Promise<boolean> {
  const results = await db.batch([
    ...endEffectStatements(db, { id, status, error, now }),
    endStatement(db, id, status, error, null, null, now),
  ]);
  // The status update is the batch's last statement.
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

function endStatement(
  db: D1Database,
  id: string,
  status: TerminalStatus,
  error: EvaluationError | null,
  callsDone: number | null,
  engineVersion: string | null,
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET status = ?, error_code = ?, error_message = ?, calls_done = COALESCE(?, calls_done),
         engine_version = COALESCE(engine_version, ?), finished_at = ?, updated_at = ?
       WHERE id = ? AND ${sqlMayBecome(status)}`,
    )
    .bind(status, error?.code ?? null, error?.message ?? null, callsDone, engineVersion, now, now, id);
}

/**
 * One successful LLM call as stored by the Durable Object: a `transcripts` row (what was said) and a
 * `usage` row (what it cost), both keyed by the call id.
 */
export interface StoredCall {
  callId: string;
  agent: string;
  label: string;
  stage: string;
  /** Model that answered, as the provider reported it. */
  model: string;
  content: string;
  usage: Usage;
  /** Why the reply did not parse, when the engine said so; null when it parsed or is unknown. */
  parseError: string | null;
  /** Attempts the LLM layer made, default 1. */
  attempts: number;
  /** Wall time of the call, ms. */
  latencyMs: number | null;
  /** When the result was stored, epoch ms. */
  at: number;
  /**
   * The request's further choices (a request with `n`), each a transcript row of its own after this one,
   * under the call id of the sample it answered; they have no `usage` row (the request's row bills them).
   */
  choices?: { callId: string; content: string; parseError: string | null }[];
}

/** What the final write records. */
export interface FinalWrite {
  id: string;
  tenant: string;
  status: TerminalStatus;
  /** The verdict (succeeded only), stored in `verdicts` without its transcript. */
  verdict?: VerdictSummary;
  error?: EvaluationError;
  /** Every successful stored call in recording order: one transcript and one usage row each. */
  calls: StoredCall[];
  callsDone: number;
  /** The engine version the evaluation ran under (kept if D1 already has one). */
  engineVersion: string | null;
  now: number;
}

/**
 * The final write as statements for ONE `db.batch()` (one transaction): the verdict (only while the
 * row may still become `succeeded`, so a DLQ/cancel that won the race leaves no verdict behind),
 * transcript and usage rows, then the guarded status update. Idempotent: running it again changes nothing.
 *
 * Transcript and usage rows are written whatever the status on purpose: every call they record was made and
 * billed by the provider, whoever ended the row first, so metering must show it and the transcript must keep
 * what was said, for failed and cancelled evaluations too. Only a deletion by the caller keeps the
 * transcript (and verdict) out; usage is written even then. `seq` is the call's place in `calls`.
 */
export function finalStatements(db: D1Database, w: FinalWrite): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  if (w.status === 'succeeded' && w.verdict) {
    const v = w.verdict;
    const flip = v.positionFlip === null ? null : v.positionFlip ? 1 : 0;
    out.push(
      db
        .prepare(
          `INSERT INTO verdicts (evaluation_id, winner, score, confidence, position_flip, verdict, created_at)
           SELECT ?, ?, ?, ?, ?, ?, ? WHERE ${ROW_MAY_SUCCEED} AND ${ROW_NOT_ERASED}
           ON CONFLICT DO NOTHING`,
        )
        .bind(w.id, v.winner ?? null, v.score ?? null, v.confidence, flip, JSON.stringify(v), w.now, w.id, w.id),
    );
  }
  // One transcript row per reply: a request with `n` gives one per choice, in order.
  const rows = w.calls.flatMap((t) => [t, ...(t.choices ?? []).map((c) => ({ ...t, ...c }))]);
  rows.forEach((t, seq) => {
    out.push(
      db
        .prepare(
          `INSERT INTO transcripts (evaluation_id, seq, call_id, agent, label, stage, model, content, parse_error)
           SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ROW_NOT_ERASED} ON CONFLICT DO NOTHING`,
        )
        .bind(w.id, seq, t.callId, t.agent, t.label, t.stage, t.model, t.content, t.parseError, w.id),
    );
  });
  for (const u of w.calls) {
    out.push(
      db
        .prepare(
          `INSERT INTO usage (evaluation_id, call_id, tenant, model, prompt_tokens, completion_tokens, cached_prompt_tokens,
             estimated, cost_usd, attempts, latency_ms, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .bind(
          w.id,
          u.callId,
          w.tenant,
          u.model,
          u.usage.promptTokens,
          u.usage.completionTokens,
          u.usage.cachedPromptTokens,
          u.usage.estimated ? 1 : 0,
          u.usage.costUsd,
          u.attempts,
          u.latencyMs,
          u.at,
        ),
    );
  }
  out.push(...endEffectStatements(db, { id: w.id, status: w.status, error: w.error ?? null, now: w.now }));
  // Last: writeFinal reads its result (and the effects' just before it).
  out.push(endStatement(db, w.id, w.status, w.error ?? null, w.callsDone, w.engineVersion, w.now));
  return out;
}

/**
 * Runs {@link finalStatements} as one batch.
 * @returns `changed`: true when the guarded status update changed the row; false means D1 had already
 *   ended it (elsewhere, e.g. the DLQ fallback, or this object's own earlier `markEnded`) or the row is
 *   gone, so the caller must read D1's status rather than announce its own. `effectRows`: rows the
 *   ending's `END_EFFECTS` statements wrote that an `AFTER_END` follow-up hands on (`handedOn`: webhook
 *   deliveries); 0: nothing to hand on. `after`: the results of `after`, statements run in the same
 *   transaction once the row has ended (e.g. handing its running slot on).
 */
export async function writeFinal(
  db: D1Database,
  w: FinalWrite,
  after: readonly D1PreparedStatement[] = [],
): Promise<{ changed: boolean; effectRows: number; after: D1Result[] }> {
  const statements = finalStatements(db, w);
  const all = await db.batch([...statements, ...after]);
  const results = all.slice(0, statements.length);
  // Only what the follow-ups hand on counts (new webhook deliveries): a batch's counters changing is no reason
  // for the follow-ups' D1 read, and would make one on every item of every batch.
  const effectRows = statements.reduce((n, s, i) => n + (handedOn(s) ? (results[i]?.meta.changes ?? 0) : 0), 0);
  // The status update is the last of the final write's own statements.
  return {
    changed: (results[results.length - 1]?.meta.changes ?? 0) > 0,
    effectRows,
    after: all.slice(statements.length),
  };
}

/**
 * Evaluations still `queued` or `running` whose `updated_at` is older than `olderThan` (epoch ms),
 * oldest first, at most `limit` (uses the `(status, updated_at)` index). Items of a batch that its window
 * has not handed over yet (src/batches/pump.ts) are not stalled: they wait for their turn.
 */
export async function findStalled(db: D1Database, olderThan: number, limit: number): Promise<string[]> {
  const r = await db
    .prepare(
      `SELECT id FROM evaluations WHERE ${SQL_NOT_ENDED} AND updated_at < ?
         AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.id = evaluations.batch_id AND evaluations.batch_seq >= b.sent)
       ORDER BY updated_at LIMIT ?`,
    )
    .bind(olderThan, limit)
    .all<{ id: string }>();
  return r.results.map((x) => x.id);
}

/** Bumps `updated_at` of a re-kicked evaluation so the next sweep does not pick it again at once. */
export async function touch(db: D1Database, id: string, now: number): Promise<void> {
  await db.prepare(`UPDATE evaluations SET updated_at = ? WHERE id = ? AND ${SQL_NOT_ENDED}`).bind(now, id).run();
}
