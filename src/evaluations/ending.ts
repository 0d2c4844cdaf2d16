/**
 * @module
 * The end of an evaluation, owned by its final write: the typed interface the features' effects implement
 * ({@link EndingEffect}, {@link FinalWriteStep}, {@link AfterCommit}), the guard every statement of an
 * ending's transaction carries ({@link endingGuard}), and the D1 writes that end a row: {@link markEnded}
 * (a cancel, a failure, the dead-letter consumer) and the object's final write ({@link writeFinal}:
 * verdict, usage and status in ONE `batch()`, which D1 runs as one transaction; the transcript stays in the
 * evaluation's own object, ./transcript-rows.ts).
 *
 * What an ending does, in order and in which transaction, is listed once, in src/ending-plan.ts (an
 * {@link EndingPlan}); the functions here take the plan as a parameter, so this module imports no feature.
 *
 * Every status change is guarded by the status module's SQL guard (`sqlMayBecome`), so an evaluation that
 * has ended never changes again, whoever writes second (the object, the DLQ consumer, a cancel). The verdict
 * insert is keyed (`verdicts` PK, `ON CONFLICT DO NOTHING`) and usage is booked while the row's `billed_calls`
 * is NULL (src/tenants/usage-rollup.ts), so a repeated final write is a no-op. Times are epoch milliseconds.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmAttempt, Usage } from '../engine/call.js';
import { log, messageOf } from '../log/log.js';
import type { EvaluationError, VerdictSummary } from './live-events.js';
import type { EndStatus, TerminalStatus } from './status.js';
import { sqlMayBecome } from './status.js';
import { bookUsageStatements } from '../tenants/usage-rollup.js';

/**
 * An evaluation that is about to end. Times are epoch ms. Anything else of the row (tenant, batch, …) an
 * effect reads in SQL from `evaluations`, so no writer has to load it first.
 */
export interface Ending {
  id: string;
  status: TerminalStatus;
  error: EvaluationError | null;
  now: number;
}

/**
 * SQL condition (binds the evaluation id once) that holds while the row can still be ended with `status`:
 * true in the transaction that ends it, false in every repeat and after another writer ended it.
 */
export function endingGuard(status: TerminalStatus): string {
  return `EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND ${sqlMayBecome(status)})`;
}

/**
 * An effect of an ending inside its D1 transaction, before the guarded status update, on every path that
 * ends an evaluation.
 */
export interface EndingEffect {
  /** What it does, in a few words. */
  readonly name: string;
  /**
   * Its statements; each carries {@link endingGuard}, so it takes effect exactly when the status update
   * does: once per evaluation, never again on a repeated write, never for a row another writer ended.
   */
  statements(db: D1Database, ending: Ending): D1PreparedStatement[];
  /**
   * True when the rows it writes are handed on after the commit (webhook deliveries to their queue): a
   * final write that ended the row runs the {@link AfterCommit} steps only when such an effect wrote a row.
   */
  readonly handedOn: boolean;
}

/** The ending of the object's final write: it knows its tenant, and maybe its batch. */
export interface FinalEnding extends Ending {
  tenant: string;
  /** The batch it is an item of; null for none, undefined when the object does not know (after an eviction). */
  batchId: string | null | undefined;
  /** The running cap of tenants without their own (`TENANT_MAX_RUNNING`). */
  defaultMaxRunning: number;
}

/** A {@link FinalWriteStep}'s statements, and how it reads their results. */
export interface PreparedStep {
  statements: D1PreparedStatement[];
  /** Reads the statements' results; the work it returns runs once the transaction committed, and never throws. */
  then(results: readonly (D1Result | undefined)[]): (env: Bindings) => Promise<void>;
}

/**
 * A step of the final write's transaction after the status update (the row has ended and its running slot
 * is free), with what follows from its results once the transaction committed. The final write only: the
 * other end paths leave it to the queue and the sweeper.
 */
export interface FinalWriteStep {
  /** What it does, in a few words. */
  readonly name: string;
  /** Its statements for this ending, or null when it has nothing to do. */
  prepare(db: D1Database, ending: FinalEnding): PreparedStep | null;
}

/**
 * A step once an ending's transaction committed, on every end path: best effort, because what it would do is
 * durable in D1 and the cron sweeper picks it up anyway (only later). A failure is logged, never thrown.
 */
export interface AfterCommit {
  /** What it does, in a few words. */
  readonly name: string;
  run(env: Bindings, evaluationId: string): Promise<unknown>;
}

/** What an ending does, in order and in which transaction: listed once, in src/ending-plan.ts. */
export interface EndingPlan {
  /** In the ending's transaction, before the guarded status update, on every end path, in order. */
  readonly beforeStatus: readonly EndingEffect[];
  /** In the final write's transaction, after the status update, in order (the object's final write only). */
  readonly afterStatus: readonly FinalWriteStep[];
  /**
   * Once the transaction committed, on every end path: after a {@link markEnded} that ended the row, and
   * after a final write whose handed-on effects wrote a row, or that found the row ended elsewhere.
   */
  readonly afterCommit: readonly AfterCommit[];
}

/** The guarded status update, the last statement of an ending's own statements. */
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

/** The statements of every {@link EndingPlan.beforeStatus} effect, each with whether its rows are handed on. */
function effectStatements(db: D1Database, plan: EndingPlan, ending: Ending): { s: D1PreparedStatement; on: boolean }[] {
  return plan.beforeStatus.flatMap((effect) => effect.statements(db, ending).map((s) => ({ s, on: effect.handedOn })));
}

/**
 * Ends an evaluation as failed or cancelled unless it has already ended, with the plan's
 * {@link EndingPlan.beforeStatus} effects in the same transaction. The caller runs {@link afterEnding} when
 * this returns true.
 * @returns true when this call changed the row.
 */
export async function markEnded(
  db: D1Database,
  plan: EndingPlan,
  ending: Ending & { status: EndStatus },
): Promise<boolean> {
  const { id, status, error, now } = ending;
  const results = await db.batch([
    ...effectStatements(db, plan, ending).map((e) => e.s),
    endStatement(db, id, status, error, null, null, now),
  ]);
  // The status update is the batch's last statement.
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/**
 * Runs every {@link EndingPlan.afterCommit} step for `evaluationId`, which has just ended (or was found
 * ended: repeats are harmless). Never throws.
 */
export async function afterEnding(env: Bindings, plan: EndingPlan, evaluationId: string): Promise<void> {
  await Promise.all(
    plan.afterCommit.map(async (step) => {
      try {
        await step.run(env, evaluationId);
      } catch (e) {
        log('warn', 'ending.after_commit_failed', { evaluationId, step: step.name, error: messageOf(e) });
      }
    }),
  );
}

/** SQL guard of the verdict insert: the row may still become `succeeded`; binds the evaluation id once. */
const ROW_MAY_SUCCEED = `EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND ${sqlMayBecome('succeeded')})`;

/**
 * SQL guard of the verdict insert: the caller has not deleted the evaluation (./erase-rows.ts);
 * binds the evaluation id once. Usage is booked regardless: billing keeps it.
 */
const ROW_NOT_ERASED = 'NOT EXISTS (SELECT 1 FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL)';

/**
 * One successful LLM call as stored by the Durable Object: its transcript rows (what was said, kept in the
 * object: ./transcript-rows.ts, with its per-call billing detail) and its usage (what it cost: booked in D1's
 * roll-up, src/tenants/usage-rollup.ts), keyed by the call id.
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
  /** The failed attempts before the one that answered, each with its tier (a flex refusal, an evicted attempt). */
  failedAttempts?: LlmAttempt[];
  /** Wall time of the call, ms. */
  latencyMs: number | null;
  /** When the result was stored, epoch ms. */
  at: number;
  /**
   * The request's further choices (a request with `n`), each a transcript row of its own after this one,
   * under the call id of the sample it answered; they bill nothing (the request's usage bills them).
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
  /** Every successful stored call in recording order: its usage is booked (the object keeps its transcript). */
  calls: StoredCall[];
  callsDone: number;
  /** The engine version the evaluation ran under (kept if D1 already has one). */
  engineVersion: string | null;
  now: number;
  /** The batch it is an item of; null for none, absent when the writer does not know. */
  batchId?: string | null;
  /** The running cap of tenants without their own (`TENANT_MAX_RUNNING`), for the steps after the status update. */
  defaultMaxRunning: number;
}

/** The verdict row and usage booking of a final write (see {@link writeFinal}); the transcript stays in the object. */
function resultStatements(db: D1Database, w: FinalWrite): D1PreparedStatement[] {
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
  out.push(...bookUsageStatements(db, w.id, w.calls));
  return out;
}

/** What {@link writeFinal} reports. */
export interface FinalWriteResult {
  /**
   * True when the guarded status update changed the row; false means D1 had already ended it (elsewhere,
   * e.g. the DLQ fallback, or this object's own earlier `markEnded`) or the row is gone, so the caller must
   * read D1's status rather than announce its own.
   */
  changed: boolean;
  /** Rows the handed-on effects wrote (new webhook deliveries); 0: nothing for the after-commit steps. */
  effectRows: number;
  /** The work of the {@link EndingPlan.afterStatus} steps, to run now that the transaction committed. */
  followUps: ((env: Bindings) => Promise<void>)[];
  /** The results of the caller's own `extra` statements. */
  extra: D1Result[];
}

/**
 * The final write, in ONE `db.batch()` (one transaction): the verdict (only while the row may still become
 * `succeeded`, so a DLQ or cancel that won the race leaves no verdict behind), the usage booking, the
 * plan's {@link EndingPlan.beforeStatus} effects, the guarded status update, the plan's
 * {@link EndingPlan.afterStatus} steps, then the caller's `extra` statements (e.g. reading the row back for
 * someone waiting). Idempotent: running it again changes nothing.
 *
 * Usage is booked whatever the status on purpose: every call it records was made and billed by the
 * provider, whoever ended the row first, so metering must show it, for failed and cancelled evaluations too
 * (the object keeps their transcript likewise). Only a deletion by the caller keeps the verdict out; usage is
 * booked even then.
 */
export async function writeFinal(
  db: D1Database,
  plan: EndingPlan,
  w: FinalWrite,
  extra: readonly D1PreparedStatement[] = [],
): Promise<FinalWriteResult> {
  const ending: FinalEnding = {
    id: w.id,
    status: w.status,
    error: w.error ?? null,
    now: w.now,
    tenant: w.tenant,
    batchId: w.batchId,
    defaultMaxRunning: w.defaultMaxRunning,
  };
  const results = resultStatements(db, w);
  const effects = effectStatements(db, plan, ending);
  const status = endStatement(db, w.id, w.status, w.error ?? null, w.callsDone, w.engineVersion, w.now);
  const steps = plan.afterStatus.flatMap((step) => step.prepare(db, ending) ?? []);
  const all = await db.batch([
    ...results,
    ...effects.map((e) => e.s),
    status,
    ...steps.flatMap((s) => s.statements),
    ...extra,
  ]);
  let at = results.length;
  // Only what the after-commit steps hand on counts (new webhook deliveries): a batch's counters changing is
  // no reason for their D1 read, and would make one on every item of every batch.
  const effectRows = effects.reduce((n, e, i) => n + (e.on ? (all[at + i]?.meta.changes ?? 0) : 0), 0);
  at += effects.length;
  const changed = (all[at]?.meta.changes ?? 0) > 0;
  at += 1;
  const followUps = steps.map((s) => {
    const mine = all.slice(at, at + s.statements.length);
    at += s.statements.length;
    return s.then(mine);
  });
  return { changed, effectRows, followUps, extra: all.slice(at) };
}
