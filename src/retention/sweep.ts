/**
 * @module
 * Retention (the sweeper, every cron run): what is kept, and for how long.
 * - An ended evaluation's content (task, metadata, transcript, verdict, webhook events, its object's
 *   storage) is erased `retentionDays` after it ended (the tenant's, else `RETENTION_DAYS`, 30; 0 = kept
 *   until deleted), a batch's items `retentionDays` after their batch completed (./batch-items.ts), exactly
 *   as `DELETE /v1/evaluations/{id}` erases it (`deleteEvaluation`): the row stays as a tombstone and its
 *   usage rows stay, for billing. In bounded pages: `RETENTION_PAGE` evaluations of a tenant per run,
 *   {@link TENANTS_PER_RUN} tenants and {@link ERASURES_PER_RUN} evaluations per run, the most overdue
 *   first, erased in bulk (src/evaluations/list.ts `eraseEvaluations`: an object RPC each, one D1 batch per
 *   10), so a tenant with a backlog never starves the others for long; and a page of the due batches' items,
 *   the longest completed batch first. The two take turns going first with the run's erasures.
 * - A run is one shard's ({@link sweepRetentionShard}): the cron sends each shard a message of its own
 *   (queues/maintenance.ts), whose invocation has its own 1,000 D1 queries and 10,000 subrequests, so the
 *   pages are per shard and 64 shards sweep 64 times what one did ({@link retentionQueries} counts a run).
 * - A tenant that stores no content (`storeContent: false`, ./content.ts): each run erases what an ending's
 *   own step missed, a page at a time.
 * - The Evals verdict cache (`eval_verdict_cache`: model graders' replies, which quote the item): a tenant
 *   that stores no content keeps none of it past a sweep, any other tenant none past its `retentionDays`
 *   (0 = kept until `VERDICT_CACHE_TTL_DAYS` stops serving it), {@link EVAL_CACHE_PAGE} entries per run.
 * - An Evals run's content (inline items, output items, stored model replies) is erased `retentionDays` after the
 *   run ended, by the same rule as an evaluation's, as `DELETE …/runs/{id}` erases it (src/evals/run-retention.ts),
 *   `EVAL_RUN_RETENTION_PAGE` runs per run of a shard, oldest end first.
 * - Webhook events, their deliveries and attempts are deleted `WEBHOOK_RETENTION_DAYS` after the event
 *   (30; 0 = kept), {@link WEBHOOK_PAGE} events per run; an event with a delivery still pending stays.
 * - A deleted trace's D1 tombstone (`trace_tombstones`) is deleted once no spans consumer can still hold its row
 *   (src/traces/index-rows.ts `TOMBSTONE_TTL_MS`), {@link TRACE_TOMBSTONE_PAGE} per run.
 * Time comes from the caller (`now`, epoch ms), so tests drive it with rows' timestamps, never sleeps.
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import { ERASE_CHUNK, eraseEvaluations } from '../evaluations/list.js';
import { eraseUnstoredContent, unerasedContent } from './content.js';
import { deleteWebhookEventsStatements } from '../webhooks/outbox.js';
import { everyTenantDb } from '../config/d1-shards.js';
import { BATCH_ITEM_QUERIES, eraseBatchItemsDue } from './batch-items.js';
import { pruneTombstones } from '../traces/index-rows.js';
import { EVAL_RUN_RETENTION_PAGE, EVAL_RUN_RETENTION_QUERIES, eraseExpiredRuns } from '../evals/run-retention.js';

/** Tenants whose overdue evaluations one run of a shard erases (a page each): 20. */
export const TENANTS_PER_RUN = 20;

/** Evaluations one run of a shard erases at most, over its tenants' pages: 500. */
export const ERASURES_PER_RUN = 500;

/**
 * Evaluations one run of a shard erases at most with `RETENTION_PAGE` `page`, outside a batch and a batch's items
 * alike (the two share it): the tenants' pages' total ({@link TENANTS_PER_RUN} × `page`, 20 × 25) up to
 * {@link ERASURES_PER_RUN} (500), so a run may erase as many batch items as the tenants' pages would have.
 */
export function erasuresPerRun(page: number): number {
  return Math.min(ERASURES_PER_RUN, TENANTS_PER_RUN * page);
}

/** Evaluations of tenants that store no content one run of a shard checks at most (`RETENTION_PAGE`, up to): 100. */
export const CONTENT_PER_RUN = 100;

/** Evals verdict cache entries one run of a shard deletes: 500. */
export const EVAL_CACHE_PAGE = 500;

/** Webhook events (with their deliveries and attempts) one run of a shard deletes: 200. */
export const WEBHOOK_PAGE = 200;

/**
 * Deleted traces' tombstones one run of a shard deletes: 1,000 a minute, more than a shard's `DELETE
 * /v1/traces/{id}` calls are expected to be (one statement whatever the count).
 */
export const TRACE_TOMBSTONE_PAGE = 1000;

/**
 * D1 queries one run of a shard makes at most with `RETENTION_PAGE` `page`: the overdue tenants, a read per tenant's
 * page, the due batches' page (./batch-items.ts: its read and one batch of marks), the erasure batches (10
 * evaluations a batch, {@link erasuresPerRun} in all over the pages, each page's last batch perhaps short), the
 * unerased content (two reads, then a read and a batch each), the Evals cache, the Evals runs (a read, a batch),
 * the webhook events (a read, a batch), the traces' tombstones: 149 at the default 25.
 */
export function retentionQueries(page: number): number {
  const perTenant = Math.min(page, ERASURES_PER_RUN);
  const tenants = Math.min(TENANTS_PER_RUN, Math.ceil(ERASURES_PER_RUN / perTenant));
  const erasures = erasuresPerRun(page);
  const pages = tenants + 1;
  const content = Math.min(page, CONTENT_PER_RUN);
  return (
    1 +
    tenants +
    BATCH_ITEM_QUERIES +
    Math.floor((erasures + (ERASE_CHUNK - 1) * pages) / ERASE_CHUNK) +
    (2 + 2 * content) +
    1 +
    EVAL_RUN_RETENTION_QUERIES +
    2 +
    1
  );
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** What one retention run did. */
export interface RetentionReport {
  /** Evaluations erased. */
  erased: number;
  /** Evaluations whose erasure failed (tried again next run). */
  errors: number;
  /** Evaluations of tenants that store no content whose task texts and transcript were erased. */
  contentErased: number;
  /** Webhook events deleted (with their deliveries and attempts). */
  webhookEvents: number;
  /** Evals verdict cache entries deleted (a tenant that stores no content, or past its retention). */
  evalCacheEntries: number;
  /** Evals runs whose content was erased (past their tenant's retention). */
  evalRuns: number;
  /** Deleted traces' tombstones deleted. */
  traceTombstones: number;
}

/** A run that did nothing. */
const NO_RETENTION: Readonly<RetentionReport> = {
  erased: 0,
  errors: 0,
  contentErased: 0,
  webhookEvents: 0,
  evalCacheEntries: 0,
  evalRuns: 0,
  traceTombstones: 0,
};

/** What is left of one shard's run's pages. */
interface RunBudget {
  /** Tenants whose overdue page may still be erased. */
  tenants: number;
  /** Evaluations (outside a batch, or a batch's items) that may still be erased. */
  erasures: number;
  /** Evaluations of tenants that store no content still to check. */
  content: number;
  /** Webhook events still to delete. */
  webhookEvents: number;
  /** Evals verdict cache entries still to delete. */
  evalCache: number;
  /** Evals runs still to erase. */
  evalRuns: number;
  /** Deleted traces' tombstones still to delete. */
  traceTombstones: number;
}

/**
 * One retention run at `now` in shard `db` (see the module note), with the run's whole pages. Never throws for
 * one evaluation's error.
 */
export async function sweepRetentionShard(env: Bindings, db: D1Database, now: number): Promise<RetentionReport> {
  const report: RetentionReport = { ...NO_RETENTION };
  const config = configOf(env);
  const budget: RunBudget = {
    tenants: TENANTS_PER_RUN,
    // The tenants' pages' total: what either part may use.
    erasures: erasuresPerRun(config.RETENTION_PAGE),
    content: Math.min(config.RETENTION_PAGE, CONTENT_PER_RUN),
    webhookEvents: config.WEBHOOK_RETENTION_DAYS > 0 ? WEBHOOK_PAGE : 0,
    evalCache: EVAL_CACHE_PAGE,
    evalRuns: EVAL_RUN_RETENTION_PAGE,
    traceTombstones: TRACE_TOMBSTONE_PAGE,
  };
  await sweepDatabase(env, db, now, report, budget);
  if (Object.values(report).some((n) => n > 0)) log('info', 'retention.run', { ...report });
  return report;
}

/**
 * Every shard's retention run in one call, each with its own pages (tests and one-off runs; the cron sends a
 * message per shard instead, queues/maintenance.ts).
 */
export async function sweepRetention(env: Bindings, now: number): Promise<RetentionReport> {
  const total: RetentionReport = { ...NO_RETENTION };
  for (const db of everyTenantDb(env)) {
    const r = await sweepRetentionShard(env, db, now);
    // Every field, so one added to the report is summed too.
    for (const k of Object.keys(total) as (keyof RetentionReport)[]) total[k] += r[k];
  }
  return total;
}

/** One retention run's visit of one of the tenants' databases, counted into `report`, spending `budget`. */
async function sweepDatabase(
  env: Bindings,
  db: D1Database,
  now: number,
  report: RetentionReport,
  budget: RunBudget,
): Promise<void> {
  const config = configOf(env);
  // The run's erasures go first to a batch's items one minute, to evaluations outside a batch the next: either
  // part may use all of them when the other has none due, and neither starves the other.
  const batchItemsFirst = Math.floor(now / MINUTE_MS) % 2 === 0;
  const days = config.RETENTION_DAYS;
  if (batchItemsFirst) await sweepBatchItems(env, db, now, days, report, budget);
  if (budget.tenants > 0 && budget.erasures > 0) await sweepOverdue(env, db, now, report, budget);
  if (!batchItemsFirst) await sweepBatchItems(env, db, now, days, report, budget);
  // Tenants that store no content: what an ending's own step missed.
  if (budget.content > 0) {
    const ids = await unerasedContent(db, budget.content);
    budget.content -= ids.length;
    for (const id of ids) {
      try {
        if (await eraseUnstoredContent(env, id, now)) report.contentErased++;
      } catch (e) {
        report.errors++;
        log('error', 'retention.content_erase_failed', { evaluationId: id, error: messageOf(e) });
      }
    }
  }
  if (budget.evalCache > 0) {
    const deleted = await sweepEvalCache(db, now, config.RETENTION_DAYS, budget.evalCache);
    budget.evalCache -= deleted;
    report.evalCacheEntries += deleted;
  }
  if (budget.evalRuns > 0) {
    const erased = await eraseExpiredRuns(db, now, config.RETENTION_DAYS, budget.evalRuns);
    budget.evalRuns -= erased;
    report.evalRuns += erased;
  }
  if (budget.webhookEvents > 0) {
    const deleted = await sweepWebhookEvents(db, now - config.WEBHOOK_RETENTION_DAYS * DAY_MS, budget.webhookEvents);
    budget.webhookEvents -= deleted;
    report.webhookEvents += deleted;
  }
  if (budget.traceTombstones > 0) {
    const deleted = await pruneTombstones(db, now, budget.traceTombstones);
    budget.traceTombstones -= deleted;
    report.traceTombstones += deleted;
  }
}

/**
 * A page of the due batches' items (./batch-items.ts), from what is left of the run's erasures; `defaultDays` is
 * RETENTION_DAYS, for tenants without their own.
 */
async function sweepBatchItems(
  env: Bindings,
  db: D1Database,
  now: number,
  defaultDays: number,
  report: RetentionReport,
  budget: RunBudget,
): Promise<void> {
  const items = await eraseBatchItemsDue(env, db, now, defaultDays, budget.erasures);
  budget.erasures -= items.erased + items.errors;
  report.erased += items.erased;
  report.errors += items.errors;
}

/**
 * Erases a page of each of the most overdue tenants of `db`, as many tenants as `budget` has left: evaluations
 * outside a batch (a batch's items go with their batch, ./batch-items.ts).
 */
async function sweepOverdue(
  env: Bindings,
  db: D1Database,
  now: number,
  report: RetentionReport,
  budget: RunBudget,
): Promise<void> {
  const config = configOf(env);
  const due = await db
    .prepare(
      `SELECT e.tenant AS tenant, COALESCE(t.retention_days, ?1) AS days
     FROM evaluations e LEFT JOIN tenants t ON t.id = e.tenant
     WHERE e.deleted_at IS NULL AND e.finished_at IS NOT NULL AND e.batch_id IS NULL
       AND COALESCE(t.retention_days, ?1) > 0 AND e.finished_at < ?2 - COALESCE(t.retention_days, ?1) * ${DAY_MS}
     GROUP BY e.tenant ORDER BY MIN(e.finished_at + COALESCE(t.retention_days, ?1) * ${DAY_MS}) LIMIT ?3`,
    )
    .bind(config.RETENTION_DAYS, now, budget.tenants)
    .all<{ tenant: string; days: number }>();
  budget.tenants -= due.results.length;
  for (const { tenant, days } of due.results) {
    const page = Math.min(config.RETENTION_PAGE, budget.erasures);
    if (page <= 0) break;
    const { results } = await db
      .prepare(
        `SELECT id FROM evaluations WHERE tenant = ? AND deleted_at IS NULL AND finished_at IS NOT NULL
         AND batch_id IS NULL AND finished_at < ? ORDER BY finished_at LIMIT ?`,
      )
      .bind(tenant, now - days * DAY_MS, page)
      .all<{ id: string }>();
    const erasure = await eraseEvaluations(
      env,
      db,
      results.map(({ id }) => ({ tenant, id })),
      'retention',
    );
    budget.erasures -= results.length;
    report.erased += erasure.erased.length;
    report.errors += erasure.failed.length;
    for (const { ref, error } of erasure.failed)
      log('error', 'retention.erase_failed', { evaluationId: ref.id, tenant, error });
  }
}

/**
 * Deletes up to `limit` Evals verdict cache entries of tenants that store no content, or older than their
 * tenant's retention (`defaultDays` for a tenant without its own).
 */
async function sweepEvalCache(db: D1Database, now: number, defaultDays: number, limit: number): Promise<number> {
  const r = await db
    .prepare(
      `DELETE FROM eval_verdict_cache WHERE rowid IN (
         SELECT c.rowid FROM eval_verdict_cache c LEFT JOIN tenants t ON t.id = c.tenant
         WHERE t.store_content = 0
            OR (COALESCE(t.retention_days, ?1) > 0 AND c.created_at < ?2 - COALESCE(t.retention_days, ?1) * ${DAY_MS})
         LIMIT ?3)`,
    )
    .bind(defaultDays, now, limit)
    .run();
  return r.meta.changes;
}

/** Deletes up to `limit` events created before `before` (none with a pending delivery). */
async function sweepWebhookEvents(db: D1Database, before: number, limit: number): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT id FROM webhook_events e WHERE created_at < ?
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
       ORDER BY created_at LIMIT ?`,
    )
    .bind(before, limit)
    .all<{ id: string }>();
  if (results.length === 0) return 0;
  await db.batch(
    deleteWebhookEventsStatements(
      db,
      results.map((r) => r.id),
    ),
  );
  return results.length;
}
