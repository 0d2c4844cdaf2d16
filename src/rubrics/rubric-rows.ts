/**
 * @module
 * D1 access for the `rubrics` rows (migrations/0006_rubrics.sql): creating one with its first version, finding
 * it by id or `Idempotency-Key`, the tenant's listing, and the archive mark. Every read is scoped to the tenant.
 * Times are epoch milliseconds. Versions, contents and a version's steps are in ./rows.ts.
 */
import type { RubricContent } from '../engine/rubric.js';
import type { RubricExample } from './golden.js';
import { contentStatement, examplesText } from './rows.js';

/** A `rubrics` row. */
export interface RubricRecord {
  id: string;
  tenant: string;
  name: string;
  kind: 'pairwise' | 'pointwise';
  latestVersion: number;
  archivedAt: number | null;
  requestHash: string | null;
  createdAt: number;
  updatedAt: number;
}

interface RubricRow {
  id: string;
  tenant: string;
  name: string;
  kind: 'pairwise' | 'pointwise';
  latest_version: number;
  archived_at: number | null;
  request_hash: string | null;
  created_at: number;
  updated_at: number;
}

const RUBRIC_COLUMNS = 'id, tenant, name, kind, latest_version, archived_at, request_hash, created_at, updated_at';

function toRubric(r: RubricRow): RubricRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.name,
    kind: r.kind,
    latestVersion: r.latest_version,
    archivedAt: r.archived_at,
    requestHash: r.request_hash,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A new rubric with its first version. */
export interface NewRubric {
  id: string;
  tenant: string;
  name: string;
  kind: 'pairwise' | 'pointwise';
  hash: string;
  content: RubricContent;
  examples: RubricExample[] | undefined;
  idempotencyKey: string | null;
  requestHash: string | null;
  now: number;
}

/**
 * Inserts a rubric, its content and version 1 in one transaction. With an `Idempotency-Key` that the tenant
 * used before nothing is written.
 * @returns true when this call created it.
 */
export async function insertRubric(db: D1Database, r: NewRubric): Promise<boolean> {
  const [created] = await db.batch([
    db
      .prepare(
        `INSERT INTO rubrics (id, tenant, name, kind, latest_version, idempotency_key, request_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(r.id, r.tenant, r.name, r.kind, r.idempotencyKey, r.requestHash, r.now, r.now),
    contentStatement(db, r.tenant, r.hash, r.content, r.now),
    db
      .prepare(
        `INSERT INTO rubric_versions (rubric_id, version, hash, examples, created_at)
         SELECT ?, 1, ?, ?, ? WHERE EXISTS (SELECT 1 FROM rubrics WHERE id = ? AND tenant = ?)`,
      )
      .bind(r.id, r.hash, examplesText(r.examples), r.now, r.id, r.tenant),
  ]);
  return (created?.meta.changes ?? 0) > 0;
}

/** The tenant's rubric holding an `Idempotency-Key`, or null. */
export async function findRubricByKey(db: D1Database, tenant: string, key: string): Promise<RubricRecord | null> {
  const row = await db
    .prepare(`SELECT ${RUBRIC_COLUMNS} FROM rubrics WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<RubricRow>();
  return row ? toRubric(row) : null;
}

/** The tenant's rubric `id`, or null (another tenant's id reads as absent). */
export async function getRubric(db: D1Database, tenant: string, id: string): Promise<RubricRecord | null> {
  const row = await db
    .prepare(`SELECT ${RUBRIC_COLUMNS} FROM rubrics WHERE id = ? AND tenant = ?`)
    .bind(id, tenant)
    .first<RubricRow>();
  return row ? toRubric(row) : null;
}

/** A listing position: after the rubric created at `t` with id `i` (newest first). */
export interface ListPosition {
  t: number;
  i: string;
}

/** One page (plus one row, to tell whether more follow) of the tenant's rubrics, newest first. */
export async function listRubrics(
  db: D1Database,
  tenant: string,
  q: { after: ListPosition | null; limit: number; archived?: boolean | undefined },
): Promise<RubricRecord[]> {
  const where = ['tenant = ?'];
  const binds: (string | number)[] = [tenant];
  if (q.after) {
    where.push('(created_at < ? OR (created_at = ? AND id < ?))');
    binds.push(q.after.t, q.after.t, q.after.i);
  }
  if (q.archived !== undefined) where.push(q.archived ? 'archived_at IS NOT NULL' : 'archived_at IS NULL');
  const { results } = await db
    .prepare(
      `SELECT ${RUBRIC_COLUMNS} FROM rubrics WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(...binds, q.limit + 1)
    .all<RubricRow>();
  return results.map(toRubric);
}

/** Archives the rubric (idempotent: the first time stays). */
export async function archiveRubric(db: D1Database, tenant: string, id: string, now: number): Promise<void> {
  await db
    .prepare('UPDATE rubrics SET archived_at = ?, updated_at = ? WHERE id = ? AND tenant = ? AND archived_at IS NULL')
    .bind(now, now, id, tenant)
    .run();
}
