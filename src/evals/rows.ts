/**
 * @module
 * The D1 statements of evals: insert, read one, list a page (keyset on the ordering column and id),
 * update name and metadata, delete (sets `deleted_at`), find the eval an `Idempotency-Key` made. Every statement is scoped by tenant. Times are
 * epoch ms.
 */
import type { IdempotentCreate, KeyHolder } from '../openai/idempotency.js';
import type { EvalMetadata } from './schemas.js';

/** An `evals` row. */
export interface EvalRecord {
  id: string;
  tenant: string;
  name: string;
  /** The answered `data_source_config` (JSON). */
  dataSourceConfig: Record<string, unknown>;
  /** The graders (JSON), as given. */
  testingCriteria: unknown[];
  metadata: EvalMetadata | null;
  createdAt: number;
  updatedAt: number;
}

interface EvalRow {
  id: string;
  tenant: string;
  name: string;
  data_source_config: string;
  testing_criteria: string;
  metadata: string | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = `id, tenant, name, data_source_config, testing_criteria, metadata, created_at, updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM evals`;

function toRecord(r: EvalRow): EvalRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.name,
    dataSourceConfig: JSON.parse(r.data_source_config) as Record<string, unknown>,
    testingCriteria: JSON.parse(r.testing_criteria) as unknown[],
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as EvalMetadata),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Stores a new eval, with the `Idempotency-Key` it was created under (if any); false when another eval already
 * holds that key (a concurrent retry won: read it with {@link findEvalByKey}).
 */
export async function insertEval(
  db: D1Database,
  e: EvalRecord,
  idem: IdempotentCreate | null = null,
): Promise<boolean> {
  const r = await db
    .prepare(
      `INSERT INTO evals (id, tenant, name, data_source_config, testing_criteria, metadata, created_at, updated_at,
         idempotency_key, request_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(
      e.id,
      e.tenant,
      e.name,
      JSON.stringify(e.dataSourceConfig),
      JSON.stringify(e.testingCriteria),
      e.metadata === null ? null : JSON.stringify(e.metadata),
      e.createdAt,
      e.updatedAt,
      idem?.key ?? null,
      idem?.hash ?? null,
    )
    .run();
  return r.meta.changes > 0;
}

/**
 * The tenant's eval created under `Idempotency-Key` `key`, deleted or not (a deleted one keeps its key), with
 * the hash of the request that made it; null when no eval holds the key.
 */
export async function findEvalByKey(
  db: D1Database,
  tenant: string,
  key: string,
): Promise<KeyHolder<EvalRecord> | null> {
  const r = await db
    .prepare(`SELECT ${COLUMNS}, request_hash, deleted_at FROM evals WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<EvalRow & { request_hash: string | null; deleted_at: number | null }>();
  return r ? { record: toRecord(r), requestHash: r.request_hash, deleted: r.deleted_at !== null } : null;
}

/** The tenant's eval `id` (not deleted), or null. */
export async function getEval(db: D1Database, tenant: string, id: string): Promise<EvalRecord | null> {
  const r = await db
    .prepare(`${SELECT} WHERE id = ? AND tenant = ? AND deleted_at IS NULL`)
    .bind(id, tenant)
    .first<EvalRow>();
  return r ? toRecord(r) : null;
}

/** One page of the tenant's evals after `after` (an id), `limit + 1` rows so the caller knows `has_more`. */
export async function listEvals(
  db: D1Database,
  tenant: string,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; orderBy: 'created_at' | 'updated_at' },
): Promise<EvalRecord[]> {
  const col = q.orderBy === 'updated_at' ? 'updated_at' : 'created_at';
  const cmp = q.order === 'asc' ? '>' : '<';
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const after =
    q.after === undefined ? '' : `AND (${col}, id) ${cmp} (SELECT ${col}, id FROM evals WHERE id = ?2 AND tenant = ?1)`;
  const sql = `${SELECT} WHERE tenant = ?1 AND deleted_at IS NULL ${after} ORDER BY ${col} ${dir}, id ${dir} LIMIT ?3`;
  const { results } = await db
    .prepare(sql)
    .bind(tenant, q.after ?? null, q.limit + 1)
    .all<EvalRow>();
  return results.map(toRecord);
}

/** Sets the name and/or metadata given; the eval as it is now, or null when there is no such eval. */
export async function updateEval(
  db: D1Database,
  tenant: string,
  id: string,
  patch: { name?: string | undefined; metadata?: EvalMetadata | null | undefined },
  now: number,
): Promise<EvalRecord | null> {
  const r = await db
    .prepare(
      `UPDATE evals SET name = CASE WHEN ?3 THEN ?4 ELSE name END, metadata = CASE WHEN ?5 THEN ?6 ELSE metadata END,
         updated_at = ?7 WHERE id = ?1 AND tenant = ?2 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    )
    .bind(
      id,
      tenant,
      patch.name !== undefined ? 1 : 0,
      patch.name ?? null,
      patch.metadata !== undefined ? 1 : 0,
      patch.metadata ? JSON.stringify(patch.metadata) : null,
      now,
    )
    .first<EvalRow>();
  return r ? toRecord(r) : null;
}

/**
 * Marks the eval deleted, with `also` (its runs' deletes) in the same transaction; true when it existed.
 */
export async function deleteEval(
  db: D1Database,
  tenant: string,
  id: string,
  now: number,
  also: D1PreparedStatement[] = [],
): Promise<boolean> {
  const [marked] = await db.batch([
    db
      .prepare(`UPDATE evals SET deleted_at = ? WHERE id = ? AND tenant = ? AND deleted_at IS NULL`)
      .bind(now, id, tenant),
    ...also,
  ]);
  return (marked?.meta.changes ?? 0) > 0;
}
