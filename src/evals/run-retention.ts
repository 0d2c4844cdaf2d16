/**
 * @module
 * Retention of Evals runs, by the rule evaluations follow (src/retention/sweep.ts): an ended run's content (its
 * inline items and metadata, its output items, its stored model replies and batch-tier calls) is erased
 * `retentionDays` after it ended (the tenant's, else `RETENTION_DAYS`; 0 = kept until deleted), exactly as
 * `DELETE …/runs/{id}` erases it: the run kept as a tombstone (no longer found or listed), its usage rows kept
 * for billing. Oldest end first, a bounded page per sweep, found through the index of ended runs by end time
 * (migration 0048). A run's end is its `updated_at`: ending it (completed, failed, canceled) is its last write.
 */
import { shortestRetentionDaysSql } from '../tenants/rows.js';
import { eraseRuns } from './run-rows.js';

const DAY_MS = 86_400_000;

/** Ended runs one sweep of a shard erases at most: 50. */
export const EVAL_RUN_RETENTION_PAGE = 50;

/** D1 queries {@link eraseExpiredRuns} makes at most: the page's read and one batch. */
export const EVAL_RUN_RETENTION_QUERIES = 2;

/**
 * Erases up to `limit` runs of `db` that ended more than their tenant's retention before `now` (epoch ms);
 * `defaultDays` is `RETENTION_DAYS`, for tenants without their own. Answers how many it erased.
 */
export async function eraseExpiredRuns(
  db: D1Database,
  now: number,
  defaultDays: number,
  limit: number,
): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT r.id FROM eval_runs r LEFT JOIN tenants t ON t.id = r.tenant
       WHERE r.deleted_at IS NULL AND r.status IN ('completed', 'failed', 'canceled')
         AND r.updated_at < ?2 - ${shortestRetentionDaysSql('?1')} * ${DAY_MS}
         AND COALESCE(t.retention_days, ?1) > 0 AND r.updated_at < ?2 - COALESCE(t.retention_days, ?1) * ${DAY_MS}
       ORDER BY r.updated_at LIMIT ?3`,
    )
    .bind(defaultDays, now, limit)
    .all<{ id: string }>();
  if (results.length === 0) return 0;
  const ids = JSON.stringify(results.map((r) => r.id));
  const [, marked] = await db.batch(eraseRuns(db, `id IN (SELECT value FROM json_each(?))`, [ids], now));
  return marked?.meta.changes ?? 0;
}
