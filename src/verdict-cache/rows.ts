/**
 * @module
 * The verdict cache's D1 statements: marking new evaluations that hit (in the transaction that creates
 * them), the columns a started evaluation reads its hit from, recording a succeeded verdict as an entry (an
 * effect of the ending's transaction), forgetting a deleted source, and the hits a usage report and a batch
 * count.
 * Times are epoch milliseconds. Schema: migrations/0008_verdict_cache.sql.
 */

/** Days → ms. */
const DAY_MS = 86_400_000;

/** The oldest entry creation time that still serves at `now`, for a TTL in days. */
export function servesSince(now: number, ttlDays: number): number {
  return now - ttlDays * DAY_MS;
}

/** The live entry for the row `evaluations` (its tenant and key) with a verdict, created at or after the bound time. */
const LIVE_ENTRY = `FROM verdict_cache c JOIN verdicts v ON v.evaluation_id = c.evaluation_id
  WHERE c.tenant = evaluations.tenant AND c.key = evaluations.cache_key AND c.created_at >= ?`;

/**
 * Marks the `use` evaluations of one new evaluation (`{ id }`) or of a new batch (`{ batchId }`) that have a
 * live entry as hits: `cache_from` (the entry's source), `cache_saved_usd` (what the source's calls cost) and 0
 * planned calls. Only still-queued rows that are not hits yet; rows without an entry are not written. Run in the
 * transaction that inserts them, so the start that follows reads its hit with its job.
 * @param since the oldest entry creation time that serves ({@link servesSince}).
 */
export function markHitsStatement(
  db: D1Database,
  scope: { id: string } | { batchId: string },
  since: number,
): D1PreparedStatement {
  const where = 'id' in scope ? 'id = ?' : 'batch_id = ?';
  return db
    .prepare(
      `UPDATE evaluations SET (cache_from, cache_saved_usd, calls_planned) = (
         SELECT c.evaluation_id, (SELECT s.cost_usd FROM evaluations s WHERE s.id = c.evaluation_id), 0
         ${LIVE_ENTRY})
       WHERE ${where} AND cache_mode = 'use' AND cache_key IS NOT NULL AND cache_from IS NULL AND status = 'queued'
         AND EXISTS (SELECT 1 ${LIVE_ENTRY})`,
    )
    .bind(since, 'id' in scope ? scope.id : scope.batchId, since);
}

/**
 * Records evaluation `id`'s verdict as the entry of its key: only a `use` or `refresh` evaluation that was no
 * hit itself, not deleted, whose verdict (inserted earlier in the same transaction) exists and was not cut
 * short by a budget; it replaces an older entry of the same key. `guard` is the ending's guard (binds the id
 * once), so the entry is written exactly when the evaluation succeeds.
 */
export function recordEntryStatement(db: D1Database, id: string, now: number, guard: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO verdict_cache (tenant, key, evaluation_id, created_at)
       SELECT e.tenant, e.cache_key, e.id, ? FROM evaluations e JOIN verdicts v ON v.evaluation_id = e.id
       WHERE e.id = ? AND e.cache_key IS NOT NULL AND e.cache_mode IN ('use', 'refresh') AND e.cache_from IS NULL
         AND e.deleted_at IS NULL AND json_extract(v.verdict, '$.budgetTruncated') IS NULL AND ${guard}
       ON CONFLICT (tenant, key) DO UPDATE SET evaluation_id = excluded.evaluation_id, created_at = excluded.created_at`,
    )
    .bind(now, id, id);
}

/**
 * Deleting evaluation `id` (in the deletion's own transaction): its entries go, and evaluations still queued
 * that were to take its verdict run as misses instead.
 */
export function forgetSourceStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM verdict_cache WHERE evaluation_id = ?').bind(id),
    db
      .prepare(
        `UPDATE evaluations SET cache_from = NULL, cache_saved_usd = NULL WHERE cache_from = ? AND status = 'queued'`,
      )
      .bind(id),
  ];
}

/** Verdict cache hits of a tenant created in `[from, to)` that succeeded, and the USD they saved. */
export interface HitSums {
  hits: number;
  savedUsd: number;
}

/** The tenant's {@link HitSums} for evaluations created in `[from, to)` (epoch ms). */
export async function hitSums(db: D1Database, tenant: string, from: number, to: number): Promise<HitSums> {
  const row = await db
    .prepare(
      `SELECT count(*) AS hits, COALESCE(SUM(cache_saved_usd), 0) AS saved FROM evaluations
       WHERE tenant = ? AND cache_from IS NOT NULL AND created_at >= ? AND created_at < ? AND status = 'succeeded'`,
    )
    .bind(tenant, from, to)
    .first<{ hits: number; saved: number }>();
  return { hits: row?.hits ?? 0, savedUsd: row?.saved ?? 0 };
}

/** A batch's {@link HitSums}: its items that succeeded with a cached verdict, and what those verdicts had cost. */
export async function batchHitSums(db: D1Database, batchId: string): Promise<HitSums> {
  const row = await db
    .prepare(
      `SELECT count(*) AS hits, COALESCE(SUM(cache_saved_usd), 0) AS saved FROM evaluations
       WHERE batch_id = ? AND cache_from IS NOT NULL AND status = 'succeeded'`,
    )
    .bind(batchId)
    .first<{ hits: number; saved: number }>();
  return { hits: row?.hits ?? 0, savedUsd: row?.saved ?? 0 };
}
