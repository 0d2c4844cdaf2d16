/**
 * @module
 * The verdict cache's D1 statements: marking new evaluations that hit (in the transaction that creates
 * them), the columns a started evaluation reads its hit from, recording a succeeded verdict as an entry (an
 * effect of the ending's transaction), forgetting a deleted source, and the hits a usage report and a batch
 * count.
 * An entry is no row of its own: it is the succeeded source evaluation's `cache_entry_at`, set by the status
 * update that ends it (./rows.ts {@link ENTRY_SET_SQL}), indexed by tenant and key (one index row written).
 * Times are epoch milliseconds. Schema: migrations/0008_verdict_cache.sql, 0026_verdict_on_the_row.sql.
 */

/** Days → ms. */
const DAY_MS = 86_400_000;

/** The oldest entry creation time that still serves at `now`, for a TTL in days. */
export function servesSince(now: number, ttlDays: number): number {
  return now - ttlDays * DAY_MS;
}

/**
 * The live entry for the row `evaluations` (its tenant and key), created at or after the bound time: the
 * newest, through `evaluations_cache_entries` (at most one row carries an entry per key anyway).
 */
const LIVE_ENTRY = `FROM evaluations c
  WHERE c.tenant = evaluations.tenant AND c.cache_key = evaluations.cache_key AND c.cache_entry_at >= ?
  ORDER BY c.cache_entry_at DESC LIMIT 1`;

/**
 * SQL of a new evaluation's hit, for its insert (src/evaluations/insert-rows.ts) over a row aliased `evaluations`
 * with the new row's `tenant` and `cache_key`: the live entry's source id (`id`) and what its calls cost
 * (`costUsd`), NULL without one; {@link markHitsStatement}'s marks, written with the row instead of after it.
 * Each binds `since` once ({@link servesSince}).
 */
export function hitOnInsertSql(): { id: string; costUsd: string } {
  return { id: `(SELECT c.id ${LIVE_ENTRY})`, costUsd: `(SELECT c.cost_usd ${LIVE_ENTRY})` };
}

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
         SELECT c.id, c.cost_usd, 0 ${LIVE_ENTRY})
       WHERE ${where} AND cache_mode = 'use' AND cache_key IS NOT NULL AND cache_from IS NULL AND status = 'queued'
         AND EXISTS (SELECT 1 ${LIVE_ENTRY})`,
    )
    .bind(since, 'id' in scope ? scope.id : scope.batchId, since);
}

/**
 * SQL (binds nothing) that is true for a row of `alias` (absent: the statement's one table, unqualified) whose mode
 * and key let it become its key's entry (`use` or `refresh`, with a key): neither changes once the row exists, so
 * its object reads it with its job (`StartJob.cacheEntry`) and a final write of a row where it is false leaves the
 * entry's statement out. {@link mayBecomeEntry} says the same for a new row's plan; keep the two together.
 */
export function cacheEntrySql(alias?: string): string {
  const col = (name: string) => (alias !== undefined ? `${alias}.${name}` : name);
  return `(${col('cache_key')} IS NOT NULL AND ${col('cache_mode')} IN ('use', 'refresh'))`;
}

/** {@link cacheEntrySql} for a new row's cache plan (its mode and key); false for none. */
export function mayBecomeEntry(plan: { mode: string; key: string | null } | null | undefined): boolean {
  return plan !== null && plan !== undefined && plan.key !== null && (plan.mode === 'use' || plan.mode === 'refresh');
}

/**
 * The rows that may become their key's entry when they succeed: {@link cacheEntrySql}, no hit themselves, not
 * deleted.
 */
const MAY_BE_ENTRY = `${cacheEntrySql()} AND cache_from IS NULL AND deleted_at IS NULL`;

/**
 * The `SET` term of the status update that ends an evaluation `succeeded` (src/evaluations/ending.ts) making
 * it its key's entry: binds the entry's time (epoch ms), or null for a verdict that must not serve (cut short
 * by a budget). Only a row that {@link MAY_BE_ENTRY} takes it.
 */
export const ENTRY_SET_SQL = `cache_entry_at = CASE WHEN ${MAY_BE_ENTRY} THEN ? END`;

/**
 * The entry's time an ending binds into {@link ENTRY_SET_SQL}: `now`, or null for a verdict cut short by a
 * budget (`budgetTruncated`), which would serve a partial verdict as a whole one.
 */
export function entryTime(verdict: { budgetTruncated?: true }, now: number): number | null {
  return verdict.budgetTruncated ? null : now;
}

/**
 * Before evaluation `id` becomes its key's entry: the key's older entry (a `refresh` replaces it) stops
 * serving, so one row per key carries it, as a replaced entry never served again. Writes nothing when the key
 * has no other entry (the usual case: a `use` evaluation is written only after a miss). `guard` is the
 * ending's guard (binds the id once), so it takes effect exactly when the evaluation succeeds.
 */
export function replaceEntryStatement(db: D1Database, id: string, guard: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE evaluations SET cache_entry_at = NULL
       WHERE cache_entry_at IS NOT NULL AND id != ?
         AND (tenant, cache_key) = (SELECT tenant, cache_key FROM evaluations WHERE id = ? AND ${MAY_BE_ENTRY})
         AND ${guard}`,
    )
    .bind(id, id, id);
}

/**
 * Deleting evaluation `id` (in the deletion's own transaction): its entries go, and evaluations still queued
 * that were to take its verdict run as misses instead.
 */
export function forgetSourceStatements(db: D1Database, id: string): D1PreparedStatement[] {
  return [
    db.prepare('UPDATE evaluations SET cache_entry_at = NULL WHERE id = ? AND cache_entry_at IS NOT NULL').bind(id),
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
