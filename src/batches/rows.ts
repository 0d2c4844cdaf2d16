/**
 * @module
 * D1 access for batches: creating one (its row and every item's `evaluations` row in ONE `batch()`, a
 * single transaction, so a batch exists whole or not at all), reading its row, the items a cancel visits, and
 * the cancel mark. The window's claims: ./window-claims.ts; the API's other reads: ./result-rows.ts. Times are
 * epoch milliseconds.
 *
 * Items are inserted through the evaluations store's bulk insert (`insertRowsJsonStatements`: the one
 * column list, JSON arrays expanded by `json_each`, 2 bound parameters per statement of hundreds of
 * rows), so 1,000 small items are a statement or two and 10,000 stay far below D1's 1,000 queries per
 * invocation.
 */
import type { RubricStampRecord } from '../evaluations/rows.js';
import type { NewEvaluation } from '../evaluations/insert-rows.js';
import { insertRowsJsonStatements } from '../evaluations/insert-rows.js';
import type { Budget } from '../engine/budget.js';
import { completionEventId } from './completion-event.js';
import type { CachePlan } from '../verdict-cache/plan.js';
import type { BatchKind, BatchStatus } from './schemas.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import type { Guarantee } from '../metrics/certify.js';

/** One item as stored: its evaluation row's own fields. */
export interface NewBatchItem {
  evaluationId: string;
  seq: number;
  itemId: string | null;
  task: unknown;
  metadata: Record<string, string | number | boolean> | null;
  callsPlanned: number;
  /** What the verdict cache does for it, and its key (src/verdict-cache/plan.ts); absent: `off`. */
  cache?: CachePlan;
  /** The rubric it judges by (src/rubrics); null or absent for none. */
  rubric?: RubricStampRecord | null;
}

/** A new batch with its items (every evaluation `queued`). */
export interface NewBatch {
  id: string;
  tenant: string;
  kind: BatchKind;
  method: string;
  preset: string | null;
  /** Resolved method config shared by every item. */
  config: unknown;
  webhookUrl: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** Items in flight at once at most (see ./pump.ts). */
  concurrency: number;
  /** The batch's budget (./budget-claims.ts), or null/absent. */
  budget?: Budget | null;
  items: readonly NewBatchItem[];
  /**
   * Items in all, when the caller inserts (some of) them with statements of its own in the same transaction
   * (a comparison expands its items into pair evaluations in SQL); default `items.length`.
   */
  itemsTotal?: number;
  /** The managed key that submitted it (recorded on every item, for usage by key); null otherwise. */
  keyId?: string | null;
  /** The service tier of every item (src/tiers/) and what a flex refusal leads to; absent: `standard`. */
  tier?: Tier;
  flexFallback?: FlexFallback;
  /** Certified mode's guarantee (src/certify/), which every item reads; null or absent: not certified. */
  certify?: Guarantee | null;
  now: number;
}

/** A `batches` row. */
export interface BatchRecord {
  id: string;
  tenant: string;
  kind: BatchKind;
  status: BatchStatus;
  method: string;
  preset: string | null;
  webhookUrl: string | null;
  requestHash: string | null;
  itemsTotal: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  concurrency: number;
  /** Items handed to the pipeline: those with a position below it. */
  sent: number;
  cancelRequestedAt: number | null;
  budget: Budget | null;
  budgetExhaustedAt: number | null;
  /** The service tier of every item, and what a flex refusal leads to. */
  tier: Tier;
  flexFallback: FlexFallback;
  /** Certified mode's guarantee; null when not certified. */
  certify: Guarantee | null;
  createdAt: number;
  completedAt: number | null;
}

/** SQL guard (binds the batch id once): this transaction inserted the batch row (it was not a key replay). */
export const BATCH_INSERTED = 'EXISTS (SELECT 1 FROM batches WHERE id = ?)';

/**
 * The statements that create a batch: its row (`ON CONFLICT DO NOTHING`: an `Idempotency-Key` already
 * used makes it a no-op), then its items, each statement guarded by {@link BATCH_INSERTED} so a no-op
 * batch row inserts no item either. Run them, with any of the caller's own, in ONE `batch()`.
 */
export function insertBatchStatements(db: D1Database, b: NewBatch): D1PreparedStatement[] {
  const statements = [
    db
      .prepare(
        `INSERT INTO batches (id, tenant, kind, status, method, preset, config, webhook_url, idempotency_key, request_hash,
           items_total, concurrency, completion_event_id, budget, tier, flex_fallback, certify, created_at, updated_at)
         VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(
        b.id,
        b.tenant,
        b.kind,
        b.method,
        b.preset,
        JSON.stringify(b.config),
        b.webhookUrl,
        b.idempotencyKey,
        b.requestHash,
        b.itemsTotal ?? b.items.length,
        b.concurrency,
        completionEventId(b.kind, b.id),
        b.budget ? JSON.stringify(b.budget) : null,
        b.tier ?? 'standard',
        b.flexFallback ?? 'standard',
        b.certify ? JSON.stringify(b.certify) : null,
        b.now,
        b.now,
      ),
  ];
  const metaId = b.kind === 'meta_evaluation' ? b.id : null;
  const rows = b.items.map((item): NewEvaluation => ({
    id: item.evaluationId,
    tenant: b.tenant,
    method: b.method,
    preset: b.preset,
    config: b.config,
    task: item.task,
    metadata: item.metadata,
    idempotencyKey: null,
    requestHash: null,
    metaId,
    callsPlanned: item.callsPlanned,
    batchId: b.id,
    batchSeq: item.seq,
    itemId: item.itemId,
    now: b.now,
    keyId: b.keyId ?? null,
    cacheMode: item.cache?.mode ?? null,
    cacheKey: item.cache?.key ?? null,
    tier: b.tier ?? 'standard',
    flexFallback: b.flexFallback ?? 'standard',
    rubric: item.rubric ?? null,
  }));
  statements.push(...insertRowsJsonStatements(db, rows, { sql: BATCH_INSERTED, binds: [b.id] }));
  return statements;
}

/**
 * Creates the batch and its items in one transaction, with `extra` statements (guard them with
 * {@link BATCH_INSERTED}) in the same one.
 * @returns true when created; false when the tenant's `Idempotency-Key` for this kind is taken (nothing written).
 */
export async function insertBatch(
  db: D1Database,
  b: NewBatch,
  extra: readonly D1PreparedStatement[] = [],
): Promise<boolean> {
  const results = await db.batch([...insertBatchStatements(db, b), ...extra]);
  return (results[0]?.meta.changes ?? 0) > 0;
}

/** A `batches` row as D1 returns it. */
export interface BatchRow {
  id: string;
  tenant: string;
  kind: BatchKind;
  status: BatchStatus;
  method: string;
  preset: string | null;
  webhook_url: string | null;
  request_hash: string | null;
  items_total: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  concurrency: number;
  sent: number;
  cancel_requested_at: number | null;
  budget: string | null;
  budget_exhausted_at: number | null;
  tier: Tier;
  flex_fallback: FlexFallback;
  certify: string | null;
  created_at: number;
  completed_at: number | null;
}

/** The columns of {@link BatchRow}. */
export const BATCH_SELECT = `SELECT id, tenant, kind, status, method, preset, webhook_url, request_hash, items_total, succeeded, failed, cancelled,
  concurrency, sent, cancel_requested_at, budget, budget_exhausted_at, tier, flex_fallback, certify, created_at, completed_at FROM batches`;

/** A row as a {@link BatchRecord}. */
export function toBatchRecord(r: BatchRow): BatchRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    kind: r.kind,
    status: r.status,
    method: r.method,
    preset: r.preset,
    webhookUrl: r.webhook_url,
    requestHash: r.request_hash,
    itemsTotal: r.items_total,
    succeeded: r.succeeded,
    failed: r.failed,
    cancelled: r.cancelled,
    concurrency: r.concurrency,
    sent: r.sent,
    cancelRequestedAt: r.cancel_requested_at,
    budget: r.budget === null ? null : (JSON.parse(r.budget) as Budget),
    budgetExhaustedAt: r.budget_exhausted_at,
    tier: r.tier,
    flexFallback: r.flex_fallback,
    certify: r.certify === null ? null : (JSON.parse(r.certify) as Guarantee),
    createdAt: r.created_at,
    completedAt: r.completed_at,
  };
}

/** The batch `id` of `tenant`, or null (another tenant's id reads as absent). */
export async function getBatch(db: D1Database, tenant: string, id: string): Promise<BatchRecord | null> {
  const row = await db.prepare(`${BATCH_SELECT} WHERE id = ? AND tenant = ?`).bind(id, tenant).first<BatchRow>();
  return row ? toBatchRecord(row) : null;
}

/** The batch of `kind` holding `key` for `tenant`, or null. */
export async function findBatchByKey(
  db: D1Database,
  tenant: string,
  kind: BatchKind,
  key: string,
): Promise<BatchRecord | null> {
  const row = await db
    .prepare(`${BATCH_SELECT} WHERE tenant = ? AND kind = ? AND idempotency_key = ?`)
    .bind(tenant, kind, key)
    .first<BatchRow>();
  return row ? toBatchRecord(row) : null;
}

/** An item that has not ended, with its position and status. */
export interface OpenItem {
  id: string;
  seq: number;
  status: 'queued' | 'running';
}

/** The batch's items that have not ended, after position `afterSeq` in request order, at most `limit`. */
export async function openItems(db: D1Database, batchId: string, afterSeq: number, limit: number): Promise<OpenItem[]> {
  const { results } = await db
    .prepare(
      `SELECT id, batch_seq AS seq, status FROM evaluations WHERE batch_id = ? AND batch_seq > ? AND status IN ('queued', 'running')
       ORDER BY batch_seq LIMIT ?`,
    )
    .bind(batchId, afterSeq, limit)
    .all<OpenItem>();
  return results;
}

/** An open batch the sweeper goes on with ({@link stalledBatches}). */
export interface StalledBatch {
  id: string;
  /** A cancel or a used-up budget is ending its items. */
  cancelling: boolean;
  /**
   * When every item has ended (the batch is only not marked completed: the ending that counted its last item did
   * not get to complete it), the cause of its completion's events: its item at the last position, or the batch's
   * own id when none of its items is left in D1 (so it is completed all the same, rather than topped up, which would
   * change nothing and keep it at the head of every sweep); else null.
   */
  ended: string | null;
}

/**
 * Open batches untouched since `olderThan`, oldest first: those with items not handed over (no cancel
 * asked: `cancelling` false), those still ending after a cancel or a used-up budget (`cancelling` true), and those
 * whose items have all ended (`ended`).
 */
export async function stalledBatches(db: D1Database, olderThan: number, limit: number): Promise<StalledBatch[]> {
  const { results } = await db
    .prepare(
      `SELECT id, cancel_requested_at IS NOT NULL OR budget_exhausted_at IS NOT NULL AS cancelling,
         CASE WHEN succeeded + failed + cancelled >= items_total THEN
           COALESCE((SELECT e.id FROM evaluations e WHERE e.batch_id = batches.id ORDER BY e.batch_seq DESC LIMIT 1), id)
         END AS ended
       FROM batches
       WHERE completed_at IS NULL AND (cancel_requested_at IS NOT NULL OR budget_exhausted_at IS NOT NULL OR sent < items_total
         OR succeeded + failed + cancelled >= items_total) AND updated_at < ?
       ORDER BY updated_at LIMIT ?`,
    )
    .bind(olderThan, limit)
    .all<{ id: string; cancelling: number; ended: string | null }>();
  return results.map((r) => ({ id: r.id, cancelling: r.cancelling === 1, ended: r.ended }));
}

/**
 * Records a cancel request on a batch that has not completed: `running` becomes `cancelling` (the
 * ending of its last item makes it `cancelled`). Idempotent.
 * @returns the batch's status after the call, or null when it has no such batch.
 */
export async function requestCancel(
  db: D1Database,
  tenant: string,
  id: string,
  now: number,
): Promise<BatchStatus | null> {
  const [, read] = await db.batch([
    db
      .prepare(
        `UPDATE batches SET status = 'cancelling', cancel_requested_at = ?, updated_at = ?
         WHERE id = ? AND tenant = ? AND status = 'running' AND succeeded + failed + cancelled < items_total`,
      )
      .bind(now, now, id, tenant),
    // Every item ended and no cancel asked: the completion about to be written marks it `completed` (it runs just
    // after the last item's ending, src/batches/progress.ts), so a cancel now finds it ended.
    db
      .prepare(
        `SELECT CASE WHEN status = 'running' AND succeeded + failed + cancelled >= items_total THEN 'completed' ELSE status END
           AS status FROM batches WHERE id = ? AND tenant = ?`,
      )
      .bind(id, tenant),
  ]);
  return (read?.results[0] as { status: BatchStatus } | undefined)?.status ?? null;
}

/**
 * What a fan-out page of batch `id` needs: its `sent` (positions below it were handed over) and why its
 * open items end (`budget`: its budget was used up, no cancel asked); null without such a batch.
 */
export async function getBatchFanout(db: D1Database, id: string): Promise<{ sent: number; budget: boolean } | null> {
  const row = await db
    .prepare(
      'SELECT sent, cancel_requested_at IS NULL AND budget_exhausted_at IS NOT NULL AS budget FROM batches WHERE id = ?',
    )
    .bind(id)
    .first<{ sent: number; budget: number }>();
  return row ? { sent: row.sent, budget: row.budget === 1 } : null;
}

/**
 * How many items of the batch (or comparison, or meta-evaluation) `id` have not ended, or null for no such
 * batch: a wave coordinator closes a group's first wave once that many items have registered calls (an item
 * that ended before registering, a cached verdict or a failed start, is not waited for).
 */
export async function batchSize(db: D1Database, id: string): Promise<number | null> {
  const row = await db
    .prepare('SELECT items_total - succeeded - failed - cancelled AS open FROM batches WHERE id = ?')
    .bind(id)
    .first<{ open: number }>();
  return row?.open ?? null;
}
