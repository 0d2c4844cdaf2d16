/**
 * @module
 * The Durable Object's final write of an evaluation ({@link writeFinal}): the usage roll-up and, where D1 keeps it,
 * the verdict's JSON (./verdict-rows.ts), the plan's effects, then the verdict's summary, usage sums and status in
 * ONE guarded update of the row, and the plan's steps after it, in ONE `batch()`, which D1 runs as one
 * transaction; the completion of a batch whose last item it counted follows in a second one. The transcript stays in the evaluation's own object (./transcript-rows.ts). The ending's types, its
 * guard and its other paths are ./ending.ts. Times are epoch milliseconds.
 */
import type { Bindings } from '../config/bindings.js';
import type { LlmAttempt, Usage } from '../engine/call.js';
import type { EvaluationError, VerdictSummary } from './live-events.js';
import type { EvaluationStatus, TerminalStatus } from './status.js';
import { sqlMayBecome } from './status.js';
import type { UsageTotals } from '../tenants/usage-rollup.js';
import { BOOK_SET_SQL, bookBinds, rollupStatements, usageTotals } from '../tenants/usage-rollup.js';
import { ENTRY_SET_SQL, entryTime } from '../verdict-cache/rows.js';
import { dropWaitingTaskStatements } from './task-rows.js';
import { verdictKeptInD1, verdictTextStatement } from './verdict-rows.js';
import type { EvaluationWithResultsText } from './rows.js';
import { READ_BACK_RETURNING, withResultsTextOf } from './rows.js';
import type { Ending, EndingPlan, FinalEnding } from './ending.js';
import { completeBatch, effectStatements } from './ending.js';
import { log, messageOf } from '../log/log.js';
import { errorOf } from './job-rows.js';

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
 * The usage booked on a row another writer ended (a cancel written while calls were in flight), with its
 * `calls_done` raised to the calls this write counts (answered or failed after an attempt, as every final write
 * counts them), so GET and the terminal count the calls the object made, not 0. Changes nothing once the row is booked (the status update above books it when it ends the row).
 */
function bookedElsewhereStatement(db: D1Database, w: FinalWrite, usage: UsageTotals): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET ${BOOK_SET_SQL}, calls_done = MAX(calls_done, ?) WHERE id = ? AND billed_calls IS NULL`,
    )
    .bind(...bookBinds(usage), w.callsDone, w.id);
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
  /**
   * True when a caller waits for the end (`Prefer: wait`): the status update returns the ended row for it
   * ({@link FinalWriteResult.read}); default false.
   */
  readBack?: boolean;
  /**
   * False when D1 never kept a waiting copy of its task (its object held it first: ./held-start.ts), so the copy's
   * scrub and delete are left out; absent: they run (a row inserted without its object, or unknown).
   */
  taskCopy?: false;
}

/** What {@link writeFinal} reports. */
export interface FinalWriteResult {
  /**
   * True when the guarded status update changed the row; false means D1 had already ended it (elsewhere,
   * e.g. the DLQ fallback, or this object's own earlier `markEnded`) or the row is gone, so the caller must
   * read D1's status rather than announce its own.
   */
  changed: boolean;
  /**
   * Rows the handed-on effects wrote (new webhook deliveries), the batch's completion's among them; 0: nothing for the
   * after-commit steps.
   */
  effectRows: number;
  /** The work of the {@link EndingPlan.afterStatus} steps, to run now that the transaction committed. */
  followUps: ((env: Bindings) => Promise<void>)[];
  /** The results of the caller's own `extra` statements. */
  extra: D1Result[];
  /**
   * With {@link FinalWrite.readBack}, the row as this write ended it, its verdict text and usage sums, as
   * `readWithResults` reads them; null without it, or when the update changed no row (see {@link FinalWriteResult.d1Row}).
   */
  read: EvaluationWithResultsText | null;
  /**
   * When the update changed no row: D1's row as it stands, its status and error (null: the row is gone), read in
   * the same statement that finds a batch left open; absent when the update changed the row.
   */
  d1Row?: { status: EvaluationStatus; error: EvaluationError | null } | null;
}

/**
 * The final write, in ONE `db.batch()` (one transaction): the usage roll-up and the verdict's JSON, the plan's
 * {@link EndingPlan.beforeStatus} effects, the guarded status update that writes the verdict's summary (both
 * only while the row may still become `succeeded`, so a DLQ or cancel that won the race leaves no verdict
 * behind) and the usage sums on the row, the sums and `calls_done` alone when another writer had ended the row, the plan's
 * {@link EndingPlan.afterStatus} steps, then the caller's `extra` statements. The status update returns the ended
 * row for someone waiting ({@link FinalWrite.readBack}), and whether its count ended its batch's last item: then the
 * batch's completion (each effect's `completion`) runs in a transaction of its own once this one committed
 * (`completeBatch`, src/evaluations/ending.ts). Idempotent: running it again changes nothing, but for a completion
 * the first run did not get to (one read of the row as it stands on such a repeat, then the completion when it is due).
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
    ...(w.taskCopy === false ? [] : dropWaitingTaskStatements(db, w.id)),
  ];
  // An evaluation the object knows is in no batch (null, not unknown): its batch's statements would match no row.
  // The statements that act only in the ending completing its batch wait for a second transaction that runs only
  // then (below): one item of the batch, where every item carried them.
  const effects = effectStatements(db, plan, ending, w.batchId === null, true);
  const steps = plan.afterStatus.flatMap((step) => step.prepare(db, ending) ?? []);
  // The steps' reads of the ended row ride on the status update (`r0`, `r1`, … by step), one statement fewer each.
  const returning = steps.flatMap((s, i) => (s.returning === undefined ? [] : [`${s.returning} AS r${i}`]));
  // So does the read of whether this write's count completed the batch (it runs after the count).
  if (w.batchId !== null) returning.push(`${plan.batchToComplete} AS completes_batch`);
  // The waiting caller's read of the ended row rides on the update too.
  if (w.readBack === true) returning.push(READ_BACK_RETURNING);
  const final = finalStatement(db, w, written, returning);
  const all = await db.batch([
    ...rollup,
    ...effects.map((e) => e.s),
    final,
    // The row ended elsewhere (the status update above changed nothing): its calls are booked all the same.
    bookedElsewhereStatement(db, w, written.usage),
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
  const read = w.readBack === true ? withResultsTextOf([ended]) : null;
  const repeat = changed ? undefined : await rowAsItStands(db, plan, w);
  const completes = changed ? row?.completes_batch : repeat?.completes;
  const completed = typeof completes === 'string' ? await completeApart(db, plan, completes, w) : 0;
  return {
    changed,
    effectRows: effectRows + completed,
    followUps,
    extra: all.slice(at),
    read,
    ...(repeat ? { d1Row: repeat.row } : {}),
  };
}

/**
 * On a write that changed no row, in one read: D1's row of evaluation `w.id` as it stands (its status and error, for
 * the object to follow; null: gone), and its batch when every item of it has ended and it is not marked (a repeat of
 * a write that committed and whose completion was lost: its object crashed, or D1's `batch()` threw after the
 * commit). A repeat's status update returns nothing, so this read (the batch left out when the writer knows it is in
 * none; read from the row, so an object evicted since its first write finds it too) is what spares the batch a wait
 * for the sweeper. A failure propagates: nothing changed, and the object's retry reads again.
 */
async function rowAsItStands(
  db: D1Database,
  plan: EndingPlan,
  w: FinalWrite,
): Promise<{ row: { status: EvaluationStatus; error: EvaluationError | null } | null; completes: string | null }> {
  const found = await db
    .prepare(
      `SELECT status, error_code, error_message, ${w.batchId === null ? 'NULL' : plan.batchToComplete} AS b
       FROM evaluations WHERE id = ?`,
    )
    .bind(w.id)
    .first<{ status: EvaluationStatus; error_code: string | null; error_message: string | null; b: string | null }>();
  if (!found) return { row: null, completes: null };
  return { row: { status: found.status, error: errorOf(found.error_code, found.error_message) }, completes: found.b };
}

/**
 * The batch `batchId` this final write's count completed (or a repeat found left open): its completion, in a
 * transaction of its own now that the write committed (see `completeBatch`). @returns the rows its handed-on effects
 * wrote. Never throws: a failure leaves a batch whose items all ended and that is not marked, which the sweeper
 * completes (src/batches/pump.ts `topUpStalledBatches`; the write returned, so the object does not repeat it); a
 * crash before it, or the write's answer lost, brings the object's repeat, which completes it. Until then readers
 * count its pending usage as an open batch's.
 */
async function completeApart(db: D1Database, plan: EndingPlan, batchId: string, w: FinalWrite): Promise<number> {
  try {
    return (await completeBatch(db, plan, { batchId, causeId: w.id, now: w.now })).handedOn;
  } catch (e) {
    log('warn', 'batch.completion_deferred', { batchId, evaluationId: w.id, error: messageOf(e) });
    return 0;
  }
}
