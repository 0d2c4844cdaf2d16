/**
 * @module
 * Listing and deleting evaluations: `GET /v1/evaluations` (filters, keyset pages behind an opaque cursor)
 * and `DELETE /v1/evaluations/{id}` (data retention: the object's storage and the D1 rows that hold what
 * was judged are erased, the usage rows billing needs are kept).
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { evaluationStub } from './stub.js';
import { errorOf } from './job-rows.js';
import { eraseEvaluation, eraseEvaluationStatements } from './erase-rows.js';
import { getEvaluation } from './rows.js';
import type { ListedRow } from './list-query.js';
import { listEvaluations } from './list-query.js';
import { decodeCursor, encodeCursor, mergeNewestFirst } from '../http/cursor.js';
import { ApiError } from '../http/errors.js';
import { messageOf } from '../log/log.js';
import type { EvaluationListItem, ListEvaluationsQuery } from './list-schemas.js';
import { metadataFilter, rubricFilter } from './list-schemas.js';
import { linksOf } from './views.js';
import { recordDbOf } from '../config/d1-shards.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import { spreadDbs } from '../tenants/rows.js';
import { eraseArchived } from '../archive/store.js';
import { sourceOfText } from './source.js';

const CursorSchema = z.object({ t: z.number().int(), i: z.string().min(1) }).strict();

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function itemOf(r: ListedRow): EvaluationListItem {
  return {
    id: r.id,
    status: r.status,
    method: r.method,
    preset: r.preset,
    taskKind: r.task_kind,
    metadata: r.metadata ? (JSON.parse(r.metadata) as EvaluationListItem['metadata']) : null,
    batchId: r.batch_id,
    metaId: r.meta_id,
    verdict:
      r.confidence !== null
        ? {
            winner: r.winner,
            score: r.score,
            scale:
              r.score !== null && r.scale_min !== null && r.scale_max !== null
                ? { min: r.scale_min, max: r.scale_max }
                : null,
            confidence: r.confidence,
          }
        : null,
    error: errorOf(r.error_code, r.error_message),
    source: sourceOfText(r.source),
    createdAt: iso(r.created_at) ?? '',
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    links: linksOf(r.id),
  };
}

/**
 * One page of the tenant's evaluations (deleted ones excluded), newest first: a page from each D1 shard its
 * evaluations may be in (one for a spread of 1, the batch's alone with `batch`), merged by the same order.
 * @param limits the tenant's limits as auth loaded them (its spread); read from the control database when absent.
 * @throws ApiError 400 naming `cursor` for a cursor this API did not make.
 */
export async function listEvaluationsView(
  env: Bindings,
  tenant: string,
  q: ListEvaluationsQuery,
  limits?: EffectiveLimits | null,
): Promise<{ data: EvaluationListItem[]; nextCursor: string | null }> {
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor, CursorSchema);
  const dbs = q.batch !== undefined ? [recordDbOf(env, tenant, q.batch)] : await spreadDbs(env, tenant, limits);
  const pages = await Promise.all(
    dbs.map((db) =>
      listEvaluations(
        db,
        tenant,
        {
          status: q.status,
          preset: q.preset,
          batchId: q.batch,
          metadata: q.metadata === undefined ? undefined : metadataFilter(q.metadata),
          rubric: q.rubric === undefined ? undefined : rubricFilter(q.rubric),
          traceId: q.traceId,
          monitorId: q.monitor,
          createdFrom: q.createdAfter === undefined ? undefined : Date.parse(q.createdAfter),
          createdUntil: q.createdBefore === undefined ? undefined : Date.parse(q.createdBefore),
        },
        after ? { createdAt: after.t, id: after.i } : null,
        q.limit,
      ),
    ),
  );
  const rows = mergeNewestFirst(pages, (r) => ({ createdAt: r.created_at, id: r.id }), q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(itemOf),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.created_at, i: last.id }) : null,
  };
}

/**
 * Deletes the evaluation's data (idempotent): first in its Durable Object, which cancels it if it has not
 * ended (no new LLM calls) and erases config, task and results, once the usage of calls still in flight has
 * reached D1; then in D1, where the transcript and verdict rows go and the row keeps only what billing
 * and the batch counts need (src/evaluations/erase-rows.ts). A deleted evaluation then reads as 404. One
 * moved to the archive, or being moved, is erased there.
 * @throws ApiError 404 `not_found` for an id the tenant never had.
 */
export async function deleteEvaluation(env: Bindings, tenant: string, id: string): Promise<void> {
  const db = recordDbOf(env, tenant, id);
  const row = await getEvaluation(db, tenant, id);
  if (!row) {
    // Moved to the archive (src/retention/archive.ts): erased there.
    if (await eraseArchived(env, tenant, id)) return;
    throw new ApiError(404, 'not_found', `no evaluation "${id}"`);
  }
  // A failure here propagates (500): the caller's retry repeats both steps, which are idempotent.
  await evaluationStub(env, id).erase(id);
  await eraseEvaluation(db, id, Date.now());
  // A move under way may have archived it already (it checks again after its put): erased there too.
  await eraseArchived(env, tenant, id);
}

/** An evaluation the crons erase in bulk: its tenant and id. */
export interface EvaluationRef {
  tenant: string;
  id: string;
}

/** What {@link eraseEvaluations} did: the evaluations erased, and those it could not erase, with why. */
export interface BulkErasure {
  erased: EvaluationRef[];
  failed: { ref: EvaluationRef; error: string }[];
}

/** Evaluations one D1 batch of {@link eraseEvaluations} erases: 10 (about 120 statements, one D1 query). */
export const ERASE_CHUNK = 10;

/**
 * Erases `refs`, evaluations of `db`, as {@link deleteEvaluation} erases each, in bulk for the crons: per
 * {@link ERASE_CHUNK}, their objects first (an RPC each, at once), then the D1 content of those whose object
 * was erased, in one D1 batch (so a page of 500 costs 50 of an invocation's 1,000 D1 queries). `retention`
 * then erases any archived copy (a move that raced it), as DELETE does; `move` (the archive's move, which wrote
 * that copy) keeps it and drops the tombstones in the same batch, so a later GET finds the archived copy. One
 * whose object or batch failed is left as it was (the next run tries again). Idempotent.
 */
export async function eraseEvaluations(
  env: Bindings,
  db: D1Database,
  refs: readonly EvaluationRef[],
  mode: 'retention' | 'move',
): Promise<BulkErasure> {
  const out: BulkErasure = { erased: [], failed: [] };
  for (let i = 0; i < refs.length; i += ERASE_CHUNK) {
    const chunk = refs.slice(i, i + ERASE_CHUNK);
    const objects = await Promise.allSettled(chunk.map((r) => evaluationStub(env, r.id).erase(r.id)));
    const ready = chunk.filter((ref, j) => {
      const o = objects[j];
      if (o?.status === 'rejected') out.failed.push({ ref, error: messageOf(o.reason) });
      return o?.status === 'fulfilled';
    });
    if (ready.length === 0) continue;
    const now = Date.now();
    try {
      await db.batch(
        ready.flatMap((r) => [
          ...eraseEvaluationStatements(db, r.id, now),
          ...(mode === 'move'
            ? [db.prepare('DELETE FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL').bind(r.id)]
            : []),
        ]),
      );
    } catch (e) {
      out.failed.push(...ready.map((ref) => ({ ref, error: messageOf(e) })));
      continue;
    }
    if (mode === 'move') {
      out.erased.push(...ready);
      continue;
    }
    const archived = await Promise.allSettled(ready.map((r) => eraseArchived(env, r.tenant, r.id)));
    ready.forEach((ref, j) => {
      const a = archived[j];
      if (a?.status === 'rejected') out.failed.push({ ref, error: messageOf(a.reason) });
      else out.erased.push(ref);
    });
  }
  return out;
}
