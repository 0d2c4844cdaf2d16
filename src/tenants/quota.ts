/**
 * @module
 * Monthly quotas per tenant: a spend cap (USD, summed over the usage roll-up: every billed LLM call) and an
 * evaluation cap (evaluations created, each once: an Evals run item's judge evaluations are counted by its item). Both count the calendar month in UTC and reset on the first day of
 * the next month at 00:00 UTC. A submission that would go past either cap is refused with 429
 * `quota_exceeded`, `error.resetAt` and `Retry-After`; evaluations already accepted run to their end (the
 * spend cap can therefore be overshot by what running evaluations still spend: usage is booked when an
 * evaluation ends).
 */
import { ApiError } from '../http/errors.js';
import type { EffectiveLimits } from './limits.js';
import { TENANT_USAGE_ROWS, hourOf } from './usage-rollup.js';

/** The calendar month (UTC) that contains `now`: its start and the start of the next one, epoch ms. */
export function monthOf(now: number): { start: number; reset: number } {
  const d = new Date(now);
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    reset: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

/** What a tenant used this month. */
export interface MonthUsage {
  evaluations: number;
  spendUsd: number;
}

/**
 * The tenant's evaluations created and LLM spend since `since` (epoch ms), added up over `dbs` (every D1 shard
 * its records may be in: `tenantDbs`, src/config/d1-shards.ts; one database is one item).
 */
export async function usageSince(dbs: readonly D1Database[], tenant: string, since: number): Promise<MonthUsage> {
  const each = await Promise.all(dbs.map((db) => usageIn(db, tenant, since)));
  return {
    evaluations: each.reduce((n, u) => n + u.evaluations, 0),
    spendUsd: each.reduce((n, u) => n + u.spendUsd, 0),
  };
}

async function usageIn(db: D1Database, tenant: string, since: number): Promise<MonthUsage> {
  const [evaluations, spend] = await db.batch([
    // Rows counted by another (a run item's judge, counted by the item's ledger row) are not counted again.
    db
      .prepare(
        `SELECT (SELECT count(*) FROM evaluations WHERE tenant = ?1 AND created_at >= ?2)
              - (SELECT count(*) FROM evaluations WHERE tenant = ?1 AND created_at >= ?2 AND counted_by IS NOT NULL) AS n`,
      )
      .bind(tenant, since),
    db
      // The roll-up with the open batches' usage not rolled up yet.
      .prepare(`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM (${TENANT_USAGE_ROWS}) WHERE hour >= ?2`)
      .bind(tenant, hourOf(since)),
  ]);
  return {
    evaluations: (evaluations?.results[0] as { n: number } | undefined)?.n ?? 0,
    spendUsd: (spend?.results[0] as { usd: number } | undefined)?.usd ?? 0,
  };
}

/**
 * Refuses `adding` new evaluations when they would go past the tenant's monthly caps. No D1 read when
 * the tenant has no cap.
 * @throws ApiError 429 `quota_exceeded` with `resetAt` (the next month's first day, UTC) and `Retry-After`.
 */
export async function assertQuota(
  dbs: readonly D1Database[],
  tenant: string,
  limits: EffectiveLimits | null,
  adding: number,
  now = Date.now(),
): Promise<void> {
  if (!limits || (limits.monthlyEvaluationCap === null && limits.monthlySpendCapUsd === null)) return;
  const { start, reset } = monthOf(now);
  const used = await usageSince(dbs, tenant, start);
  const resetAt = new Date(reset).toISOString();
  const refuse = (what: string) =>
    new ApiError(429, 'quota_exceeded', `${what}; it resets at ${resetAt}`, undefined, {
      resetAt,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((reset - now) / 1000))) },
    });
  const evalCap = limits.monthlyEvaluationCap;
  if (evalCap !== null && used.evaluations + adding > evalCap) {
    throw refuse(
      `the monthly evaluation cap (${evalCap}) is reached: ${used.evaluations} created this month, ${adding} more asked for`,
    );
  }
  const spendCap = limits.monthlySpendCapUsd;
  if (spendCap !== null && used.spendUsd >= spendCap) {
    throw refuse(
      `the monthly spend cap (${spendCap} USD) is reached: ${used.spendUsd.toFixed(4)} USD spent this month`,
    );
  }
}
