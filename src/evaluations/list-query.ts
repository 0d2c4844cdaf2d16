/**
 * @module
 * The listing query of `GET /v1/evaluations`: a tenant's evaluations that are not deleted, filtered,
 * newest first, keyset-paged on (created_at, id) (index `evaluations_tenant_created`), so a page boundary
 * stays put when rows are inserted. Times are epoch ms.
 */
import type { EvaluationStatus } from './status.js';
import { taskKindSql } from './task-rows.js';

/** Filters, combined with AND; absent ones do not filter. */
export interface ListFilters {
  status?: EvaluationStatus | undefined;
  preset?: string | undefined;
  batchId?: string | undefined;
  /** The stored rubric it judged by, and its version when given (index `evaluations_tenant_rubric`). */
  rubric?: { id: string; version?: number } | undefined;
  /** A metadata entry, its value compared as text (numbers in JSON form, booleans `true` / `false`). */
  metadata?: { key: string; value: string } | undefined;
  /** Made of this trace (`source.traceId`; index `evaluations_tenant_source_trace`). */
  traceId?: string | undefined;
  /** Made by this monitor (`source.monitorId`; index `evaluations_tenant_source_monitor`). */
  monitorId?: string | undefined;
  /** created_at ≥ this. */
  createdFrom?: number | undefined;
  /** created_at < this. */
  createdUntil?: number | undefined;
}

/** The last row of the previous page. */
export interface ListAfter {
  createdAt: number;
  id: string;
}

/** One listed row. */
export interface ListedRow {
  id: string;
  status: EvaluationStatus;
  method: string;
  preset: string | null;
  task_kind: 'pairwise' | 'pointwise' | 'trajectory';
  metadata: string | null;
  batch_id: string | null;
  meta_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  winner: 'A' | 'B' | 'tie' | null;
  score: number | null;
  /** The scale the score is on (the verdict's, else its overall's, else the task aspect's); null pairwise. */
  scale_min: number | null;
  scale_max: number | null;
  confidence: number | null;
  /** The stored `source` JSON, or null. */
  source: string | null;
}

/** A bound of the scale a listed score is on: verdicts from before `scale` fall back to the overall's, then the task's. */
const SCALE = (bound: 'min' | 'max') =>
  `COALESCE(json_extract(vt.verdict, '$.scale.${bound}'), json_extract(vt.verdict, '$.details.overallScale.${bound}'),
     json_extract(NULLIF(e.task, ''), '$.aspect.scale.${bound}')) AS scale_${bound}`;

/** A metadata value as text: strings as they are, numbers as JSON writes them, booleans `true` / `false`. */
const METADATA_TEXT = "CASE type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(value AS TEXT) END";

/** One page: at most `limit` + 1 rows (the extra one says a next page exists). */
export async function listEvaluations(
  db: D1Database,
  tenant: string,
  filters: ListFilters,
  after: ListAfter | null,
  limit: number,
): Promise<ListedRow[]> {
  const where = ['e.tenant = ?', 'e.deleted_at IS NULL'];
  const binds: (string | number)[] = [tenant];
  const add = (sql: string, ...values: (string | number)[]) => {
    where.push(sql);
    binds.push(...values);
  };
  if (filters.status !== undefined) add('e.status = ?', filters.status);
  if (filters.preset !== undefined) add('e.preset = ?', filters.preset);
  if (filters.batchId !== undefined) add('e.batch_id = ?', filters.batchId);
  if (filters.rubric !== undefined) {
    add('e.rubric_id = ?', filters.rubric.id);
    if (filters.rubric.version !== undefined) add('e.rubric_version = ?', filters.rubric.version);
  }
  if (filters.metadata !== undefined) {
    add(
      `EXISTS (SELECT 1 FROM json_each(e.metadata) WHERE key = ? AND ${METADATA_TEXT} = ?)`,
      filters.metadata.key,
      filters.metadata.value,
    );
  }
  if (filters.traceId !== undefined)
    add("e.source IS NOT NULL AND json_extract(e.source, '$.traceId') = ?", filters.traceId);
  if (filters.monitorId !== undefined)
    add("e.source IS NOT NULL AND json_extract(e.source, '$.monitorId') = ?", filters.monitorId);
  if (filters.createdFrom !== undefined) add('e.created_at >= ?', filters.createdFrom);
  if (filters.createdUntil !== undefined) add('e.created_at < ?', filters.createdUntil);
  if (after) add('(e.created_at < ? OR (e.created_at = ? AND e.id < ?))', after.createdAt, after.createdAt, after.id);
  const { results } = await db
    .prepare(
      `SELECT e.id, e.status, e.method, e.preset, ${taskKindSql('e')} AS task_kind, e.metadata, e.batch_id, e.meta_id,
         e.error_code, e.error_message, e.created_at, e.started_at, e.finished_at, e.source, e.winner, e.score, e.confidence,
         ${SCALE('min')}, ${SCALE('max')}
       FROM evaluations e LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id
       WHERE ${where.join(' AND ')} ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    )
    .bind(...binds, limit + 1)
    .all<ListedRow>();
  return results;
}
