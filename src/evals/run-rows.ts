/**
 * @module
 * The D1 statements of eval runs: insert and read a run, page through a tenant's runs of one eval, the lease
 * that lets one invocation work on a run (its claim answers the run), cancel, finish, delete. Times are epoch
 * ms. A run's graded items are in ./run-item-rows.ts.
 */
import type { Tier } from '../llm/tiers.js';
import type { IdempotentCreate, KeyHolder } from '../openai/idempotency.js';
import { scrubSql } from '../config/sqlite-scrub.js';
import type { CacheDecision } from '../verdict-cache/plan.js';
import type { EvalMetadata } from './schemas.js';
import type { Certify, Guarantee } from '../metrics/certify.js';

/** One judge grader's calibration in a certified run (./run-certify.ts). */
export interface CertifiedGrader {
  /** The stored rubric version it was calibrated on, `rb_…@n`; its evaluations judge by it. */
  rubric: string;
  /** The calibrated judge's config (a cascade with its thresholds) its evaluations run with. */
  config: Record<string, unknown>;
  guarantee: Guarantee;
}

/** A run's certified mode: what was asked, and each judge grader's calibration by grader name. */
export interface RunCertify {
  certify: Certify;
  graders: Record<string, CertifiedGrader>;
}

/** An `eval_runs` row. */
export interface RunRecord {
  id: string;
  tenant: string;
  evalId: string;
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'canceled' | 'failed';
  dataSource: Record<string, unknown>;
  model: string | null;
  metadata: EvalMetadata | null;
  itemsTotal: number;
  error: { code: string; message: string } | null;
  createdAt: number;
  /** The key that created the run (usage by key); null for API_KEYS tokens and open mode. */
  keyId: string | null;
  /** Until when a worker holds the run (epoch ms), or null. */
  leaseUntil: number | null;
  /** The service tier of its model calls. */
  serviceTier: Tier;
  /** What the verdict cache does for its model graders. */
  cacheMode: CacheDecision;
  /** When a delayed message looks at the run again (a batch-tier run waiting; epoch ms), or null. */
  wakeAt: number | null;
  /** Certified mode: its judge graders' calibrations (./run-certify.ts); null: not certified. */
  certify: RunCertify | null;
}

interface RunRow {
  id: string;
  tenant: string;
  eval_id: string;
  name: string;
  status: RunRecord['status'];
  data_source: string;
  model: string | null;
  metadata: string | null;
  items_total: number;
  error: string | null;
  created_at: number;
  key_id: string | null;
  lease_until: number | null;
  service_tier: Tier;
  cache_mode: CacheDecision;
  wake_at: number | null;
  certify: string | null;
}

const COLUMNS = `id, tenant, eval_id, name, status, data_source, model, metadata, items_total, error, created_at, key_id, lease_until, service_tier, cache_mode, wake_at, certify`;
const SELECT = `SELECT ${COLUMNS} FROM eval_runs`;

function toRecord(r: RunRow): RunRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    evalId: r.eval_id,
    name: r.name,
    status: r.status,
    dataSource: JSON.parse(r.data_source) as Record<string, unknown>,
    model: r.model,
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as EvalMetadata),
    itemsTotal: r.items_total,
    error: r.error === null ? null : (JSON.parse(r.error) as RunRecord['error']),
    createdAt: r.created_at,
    keyId: r.key_id,
    leaseUntil: r.lease_until,
    serviceTier: r.service_tier,
    cacheMode: r.cache_mode,
    wakeAt: r.wake_at,
    certify: r.certify === null ? null : (JSON.parse(r.certify) as RunCertify),
  };
}

/**
 * Stores a new run (`queued`) with the `Idempotency-Key` it was created under (if any); false when another run
 * already holds that key (a concurrent retry won: read it with {@link findRunByKey}).
 */
export async function insertRun(db: D1Database, r: RunRecord, idem: IdempotentCreate | null = null): Promise<boolean> {
  const done = await db
    .prepare(
      `INSERT INTO eval_runs (id, tenant, eval_id, name, status, data_source, model, metadata, items_total, created_at, updated_at, key_id,
         service_tier, cache_mode, certify, idempotency_key, request_hash)
       VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(
      r.id,
      r.tenant,
      r.evalId,
      r.name,
      JSON.stringify(r.dataSource),
      r.model,
      r.metadata === null ? null : JSON.stringify(r.metadata),
      r.itemsTotal,
      r.createdAt,
      r.createdAt,
      r.keyId,
      r.serviceTier,
      r.cacheMode,
      r.certify === null ? null : JSON.stringify(r.certify),
      idem?.key ?? null,
      idem?.hash ?? null,
    )
    .run();
  return done.meta.changes > 0;
}

/**
 * The tenant's run created under `Idempotency-Key` `key`, deleted or not (a deleted one keeps its key), with the
 * hash of the request that made it; null when no run holds the key.
 */
export async function findRunByKey(db: D1Database, tenant: string, key: string): Promise<KeyHolder<RunRecord> | null> {
  const r = await db
    .prepare(`SELECT ${COLUMNS}, request_hash, deleted_at FROM eval_runs WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<RunRow & { request_hash: string | null; deleted_at: number | null }>();
  return r ? { record: toRecord(r), requestHash: r.request_hash, deleted: r.deleted_at !== null } : null;
}

/** The tenant's run `id` of eval `evalId` (not deleted), or null. */
export async function getRun(db: D1Database, tenant: string, evalId: string, id: string): Promise<RunRecord | null> {
  const r = await db
    .prepare(`${SELECT} WHERE id = ? AND tenant = ? AND eval_id = ? AND deleted_at IS NULL`)
    .bind(id, tenant, evalId)
    .first<RunRow>();
  return r ? toRecord(r) : null;
}

/** The tenant's run `id` whatever its eval (not deleted), or null. */
export async function getRunById(db: D1Database, tenant: string, id: string): Promise<RunRecord | null> {
  const r = await db
    .prepare(`${SELECT} WHERE id = ? AND tenant = ? AND deleted_at IS NULL`)
    .bind(id, tenant)
    .first<RunRow>();
  return r ? toRecord(r) : null;
}

/** One page of an eval's runs after `after`, `limit + 1` rows so the caller knows `has_more`. */
export async function listRuns(
  db: D1Database,
  tenant: string,
  evalId: string,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; status?: string | undefined },
): Promise<RunRecord[]> {
  const cmp = q.order === 'asc' ? '>' : '<';
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const after =
    q.after === undefined ? '' : `AND (created_at, id) ${cmp} (SELECT created_at, id FROM eval_runs WHERE id = ?3)`;
  const { results } = await db
    .prepare(
      `${SELECT} WHERE tenant = ?1 AND eval_id = ?2 AND deleted_at IS NULL AND (?4 IS NULL OR status = ?4) ${after}
       ORDER BY created_at ${dir}, id ${dir} LIMIT ?5`,
    )
    .bind(tenant, evalId, q.after ?? null, q.status ?? null, q.limit + 1)
    .all<RunRow>();
  return results.map(toRecord);
}

/**
 * Takes the run's lease until `until` when it is queued or running and nobody holds a live lease, and
 * answers the run (now `in_progress`) when this caller holds it, else null. The claim returns the row, so
 * the worker does not read it again.
 */
export async function claimRun(db: D1Database, id: string, now: number, until: number): Promise<RunRecord | null> {
  const r = await db
    .prepare(
      `UPDATE eval_runs SET status = 'in_progress', lease_until = ?3, updated_at = ?2
       WHERE id = ?1 AND status IN ('queued', 'in_progress') AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until < ?2)
       RETURNING ${COLUMNS}`,
    )
    .bind(id, now, until)
    .first<RunRow>();
  return r ? toRecord(r) : null;
}

/** Extends a held lease; false when the run is no longer running (cancelled, deleted). */
export async function renewLease(db: D1Database, id: string, until: number): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE eval_runs SET lease_until = ? WHERE id = ? AND status = 'in_progress' AND deleted_at IS NULL`)
    .bind(until, id)
    .run();
  return r.meta.changes > 0;
}

/** Gives a held lease up (the worker's slice is over), so the next invocation claims the run at once. */
export async function releaseLease(db: D1Database, id: string): Promise<void> {
  await db.prepare(`UPDATE eval_runs SET lease_until = NULL WHERE id = ? AND status = 'in_progress'`).bind(id).run();
}

/**
 * Gives a batch-tier run's lease up while it waits on provider batches, and moves its `wake_at` to `wakeAt`
 * when none is due before it (one delayed message at a time). True when it moved: the caller sends that message.
 */
export async function waitRun(db: D1Database, id: string, now: number, wakeAt: number): Promise<boolean> {
  const [, moved] = await db.batch([
    db.prepare(`UPDATE eval_runs SET lease_until = NULL WHERE id = ? AND status = 'in_progress'`).bind(id),
    db
      .prepare(
        `UPDATE eval_runs SET wake_at = ?1 WHERE id = ?2 AND status = 'in_progress'
         AND (wake_at IS NULL OR wake_at <= ?3 OR wake_at > ?1)`,
      )
      .bind(wakeAt, id, now),
  ]);
  return (moved?.meta.changes ?? 0) > 0;
}

/** What a run must be for {@link endRun} to end it (SQL over `eval_runs`): running. */
export const RUNNING = `status = 'in_progress'`;

/** What a run must be for {@link cancelRun} to cancel it (SQL over `eval_runs`): not ended. */
export const UNENDED = `status IN ('queued', 'in_progress')`;

/**
 * Ends a running run as `status` (with `error` for `failed`); true when it changed, false (a no-op) when it
 * had already ended or was deleted (its worker may still be grading it: it neither ends nor logs a deleted
 * run). `before` runs first in the same transaction (the end's webhook event, guarded by {@link RUNNING}).
 */
export async function endRun(
  db: D1Database,
  id: string,
  status: 'completed' | 'failed',
  error: RunRecord['error'],
  now: number,
  before: D1PreparedStatement[] = [],
): Promise<boolean> {
  const results = await db.batch([
    ...before,
    db
      .prepare(
        `UPDATE eval_runs SET status = ?, error = ?, lease_until = NULL, wake_at = NULL, updated_at = ?
       WHERE id = ? AND ${RUNNING} AND deleted_at IS NULL`,
      )
      .bind(status, error ? JSON.stringify(error) : null, now, id),
  ]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/** The statement cancelling run `id` of `tenant` when it has not ended (and is not deleted). */
function cancelStatement(db: D1Database, tenant: string, id: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE eval_runs SET status = 'canceled', lease_until = NULL, wake_at = NULL, updated_at = ?
       WHERE id = ? AND tenant = ? AND ${UNENDED} AND deleted_at IS NULL`,
    )
    .bind(now, id, tenant);
}

/**
 * Cancels a queued or running run; true when it changed. `before` runs first in the same transaction (the
 * cancel's webhook event, guarded by {@link UNENDED}).
 */
export async function cancelRun(
  db: D1Database,
  tenant: string,
  id: string,
  now: number,
  before: D1PreparedStatement[] = [],
): Promise<boolean> {
  const results = await db.batch([...before, cancelStatement(db, tenant, id, now)]);
  return (results.at(-1)?.meta.changes ?? 0) > 0;
}

/** The tables holding a run's content by `run_id`, with their columns of content (texts of items, prompts, replies). */
const RUN_CHILDREN = [
  ['eval_run_items', ['item', 'sample', 'results']],
  ['eval_run_calls', ['result']],
  ['eval_run_wave_calls', ['request', 'attempts', 'result']],
] as const;

/**
 * Erases the runs `where` selects (SQL over `eval_runs`, `binds` its values) as a delete must: each text of
 * their rows and their children's first overwritten in place (src/config/sqlite-scrub.ts), then the children
 * deleted and the run kept as a tombstone (ids, status, counts, times: its inline items and metadata gone),
 * marked deleted. The mark is the second statement. A repeat finds nothing left to erase.
 */
export function eraseRuns(
  db: D1Database,
  where: string,
  binds: readonly unknown[],
  now: number,
): D1PreparedStatement[] {
  const runs = `SELECT id FROM eval_runs WHERE ${where}`;
  return [
    db.prepare(scrubSql('eval_runs', ['data_source', 'metadata'], `${where} AND deleted_at IS NULL`)).bind(...binds),
    db
      .prepare(
        `UPDATE eval_runs SET deleted_at = ?, lease_until = NULL, data_source = '{}', metadata = NULL
         WHERE ${where} AND deleted_at IS NULL`,
      )
      .bind(now, ...binds),
    ...RUN_CHILDREN.flatMap(([table, columns]) => [
      db.prepare(scrubSql(table, columns, `run_id IN (${runs})`)).bind(...binds),
      db.prepare(`DELETE FROM ${table} WHERE run_id IN (${runs})`).bind(...binds),
    ]),
  ];
}

/**
 * Deletes a run: its items, its stored model calls (their replies) and its batch-tier calls erased, the run
 * kept as a tombstone (see `eraseRuns`). A run not ended yet is cancelled first in the same transaction, after
 * `cancelEvent` (the cancel's webhook event, guarded by {@link UNENDED}), so a repeated delete finds it deleted
 * and announces nothing again. Answers whether it existed and whether this delete cancelled it. Usage rows stay
 * (billing).
 */
export async function deleteRun(
  db: D1Database,
  tenant: string,
  id: string,
  now: number,
  cancelEvent: D1PreparedStatement[] = [],
): Promise<{ deleted: boolean; canceled: boolean }> {
  const at = cancelEvent.length;
  const results = await db.batch([
    ...cancelEvent,
    cancelStatement(db, tenant, id, now),
    ...eraseRuns(db, `id = ? AND tenant = ?`, [id, tenant], now),
  ]);
  // The erasure's mark is its second statement.
  return { canceled: (results[at]?.meta.changes ?? 0) > 0, deleted: (results[at + 2]?.meta.changes ?? 0) > 0 };
}

/**
 * The statements that delete every run of eval `evalId` as {@link deleteRun} deletes one, for the eval's own
 * delete to run in its transaction: each of `unended` (the runs not ended when read) cancelled after its
 * `cancelEvent`. A repeat deletes nothing more.
 */
export function deleteEvalRunsStatements(
  db: D1Database,
  tenant: string,
  evalId: string,
  now: number,
  unended: readonly { id: string; cancelEvent: D1PreparedStatement[] }[] = [],
): D1PreparedStatement[] {
  return [
    ...unended.flatMap((r) => [...r.cancelEvent, cancelStatement(db, tenant, r.id, now)]),
    ...eraseRuns(db, `tenant = ? AND eval_id = ?`, [tenant, evalId], now),
  ];
}

/** Eval `evalId`'s runs not ended (to cancel when it is deleted, and withdraw the batch tier's provider batches). */
export async function unendedRuns(
  db: D1Database,
  tenant: string,
  evalId: string,
): Promise<Pick<RunRecord, 'id' | 'tenant' | 'evalId' | 'serviceTier' | 'itemsTotal' | 'createdAt'>[]> {
  const { results } = await db
    .prepare(
      `SELECT id, tenant, eval_id, service_tier, items_total, created_at FROM eval_runs
       WHERE tenant = ? AND eval_id = ? AND deleted_at IS NULL AND ${UNENDED}`,
    )
    .bind(tenant, evalId)
    .all<{
      id: string;
      tenant: string;
      eval_id: string;
      service_tier: RunRecord['serviceTier'];
      items_total: number;
      created_at: number;
    }>();
  return results.map((r) => ({
    id: r.id,
    tenant: r.tenant,
    evalId: r.eval_id,
    serviceTier: r.service_tier,
    itemsTotal: r.items_total,
    createdAt: r.created_at,
  }));
}
