/**
 * @module
 * Retention of a batch's items: they are erased with their batch, once the tenant's `retentionDays` (else
 * `RETENTION_DAYS`; 0 = kept until deleted) have passed since the batch completed, rather than since each item
 * ended (an item ends before its batch completes, so it is kept at most the batch's duration longer). Why: the index
 * retention finds evaluations by (`evaluations_retention`, by tenant and end) cost every ended evaluation an entry
 * written; a batch's items leave it (migration 0041), and the batch is found instead through `batches_retention`,
 * one entry per batch written with its completion. Every batch completes: a cancel or a used-up budget ends its
 * items too, and the sweeper re-kicks an item that stalls. Its items are erased as `DELETE /v1/evaluations/{id}`
 * erases each (src/evaluations/list.ts `eraseEvaluations`), in position order from `items_erased_below`.
 * One run reads one page across the due batches (the longest completed first, each in position order), as many
 * items as the tenants' pages of ./sweep.ts erase, with a budget of its own, so small batches cost no more runs
 * than large ones. It then moves each batch's mark past what it erased, or to its first failure (tried again next
 * run, while the page goes on to the other batches), and marks a batch whose items the page passed the end of
 * `items_erased_at`, which takes it out of the index. Time comes from the caller (`now`, epoch ms).
 */
import type { Bindings } from '../config/bindings.js';
import { log } from '../log/log.js';
import { eraseEvaluations } from '../evaluations/list.js';
import { shortestRetentionDaysSql } from '../tenants/rows.js';

const DAY_MS = 86_400_000;

/**
 * D1 queries one run of {@link eraseBatchItemsDue} makes besides its erasure batches (10 items a batch, counted
 * with the run's, src/retention/sweep.ts): the page's read and one batch of the batches' marks.
 */
export const BATCH_ITEM_QUERIES = 2;

/** What one run of {@link eraseBatchItemsDue} did. */
export interface BatchItemsErased {
  /** Items erased. */
  erased: number;
  /** Items whose erasure failed (tried again next run). */
  errors: number;
  /** Batches marked done (every item erased). */
  batchesDone: number;
}

/** A row of the page: an item (null for a batch with none left past its mark) of a due batch. */
interface PageRow {
  batch: string;
  tenant: string;
  below: number;
  id: string | null;
  seq: number | null;
}

/**
 * Erases up to `limit` items of the batches of `db` whose retention ended by `now`, the longest completed first;
 * `defaultDays` is `RETENTION_DAYS`. Never throws for one item's error: a failed item keeps its batch's mark at
 * its position, so the next run tries it again.
 */
export async function eraseBatchItemsDue(
  env: Bindings,
  db: D1Database,
  now: number,
  defaultDays: number,
  limit: number,
): Promise<BatchItemsErased> {
  const done: BatchItemsErased = { erased: 0, errors: 0, batchesDone: 0 };
  if (limit <= 0) return done;
  // The nested loop gives the order (batches_retention by completion and rowid, then evaluations_batch by
  // position), so the read stops at the limit without sorting; a batch with nothing left gives one null row.
  const { results: rows } = await db
    .prepare(
      `SELECT b.id AS batch, b.tenant AS tenant, b.items_erased_below AS below, e.id AS id, e.batch_seq AS seq
       FROM batches b INDEXED BY batches_retention LEFT JOIN tenants t ON t.id = b.tenant
         LEFT JOIN evaluations e INDEXED BY evaluations_batch
           ON e.batch_id = b.id AND e.batch_seq >= b.items_erased_below AND e.deleted_at IS NULL
       WHERE b.completed_at IS NOT NULL AND b.items_erased_at IS NULL AND COALESCE(t.retention_days, ?1) > 0
         AND b.completed_at < ?2 - ${shortestRetentionDaysSql('?1')} * ${DAY_MS}
         AND b.completed_at < ?2 - COALESCE(t.retention_days, ?1) * ${DAY_MS}
       ORDER BY b.completed_at, b.rowid, e.batch_seq LIMIT ?3`,
    )
    .bind(defaultDays, now, limit)
    .all<PageRow>();
  if (rows.length === 0) return done;
  const items = rows.flatMap((r) => (r.id === null ? [] : [{ tenant: r.tenant, id: r.id }]));
  const erasure = await eraseEvaluations(env, db, items, 'retention');
  done.erased += erasure.erased.length;
  done.errors += erasure.failed.length;
  for (const { ref, error } of erasure.failed)
    log('error', 'retention.erase_failed', { evaluationId: ref.id, tenant: ref.tenant, error });
  const failed = new Set(erasure.failed.map((f) => f.ref.id));
  const marks = new Map<string, { below: number; failed: boolean; empty: boolean }>();
  for (const r of rows) {
    const mark = marks.get(r.batch) ?? { below: r.below, failed: false, empty: r.id === null };
    if (r.id !== null && r.seq !== null && !mark.failed) {
      if (failed.has(r.id)) mark.failed = true;
      mark.below = failed.has(r.id) ? r.seq : r.seq + 1;
    }
    marks.set(r.batch, mark);
  }
  // Every batch but the page's last was passed to its end; the last too when the page came back short or it
  // had nothing left (its null row).
  const last = rows.at(-1)?.batch;
  const marking = [...marks].map(([batch, mark]) => {
    const finished = !mark.failed && (mark.empty || batch !== last || rows.length < limit);
    if (finished) done.batchesDone++;
    return db
      .prepare(
        `UPDATE batches SET items_erased_below = MAX(items_erased_below, ?), items_erased_at = ?
         WHERE id = ? AND items_erased_at IS NULL`,
      )
      .bind(mark.below, finished ? now : null, batch);
  });
  await db.batch(marking);
  return done;
}
