/**
 * @module
 * Retention of a batch's items: they are erased with their batch, once the tenant's `retentionDays` (else
 * `RETENTION_DAYS`; 0 = kept until deleted) have passed since the batch completed, rather than since each item
 * ended (an item ends before its batch completes, so it is kept at most the batch's duration longer). Why: the index
 * retention finds evaluations by (`evaluations_retention`, by tenant and end) cost every ended evaluation an entry
 * written; a batch's items leave it (migration 0041), and the batch is found instead through `batches_retention`,
 * one entry per batch written with its completion. Its items are erased as `DELETE /v1/evaluations/{id}` erases
 * each (src/evaluations/list.ts `eraseEvaluations`), in position order from `items_erased_below`, which the run
 * moves past the page it erased; the page that finds no more marks the batch `items_erased_at`, out of the index.
 * Time comes from the caller (`now`, epoch ms).
 */
import type { Bindings } from '../config/bindings.js';
import { log } from '../log/log.js';
import { ERASE_CHUNK, eraseEvaluations } from '../evaluations/list.js';

/** Completed batches whose items one run of a shard erases a page of (`RETENTION_PAGE` items each): 4. */
export const BATCHES_PER_RUN = 4;

const DAY_MS = 86_400_000;

/**
 * D1 queries one run of {@link eraseBatchItemsDue} makes at most with `RETENTION_PAGE` `page` (at most `erasures`
 * items in all): the due batches, then per batch its page's read, its erasure batches (10 a batch) and its mark.
 */
export function batchItemQueries(page: number, erasures: number): number {
  return 1 + BATCHES_PER_RUN * (2 + Math.ceil(Math.min(page, erasures) / ERASE_CHUNK));
}

/** What one run of {@link eraseBatchItemsDue} did. */
export interface BatchItemsErased {
  /** Items erased. */
  erased: number;
  /** Items whose erasure failed (tried again next run). */
  errors: number;
}

/**
 * Erases a page (`page` items at most, `erasures` in all) of each of up to {@link BATCHES_PER_RUN} batches of `db`
 * whose retention ended by `now`, the longest completed first; `defaultDays` is `RETENTION_DAYS`. Never throws for
 * one item's error: a failed item keeps the batch's mark at its position, so the next run tries it again.
 */
export async function eraseBatchItemsDue(
  env: Bindings,
  db: D1Database,
  now: number,
  defaultDays: number,
  page: number,
  erasures: number,
): Promise<BatchItemsErased> {
  const done: BatchItemsErased = { erased: 0, errors: 0 };
  const { results: due } = await db
    .prepare(
      `SELECT b.id AS id, b.tenant AS tenant, b.items_erased_below AS below
       FROM batches b INDEXED BY batches_retention LEFT JOIN tenants t ON t.id = b.tenant
       WHERE b.completed_at IS NOT NULL AND b.items_erased_at IS NULL AND COALESCE(t.retention_days, ?1) > 0
         AND b.completed_at < ?2 - COALESCE(t.retention_days, ?1) * ${DAY_MS}
       ORDER BY b.completed_at LIMIT ?3`,
    )
    .bind(defaultDays, now, BATCHES_PER_RUN)
    .all<{ id: string; tenant: string; below: number }>();
  for (const batch of due) {
    const limit = Math.min(page, erasures - done.erased - done.errors);
    if (limit <= 0) break;
    const { results: items } = await db
      .prepare(
        `SELECT id, batch_seq AS seq FROM evaluations
         WHERE batch_id = ? AND batch_seq >= ? AND deleted_at IS NULL ORDER BY batch_seq LIMIT ?`,
      )
      .bind(batch.id, batch.below, limit)
      .all<{ id: string; seq: number }>();
    const erasure = await eraseEvaluations(
      env,
      db,
      items.map(({ id }) => ({ tenant: batch.tenant, id })),
      'retention',
    );
    done.erased += erasure.erased.length;
    done.errors += erasure.failed.length;
    for (const { ref, error } of erasure.failed)
      log('error', 'retention.erase_failed', { evaluationId: ref.id, tenant: batch.tenant, batchId: batch.id, error });
    const failed = new Set(erasure.failed.map((f) => f.ref.id));
    const firstFailed = items.find((i) => failed.has(i.id));
    const last = items.at(-1);
    // Past the page, or at its first failure; the batch is done once a page without failures came back short.
    const below = firstFailed?.seq ?? (last === undefined ? batch.below : last.seq + 1);
    const finished = firstFailed === undefined && items.length < limit;
    await db
      .prepare(
        'UPDATE batches SET items_erased_below = ?, items_erased_at = ? WHERE id = ? AND items_erased_at IS NULL',
      )
      .bind(below, finished ? now : null, batch.id)
      .run();
  }
  return done;
}
