/**
 * @module
 * A comparison's ending, exactly once. The ending that completes its batch marks the comparison
 * completed in its own transaction ({@link markComparisonCompleting}, an effect of the ending plan, which
 * also makes the final write run the after-commit steps). After the commit, {@link finishComparisonOf}
 * computes the final statistics from every verdict and, in ONE transaction, writes `comparison.completed`
 * (guarded: only while no result is stored) and stores the result (guarded the same way). Two finishers
 * racing (a repeated ending, a read of the comparison, the sweeper) compute the same figures (the bootstrap
 * is seeded); D1 runs their transactions one at a time, so only the first writes, and the event's id is
 * fixed, so a repeat writes no second event either.
 */
import type { Bindings } from '../config/bindings.js';
import { getBatch } from '../batches/rows.js';
import { log, messageOf } from '../log/log.js';
import { dispatchDeliveriesCausedBy } from '../webhooks/dispatch.js';
import { webhookEventStatements } from '../webhooks/outbox.js';
import { sql } from '../webhooks/sql.js';
import { pairsOf } from './layout.js';
import { finalStatistics } from './outcomes.js';
import type { ComparisonRecord } from './rows.js';
import { getComparison, layoutOf, markCompletingStatement, storeResultStatement, unfinishedOf } from './rows.js';
import type { ComparisonEventData, ComparisonStatistics } from './answer-schemas.js';
import { recordDb, tenantDb } from '../config/d1-shards.js';

/** The batch completing in the ending's transaction (see `BatchCompletion`, src/batches/completion-event.ts). */
interface Completing {
  rows: string;
  binds: readonly (string | number | null)[];
  now: number;
}

/** The ending's statement marking its batch's comparison completed (a completion emitter, src/batches/progress.ts). */
export function markComparisonCompleting(db: D1Database, c: Completing): D1PreparedStatement[] {
  return [markCompletingStatement(db, c.rows, c.binds, c.now)];
}

/** Relative links of a comparison. */
export function comparisonLinks(id: string): { self: string; results: string; cancel: string; batch: string } {
  const self = `/v1/comparisons/${id}`;
  return { self, results: `${self}/results`, cancel: `${self}/cancel`, batch: `/v1/batches/${id}` };
}

/**
 * Computes, stores and announces comparison `c`'s final statistics unless stored already (see the module
 * note). @returns the statistics stored (by this call or an earlier one).
 */
export async function finishComparison(env: Bindings, c: ComparisonRecord): Promise<ComparisonStatistics | null> {
  if (c.result !== null) return JSON.parse(c.result) as ComparisonStatistics;
  const b = await getBatch(tenantDb(env, c.tenant), c.tenant, c.id);
  if (!b || c.completedAt === null) return null;
  const layout = layoutOf(c, pairsOf(c.candidates, c.design));
  const stats = await finalStatistics(tenantDb(env, c.tenant), c.id, layout, c.itemsTotal, c.statistics, c.gate);
  const now = Date.now();
  const data: ComparisonEventData = {
    id: c.id,
    status: b.cancelRequestedAt === null ? 'completed' : 'cancelled',
    method: b.method,
    preset: b.preset,
    candidates: c.candidates,
    design: c.design,
    items: c.itemsTotal,
    counts: { succeeded: b.succeeded, failed: b.failed, cancelled: b.cancelled },
    gate: stats.gate,
    ranking: stats.ranking,
    pairs: stats.pairs,
    judge: stats.judge,
    summary: stats.summary,
    createdAt: new Date(b.createdAt).toISOString(),
    completedAt: new Date(c.completedAt).toISOString(),
    links: { self: comparisonLinks(c.id).self, results: comparisonLinks(c.id).results },
  };
  await tenantDb(env, c.tenant).batch([
    ...webhookEventStatements(tenantDb(env, c.tenant), {
      tenant: c.tenant,
      type: 'comparison.completed',
      subjectId: c.id,
      data,
      oneOffUrl: b.webhookUrl,
      guard: sql`EXISTS (SELECT 1 FROM comparisons WHERE id = ${c.id} AND result IS NULL)`,
      causeId: c.id,
      now,
    }),
    storeResultStatement(tenantDb(env, c.tenant), c.id, JSON.stringify(stats), stats.gate?.outcome ?? null, now),
  ]);
  await dispatchDeliveriesCausedBy(env, c.id).catch((err: unknown) => {
    log('warn', 'comparison.dispatch_failed', { comparisonId: c.id, error: messageOf(err) });
  });
  const stored = await getComparison(tenantDb(env, c.tenant), c.tenant, c.id);
  return stored?.result ? (JSON.parse(stored.result) as ComparisonStatistics) : stats;
}

/** After an ending: finishes the comparison of the evaluation's batch when that ending completed it. */
export async function finishComparisonOf(env: Bindings, evaluationId: string): Promise<void> {
  const u = await unfinishedOf(await recordDb(env, evaluationId), evaluationId);
  if (!u) return;
  const c = await getComparison(tenantDb(env, u.tenant), u.tenant, u.id);
  if (c) await finishComparison(env, c);
}
