/**
 * @module
 * The end of an evaluation, owned by its final write: the typed interface the features' effects implement
 * ({@link EndingEffect}, {@link FinalWriteStep}, {@link AfterCommit}), the guard every statement of an
 * ending's transaction carries ({@link endingGuard}), and {@link markEnded}, the D1 write that ends a row on
 * every path but the object's final write (a cancel, a failure, the dead-letter consumer). The final write,
 * verdict and usage with the status in one transaction, is ./final-write.ts.
 *
 * What an ending does, in order and in which transaction, is listed once, in src/ending-plan.ts (an
 * {@link EndingPlan}); the functions here take the plan as a parameter, so this module imports no feature.
 *
 * Every status change is guarded by the status module's SQL guard (`sqlMayBecome`), so an evaluation that
 * has ended never changes again, whoever writes second (the object, the DLQ consumer, a cancel). The verdict
 * is written by that guarded update only, and usage is booked while the row's `billed_calls` is NULL
 * (src/tenants/usage-rollup.ts), so a repeated final write writes nothing again (it only completes a batch the first
 * left open: ./final-write.ts). Times are epoch milliseconds.
 */
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import type { EvaluationError } from './live-events.js';
import type { EndStatus, TerminalStatus } from './status.js';
import { sqlMayBecome } from './status.js';
import type { BilledCall, UsageTotals } from '../tenants/usage-rollup.js';

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
   * `cacheEntrySql` false, or a hit: unlike `StartJob.cacheEntry`, which is true for a hit row); absent: unknown.
   * The entry's effect leaves its statement out when false.
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
  /**
   * Present when its statements act only in the ending that completes the evaluation's batch (its completion event,
   * its mark, …): the same work for a completion of its own, after the ending that counted the batch's last item
   * committed ({@link completeBatch}). The object's final write leaves {@link statements} out of its transaction and
   * runs these only when its count completed the batch, so every other item's write is that much shorter.
   */
  completion?(db: D1Database, c: BatchToComplete): D1PreparedStatement[];
}

/**
 * A batch to complete on its own, after its last item's ending committed: its statements select it by its counts
 * alone (every item ended, not marked yet), so they act once whoever runs them (that ending's writer, the sweeper).
 */
export interface BatchToComplete {
  batchId: string;
  /**
   * The evaluation whose ending completes it, or the batch's own id when none of its items is left in D1 (the
   * sweeper's): the cause of its events (their after-commit dispatch finds them by it).
   */
  causeId: string;
  /** Epoch ms. */
  now: number;
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
  /**
   * SQL over the ended `evaluations` row (it binds nothing), returned by the final write's status update: the id of
   * its batch when that write's count ended the batch's last item (not marked completed yet), else NULL. Then the
   * {@link EndingEffect.completion} statements run in a transaction of their own ({@link completeBatch}).
   */
  readonly batchToComplete: string;
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
 * The statements of every {@link EndingPlan.beforeStatus} effect, each with whether its rows are handed on;
 * without the {@link EndingEffect.batchOnly} ones when the writer knows the evaluation is in no batch, and without
 * those with a {@link EndingEffect.completion} when the writer completes the batch on its own (`apart`).
 */
export function effectStatements(
  db: D1Database,
  plan: EndingPlan,
  ending: Ending,
  inNoBatch = false,
  apart = false,
): { s: D1PreparedStatement; on: boolean }[] {
  return plan.beforeStatus.flatMap((effect) =>
    (inNoBatch && effect.batchOnly === true) || (apart && effect.completion !== undefined)
      ? []
      : effect.statements(db, ending).map((s) => ({ s, on: effect.handedOn })),
  );
}

/**
 * Completes batch `c.batchId` if every item of it has ended and it is not marked yet: every
 * {@link EndingEffect.completion} of the plan in ONE transaction, which D1 runs one at a time, so exactly one
 * such call acts (the mark is its last effect) and a repeat changes nothing.
 * @returns the rows its statements changed, and of them those its handed-on effects wrote (new webhook deliveries,
 *   a comparison or alignment to go on: the caller runs the after-commit steps for `c.causeId` when above 0).
 */
export async function completeBatch(
  db: D1Database,
  plan: EndingPlan,
  c: BatchToComplete,
): Promise<{ changes: number; handedOn: number }> {
  const statements = plan.beforeStatus.flatMap((effect) =>
    (effect.completion?.(db, c) ?? []).map((s) => ({ s, on: effect.handedOn })),
  );
  if (statements.length === 0) return { changes: 0, handedOn: 0 };
  const results = await db.batch(statements.map((e) => e.s));
  let changes = 0;
  let handedOn = 0;
  statements.forEach((e, i) => {
    const n = results[i]?.meta.changes ?? 0;
    changes += n;
    if (e.on) handedOn += n;
  });
  return { changes, handedOn };
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
