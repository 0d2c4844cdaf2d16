/**
 * @module
 * The end of an evaluation, owned by its final write: the typed interface the features' effects implement
 * ({@link EndingEffect}, {@link FinalWriteStep}, {@link AfterCommit}), the guard every statement of an
 * ending's transaction carries ({@link endingGuard}), and the D1 writes that end a row: {@link markEnded}
 * (a cancel, a failure, the dead-letter consumer) and the object's final write ({@link writeFinal}:
 * usage roll-up and, where D1 keeps it, the verdict's JSON (`verdict_texts`, ./verdict-rows.ts), then the verdict's summary, usage sums and status in
 * ONE guarded update of the row, in ONE `batch()`,
 * which D1 runs as one transaction; the transcript stays in the evaluation's own object, ./transcript-rows.ts).
 *
 * What an ending does, in order and in which transaction, is listed once, in src/ending-plan.ts (an
 * {@link EndingPlan}); the functions here take the plan as a parameter, so this module imports no feature.
 *
 * Every status change is guarded by the status module's SQL guard (`sqlMayBecome`), so an evaluation that
 * has ended never changes again, whoever writes second (the object, the DLQ consumer, a cancel). The verdict
 * is written by that guarded update only, and usage is booked while the row's `billed_calls` is NULL
 * (src/tenants/usage-rollup.ts), so a repeated final write is a no-op. Times are epoch milliseconds.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmAttempt, Usage } from '../engine/call.js';
import { log, messageOf } from '../log/log.js';
import type { EvaluationError, VerdictSummary } from './live-events.js';
import type { EndStatus, TerminalStatus } from './status.js';
import { sqlMayBecome } from './status.js';
import type { BilledCall, UsageTotals } from '../tenants/usage-rollup.js';
import { BOOK_SET_SQL, bookBinds, bookStatement, rollupStatements, usageTotals } from '../tenants/usage-rollup.js';
import { ENTRY_SET_SQL, entryTime } from '../verdict-cache/rows.js';
import { dropWaitingTaskStatements } from './task-rows.js';
import { verdictKeptInD1, verdictTextStatement } from './verdict-rows.js';

/**
 * An evaluation that is about to end. Times are epoch ms. Anything else of the row (tenant, batch, …) an
 * effect reads in SQL from `evaluations`, so no writer has to load it first.
 */
export interface Ending {
  id: string;
  status: TerminalStatus;
  error: EvaluationError | null;
  now: number;
  /**
   * The evaluation's method when the writer knows it (the object's final write); absent: unknown. An effect whose
   * rows only an evaluation of some method can match leaves its statements out for the others.
   */
  method?: string;
  /**
   * False when the writer knows the evaluation can become no verdict cache entry (src/verdict-cache/rows.ts
   * `cacheEntrySql`); absent: unknown. The entry's effect leaves its statement out when false.
   */
  cacheEntry?: boolean;
  /**
   * The final write only: the verdict JSON (succeeded) and the usage sums its status update writes onto the
   * row. The effects run before that update, so they read these (bound) rather than the row.
   */
  written?: { verdictJson: string | null; usage: UsageTotals; calls: readonly BilledCall[] };
  /**
   * The final write only: a token of this one call (random unless the caller gives one), by which a statement of
   * its transaction finds what another wrote (the batch window's claim, src/batches/window-claims.ts).
   */
  writeToken?: string;
}

/**
 * SQL of the evaluation's booked usage sum `column` (or an expression of them) as an ending's effects see it,
 * binding {@link bookedValue} then the evaluation id: the row's when it is booked already, else what this
 * ending books (0 for an ending that books nothing, as an unbooked row reads).
 */
export function bookedSql(column: string): string {
  return `(SELECT CASE WHEN billed_calls IS NULL THEN ? ELSE COALESCE(${column}, 0) END FROM evaluations WHERE id = ?)`;
}

/** The value {@link bookedSql} binds for `pick` of the sums this ending books (0 without a final write). */
export function bookedValue(ending: Ending, pick: (u: UsageTotals) => number): number {
  return ending.written ? pick(ending.written.usage) : 0;
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
  /**
   * True when its statements can only touch rows of the evaluation's batch (its counters, its completion): a
   * final write that knows the evaluation is in no batch leaves them out, which is about half the statements
   * of a single evaluation's ending. Default false: always run.
   */
  readonly batchOnly?: boolean;
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
  /**
   * An SQL expression over the ended `evaluations` row (it binds nothing) that the guarded status update returns
   * for this step: a read of the same transaction at no statement of its own. Absent: none.
   */
  returning?: string;
  /**
   * Reads the statements' results and, with {@link returning}, the status update's value (undefined when that
   * update changed no row: D1 had ended it elsewhere). The work it returns runs once the transaction committed,
   * and never throws.
   */
  then(results: readonly (D1Result | undefined)[], returned?: unknown): (env: Bindings) => Promise<void>;
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
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET status = ?, error_code = ?, error_message = ?, finished_at = ?, updated_at = ?
       WHERE id = ? AND ${sqlMayBecome(status)}`,
    )
    .bind(status, error?.code ?? null, error?.message ?? null, now, now, id);
}

/**
 * The final write's guarded status update: with the status, its calls and engine version, the verdict's
 * summary (succeeded, unless the caller deleted it: ./erase-rows.ts), the verdict cache entry
 * (src/verdict-cache/rows.ts) and the usage sums (unless booked already), all on the one row it writes.
 */
function finalStatement(
  db: D1Database,
  w: FinalWrite,
  written: NonNullable<Ending['written']>,
  returning: readonly string[],
): D1PreparedStatement {
  const v = written.verdictJson === null ? undefined : w.verdict;
  const flip = v?.positionFlip === null || v?.positionFlip === undefined ? null : v.positionFlip ? 1 : 0;
  // An evaluation the writer knows can become no cache entry leaves the entry's term out (it would set NULL).
  const entry = v !== undefined && w.cacheEntry !== false;
  const verdictTerms = v
    ? `, (winner, score, confidence, position_flip) = (SELECT ?, ?, ?, ? WHERE deleted_at IS NULL)${
        entry
          ? `,
       ${ENTRY_SET_SQL}`
          : ''
      }`
    : '';
  const verdictBinds = v
    ? [v.winner ?? null, v.score ?? null, v.confidence, flip, ...(entry ? [entryTime(v, w.now)] : [])]
    : [];
  return db
    .prepare(
      `UPDATE evaluations SET status = ?, error_code = ?, error_message = ?, calls_done = ?,
         engine_version = COALESCE(engine_version, ?), finished_at = ?, updated_at = ?${verdictTerms}, ${BOOK_SET_SQL}
       WHERE id = ? AND ${sqlMayBecome(w.status)}${returning.length > 0 ? ` RETURNING ${returning.join(', ')}` : ''}`,
    )
    .bind(
      w.status,
      w.error?.code ?? null,
      w.error?.message ?? null,
      w.callsDone,
      w.engineVersion,
      w.now,
      w.now,
      ...verdictBinds,
      ...bookBinds(written.usage),
      w.id,
    );
}

/**
 * The statements of every {@link EndingPlan.beforeStatus} effect, each with whether its rows are handed on;
 * without the {@link EndingEffect.batchOnly} ones when the writer knows the evaluation is in no batch.
 */
function effectStatements(
  db: D1Database,
  plan: EndingPlan,
  ending: Ending,
  inNoBatch = false,
): { s: D1PreparedStatement; on: boolean }[] {
  return plan.beforeStatus.flatMap((effect) =>
    inNoBatch && effect.batchOnly === true
      ? []
      : effect.statements(db, ending).map((s) => ({ s, on: effect.handedOn })),
  );
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
    endStatement(db, id, status, error, now),
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
  /** The verdict (succeeded only), stored on the row without its transcript. */
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
  /** Its method ({@link Ending.method}); absent when the writer does not know. */
  method?: string;
  /** {@link Ending.cacheEntry}; absent when the writer does not know. */
  cacheEntry?: boolean;
  /** The running cap of tenants without their own (`TENANT_MAX_RUNNING`), for the steps after the status update. */
  defaultMaxRunning: number;
  /** The token of this final write ({@link Ending.writeToken}); default: a random UUID. */
  writeToken?: string;
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
 * The final write, in ONE `db.batch()` (one transaction): the usage roll-up and the verdict's JSON, the plan's
 * {@link EndingPlan.beforeStatus} effects, the guarded status update that writes the verdict's summary (both
 * only while the row may still become `succeeded`, so a DLQ or cancel that won the race leaves no verdict
 * behind) and the usage sums on the row, the sums alone when another writer had ended the row, the plan's
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
  const written = {
    verdictJson: w.status === 'succeeded' && w.verdict ? JSON.stringify(w.verdict) : null,
    usage: usageTotals(w.calls),
    calls: w.calls,
  };
  const ending: FinalEnding = {
    id: w.id,
    status: w.status,
    error: w.error ?? null,
    now: w.now,
    ...(w.method !== undefined ? { method: w.method } : {}),
    ...(w.cacheEntry !== undefined ? { cacheEntry: w.cacheEntry } : {}),
    tenant: w.tenant,
    batchId: w.batchId,
    defaultMaxRunning: w.defaultMaxRunning,
    written,
    writeToken: w.writeToken ?? crypto.randomUUID(),
  };
  const rollup = [
    // A batch item's calls wait on its batch's row, appended by the count of its ending (src/batches/progress.ts),
    // which runs exactly when the status update does: its batch exists and the row may still end so.
    ...rollupStatements(
      db,
      w.id,
      w.calls,
      `e.batch_id IS NOT NULL AND ${sqlMayBecome(w.status, 'e.status')} AND EXISTS (SELECT 1 FROM batches WHERE id = e.batch_id)`,
    ),
    // The object holds the verdict; D1 keeps a copy only where its own queries read it (./verdict-rows.ts). Past
    // the verdict's own kinds, that is a meta-evaluation's item, always an item of its batch: for an evaluation the
    // writer knows is in no batch, the statement would write nothing.
    ...(written.verdictJson === null || !w.verdict || (w.batchId === null && !verdictKeptInD1(w.verdict))
      ? []
      : [verdictTextStatement(db, w.id, w.verdict, written.verdictJson)]),
    // The object holds the task: D1's waiting copy goes (./task-rows.ts; the API's fast start marks the row
    // running in its insert, so no running mark of the object's could).
    ...dropWaitingTaskStatements(db, w.id),
  ];
  // An evaluation the object knows is in no batch (null, not unknown): its batch's statements would match no row.
  const effects = effectStatements(db, plan, ending, w.batchId === null);
  const steps = plan.afterStatus.flatMap((step) => step.prepare(db, ending) ?? []);
  // The steps' reads of the ended row ride on the status update (`r0`, `r1`, … by step), one statement fewer each.
  const returning = steps.flatMap((s, i) => (s.returning === undefined ? [] : [`${s.returning} AS r${i}`]));
  const final = finalStatement(db, w, written, returning);
  const all = await db.batch([
    ...rollup,
    ...effects.map((e) => e.s),
    final,
    // The row ended elsewhere (the status update above changed nothing): its calls are booked all the same.
    bookStatement(db, w.id, written.usage),
    ...steps.flatMap((s) => s.statements),
    ...extra,
  ]);
  let at = rollup.length;
  // Only what the after-commit steps hand on counts (new webhook deliveries): a batch's counters changing is
  // no reason for their D1 read, and would make one on every item of every batch.
  const effectRows = effects.reduce((n, e, i) => n + (e.on ? (all[at + i]?.meta.changes ?? 0) : 0), 0);
  at += effects.length;
  const ended = all[at];
  // With a RETURNING clause, its one row says the update changed the row.
  const row = ended?.results[0] as Record<string, unknown> | undefined;
  const changed = returning.length > 0 ? row !== undefined : (ended?.meta.changes ?? 0) > 0;
  at += 2;
  const followUps = steps.map((s, i) => {
    const mine = all.slice(at, at + s.statements.length);
    at += s.statements.length;
    return s.then(mine, row?.[`r${i}`]);
  });
  return { changed, effectRows, followUps, extra: all.slice(at) };
}
