/**
 * @module
 * The API's reads of batches beyond the row itself: a page of the tenant's batches, verdict and usage
 * aggregates over a batch's items (aggregate SQL; the per-call usage rows are the billing record), and a
 * page of its items' outcomes in request order. Times are epoch ms.
 */
import type { BatchKind } from './schemas.js';
import type { BatchRecord, BatchRow } from './rows.js';
import { BATCH_SELECT, toBatchRecord } from './rows.js';
import { bookedSumsSql } from '../tenants/usage-rollup.js';

/** A keyset position in a newest-first list: (created_at, id) of the last row shown. */
export interface ListPosition {
  t: number;
  i: string;
}

/** One page of `tenant`'s batches, newest first, after `after`; one row more than `limit` says a next page exists. */
export async function listBatches(
  db: D1Database,
  tenant: string,
  o: { kind?: BatchKind | undefined; after: ListPosition | null; limit: number },
): Promise<BatchRecord[]> {
  const where = ['tenant = ?'];
  const binds: (string | number)[] = [tenant];
  if (o.kind) {
    where.push('kind = ?');
    binds.push(o.kind);
  }
  if (o.after) {
    where.push('(created_at < ? OR (created_at = ? AND id < ?))');
    binds.push(o.after.t, o.after.t, o.after.i);
  }
  const { results } = await db
    .prepare(`${BATCH_SELECT} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, o.limit + 1)
    .all<BatchRow>();
  return results.map(toBatchRecord);
}

/** Verdict counts and the mean score over the batch's stored verdicts (aggregate SQL). */
export async function verdictAggregates(
  db: D1Database,
  id: string,
): Promise<{ verdicts: number; winsA: number; winsB: number; ties: number; meanScore: number | null }> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n, COALESCE(SUM(e.winner = 'A'), 0) AS a, COALESCE(SUM(e.winner = 'B'), 0) AS b,
         COALESCE(SUM(e.winner = 'tie'), 0) AS t, AVG(e.score) AS mean
       FROM evaluations e WHERE e.batch_id = ? AND e.confidence IS NOT NULL`,
    )
    .bind(id)
    .first<{ n: number; a: number; b: number; t: number; mean: number | null }>();
  return {
    verdicts: row?.n ?? 0,
    winsA: row?.a ?? 0,
    winsB: row?.b ?? 0,
    ties: row?.t ?? 0,
    meanScore: row?.mean ?? null,
  };
}

/** Per aspect (a rubric's `aspects`), in the rubric's order: the mean score and how many verdicts scored it. */
export async function aspectAggregates(
  db: D1Database,
  id: string,
): Promise<{ name: string; meanScore: number | null; verdicts: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT json_extract(a.value, '$.name') AS name, AVG(json_extract(a.value, '$.score')) AS mean,
         count(json_extract(a.value, '$.score')) AS n
       FROM evaluations e JOIN verdict_texts vt ON vt.evaluation_id = e.id, json_each(vt.verdict, '$.aspects') a
       WHERE e.batch_id = ? GROUP BY name ORDER BY MIN(a.key), name`,
    )
    .bind(id)
    .all<{ name: string; mean: number | null; n: number }>();
  return results.map((r) => ({ name: r.name, meanScore: r.mean, verdicts: r.n }));
}

/** Usage summed over the per-call usage rows (the billing record) of every item of the batch. */
export async function usageAggregates(
  db: D1Database,
  id: string,
): Promise<{
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  estimated: boolean;
  costUsd: number;
  cacheSavedUsd: number;
}> {
  const row = await db
    .prepare(`SELECT ${bookedSumsSql('e')} FROM evaluations e WHERE e.batch_id = ?`)
    .bind(id)
    .first<{ calls: number; p: number; c: number; k: number; e: number; cost: number; saved: number }>();
  return {
    calls: row?.calls ?? 0,
    promptTokens: row?.p ?? 0,
    completionTokens: row?.c ?? 0,
    cachedPromptTokens: row?.k ?? 0,
    estimated: (row?.e ?? 0) !== 0,
    costUsd: row?.cost ?? 0,
    cacheSavedUsd: row?.saved ?? 0,
  };
}

/** One item with its evaluation's outcome, as a results line shows it. */
export interface ItemOutcomeRow {
  batch_seq: number;
  item_id: string | null;
  id: string;
  status: string;
  metadata: string | null;
  verdict: string | null;
  error_code: string | null;
  error_message: string | null;
  deleted_at: number | null;
  rubric_hash: string | null;
  rubric_id: string | null;
  rubric_version: number | null;
}

/** Items with `batch_seq` > `afterSeq` in request order, at most `limit` + 1 (the extra row says a next page exists). */
export async function resultsPage(
  db: D1Database,
  batchId: string,
  afterSeq: number,
  limit: number,
): Promise<ItemOutcomeRow[]> {
  const { results } = await db
    .prepare(
      `SELECT e.batch_seq, e.item_id, e.id, e.status, e.metadata, vt.verdict, e.error_code, e.error_message, e.deleted_at,
         e.rubric_hash, e.rubric_id, e.rubric_version
       FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE e.batch_id = ? AND e.batch_seq > ? ORDER BY e.batch_seq LIMIT ?`,
    )
    .bind(batchId, afterSeq, limit + 1)
    .all<ItemOutcomeRow>();
  return results;
}

/** One item's end for the stability summary: its status and its repeat verdict's runs (JSON text), if any. */
export interface RepeatRunsRow {
  status: string;
  runs: string | null;
}

/** Every item's status and `details.repeat.runs` (a `repeat` batch), for the stability summary. */
export async function repeatRunsOfBatch(db: D1Database, batchId: string): Promise<RepeatRunsRow[]> {
  const { results } = await db
    .prepare(
      `SELECT e.status, json_extract(vt.verdict, '$.details.repeat.runs') AS runs
       FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE e.batch_id = ? AND e.deleted_at IS NULL`,
    )
    .bind(batchId)
    .all<RepeatRunsRow>();
  return results;
}
