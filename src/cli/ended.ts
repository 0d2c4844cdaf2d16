/**
 * @module
 * What `npm start` says about an ended evaluation or batch, read from the local D1 by the runtime process
 * (src/cli/miniflare-runtime.ts, over HTTP through its helper Worker, ./local-ops.ts): the Worker logs
 * only an evaluation's id, status, calls and batch when it ends, and a batch's completion happens in SQL. Local development only; reads
 * nothing but ids, statuses, verdict headlines and figures (never a task or a reply). Node only.
 */

/** The part of a D1 binding used here. */
export interface D1Reader {
  prepare(sql: string): { bind(...values: unknown[]): { first<T>(): Promise<T | null> } };
}

/** An ended evaluation, as its terminal line shows it. Times in ms. */
export interface EndedEvaluation {
  id: string;
  status: string;
  method: string;
  preset: string | null;
  batchId: string | null;
  winner: string | null;
  score: number | null;
  confidence: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  calls: number;
  costUsd: number;
  durationMs: number | null;
}

/** A completed (or cancelled) batch, meta-evaluation or comparison, as its terminal line shows it. */
export interface EndedBatch {
  id: string;
  kind: 'batch' | 'meta_evaluation' | 'comparison';
  status: string;
  method: string;
  preset: string | null;
  itemsTotal: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  costUsd: number;
  durationMs: number;
  /** When its last item ended (or its cancel took effect), epoch ms. */
  completedAt: number;
}

/** What the runtime answers about an evaluation (and its batch, once that has ended) or a batch. */
export interface Described {
  evaluation: EndedEvaluation | null;
  batch: EndedBatch | null;
}

/** Which ended thing to describe: an evaluation (with its batch) or a batch. */
export type EndedRef = { evaluationId: string } | { batchId: string };

const EVALUATION_SQL = `SELECT e.id, e.status, e.method, e.preset, e.batch_id AS batchId, e.winner, e.score, e.confidence,
    e.error_code AS errorCode, e.error_message AS errorMessage, e.calls_done AS calls,
    e.cost_usd AS costUsd,
    e.finished_at - COALESCE(e.started_at, e.created_at) AS durationMs
  FROM evaluations e
  WHERE e.id = ? AND e.status IN ('succeeded', 'failed', 'cancelled')`;

const BATCH_SQL = `SELECT b.id, b.kind, b.status, b.method, b.preset, b.items_total AS itemsTotal, b.succeeded, b.failed,
    b.cancelled, (SELECT COALESCE(SUM(e.cost_usd), 0) FROM evaluations e WHERE e.batch_id = b.id) AS costUsd,
    b.completed_at - b.created_at AS durationMs, b.completed_at AS completedAt
  FROM batches b WHERE b.id = ? AND b.completed_at IS NOT NULL`;

/** Reads what `ref` names, if it has ended; an evaluation of a batch brings the batch once the batch has ended. */
export async function readEnded(db: D1Reader, ref: EndedRef): Promise<Described> {
  if ('batchId' in ref) return { evaluation: null, batch: await db.prepare(BATCH_SQL).bind(ref.batchId).first() };
  const evaluation = await db.prepare(EVALUATION_SQL).bind(ref.evaluationId).first<EndedEvaluation>();
  const batch = evaluation?.batchId ? await db.prepare(BATCH_SQL).bind(evaluation.batchId).first<EndedBatch>() : null;
  return { evaluation, batch };
}
