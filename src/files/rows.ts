/**
 * @module
 * The D1 statements of files (the tenant's database): insert, read one (by id, or by the `Idempotency-Key` it was
 * uploaded under), page through, delete. The
 * content is in R2 (./service.ts). Times are epoch ms.
 */

import type { IdempotentCreate, KeyHolder } from '../openai/idempotency.js';

/** A `files` row. */
export interface FileRecord {
  id: string;
  tenant: string;
  filename: string;
  purpose: string;
  bytes: number;
  lines: number;
  createdAt: number;
}

interface FileRow {
  id: string;
  tenant: string;
  filename: string;
  purpose: string;
  bytes: number;
  lines: number;
  created_at: number;
}

const SELECT = `SELECT id, tenant, filename, purpose, bytes, lines, created_at FROM files`;

function toRecord(r: FileRow): FileRecord {
  return { ...r, createdAt: r.created_at };
}

/**
 * Stores a new file's row with the `Idempotency-Key` it was uploaded under (if any); false when another file
 * already holds that key (a concurrent retry won: read it with {@link findFileByKey}).
 */
export async function insertFile(
  db: D1Database,
  f: FileRecord,
  idem: IdempotentCreate | null = null,
): Promise<boolean> {
  const r = await db
    .prepare(
      `INSERT INTO files (id, tenant, filename, purpose, bytes, lines, created_at, idempotency_key, request_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(f.id, f.tenant, f.filename, f.purpose, f.bytes, f.lines, f.createdAt, idem?.key ?? null, idem?.hash ?? null)
    .run();
  return r.meta.changes > 0;
}

/**
 * The tenant's file uploaded under `Idempotency-Key` `key`, deleted or not (a deleted one keeps its key), with
 * the hash of the upload that made it; null when no file holds the key.
 */
export async function findFileByKey(
  db: D1Database,
  tenant: string,
  key: string,
): Promise<KeyHolder<FileRecord> | null> {
  const r = await db
    .prepare(
      `SELECT id, tenant, filename, purpose, bytes, lines, created_at, request_hash, deleted_at FROM files
       WHERE tenant = ? AND idempotency_key = ?`,
    )
    .bind(tenant, key)
    .first<FileRow & { request_hash: string | null; deleted_at: number | null }>();
  if (!r) return null;
  const { request_hash: requestHash, deleted_at: deletedAt, ...row } = r;
  return { record: toRecord(row), requestHash, deleted: deletedAt !== null };
}

/** The tenant's file `id` (not deleted), or null. */
export async function getFile(db: D1Database, tenant: string, id: string): Promise<FileRecord | null> {
  const r = await db
    .prepare(`${SELECT} WHERE id = ? AND tenant = ? AND deleted_at IS NULL`)
    .bind(id, tenant)
    .first<FileRow>();
  return r ? toRecord(r) : null;
}

/** One page of the tenant's files after `after`, `limit + 1` rows so the caller knows `has_more`. */
export async function listFiles(
  db: D1Database,
  tenant: string,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; purpose?: string | undefined },
): Promise<FileRecord[]> {
  const cmp = q.order === 'asc' ? '>' : '<';
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const after =
    q.after === undefined ? '' : `AND (created_at, id) ${cmp} (SELECT created_at, id FROM files WHERE id = ?2)`;
  const { results } = await db
    .prepare(
      `${SELECT} WHERE tenant = ?1 AND deleted_at IS NULL AND (?3 IS NULL OR purpose = ?3) ${after}
       ORDER BY created_at ${dir}, id ${dir} LIMIT ?4`,
    )
    .bind(tenant, q.after ?? null, q.purpose ?? null, q.limit + 1)
    .all<FileRow>();
  return results.map(toRecord);
}

/** Marks a file deleted; true when it existed. */
export async function deleteFile(db: D1Database, tenant: string, id: string, now: number): Promise<boolean> {
  const r = await db
    .prepare(`UPDATE files SET deleted_at = ? WHERE id = ? AND tenant = ? AND deleted_at IS NULL`)
    .bind(now, id, tenant)
    .run();
  return r.meta.changes > 0;
}
