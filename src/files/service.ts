/**
 * @module
 * Files for eval data: an upload is checked (purpose `evals`, JSONL of objects, at most
 * {@link MAX_FILE_BYTES} and {@link MAX_FILE_LINES}), its content put in R2 under `<tenant>/<id>` and its row
 * in the tenant's D1; reads go through the tenant's row first, so no tenant reaches another's object.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { listPage } from '../openai/list-page.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { randomBase32 } from '../tenants/ids.js';
import type { FileRecord } from './rows.js';
import { deleteFile, findFileByKey, getFile, insertFile, listFiles } from './rows.js';
import { sha256Hex } from '../http/request-hash.js';
import type { IdempotentCreate } from '../openai/idempotency.js';
import { idempotentCreate, replayOf } from '../openai/idempotency.js';
import type { FileObject } from './schemas.js';
import { MAX_FILE_BYTES, MAX_FILE_LINES } from './schemas.js';

const objectKey = (tenant: string, id: string) => `${tenant}/${id}`;

/** A file as the API answers it. */
function view(f: FileRecord): FileObject {
  return {
    id: f.id,
    object: 'file',
    bytes: f.bytes,
    created_at: Math.floor(f.createdAt / 1000),
    filename: f.filename,
    purpose: 'evals',
    status: 'processed',
  };
}

/** The JSON objects of a JSONL text, one per non-blank line. @throws ApiError 400 naming the line. */
function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [n, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidRequest([{ path: 'file', message: `line ${String(n + 1)} is not a JSON object` }], 'file');
    }
    out.push(value as Record<string, unknown>);
  }
  return out;
}

/**
 * `POST /v1/files`: stores an eval data file. With an `Idempotency-Key`, the same key, name, purpose and
 * content answer the file stored first (`replayed`) and nothing is stored again.
 * @throws ApiError 400 (`purpose` other than `evals`, a line that is not a JSON object, too many lines), 413;
 *   404 when the file the key made was deleted; 409 `idempotency_conflict` (the key with another upload).
 */
export async function uploadFile(
  env: Bindings,
  tenant: string,
  form: { file: File; purpose: string },
  idempotencyKey?: string,
): Promise<{ file: FileObject; replayed: boolean }> {
  if (form.purpose !== 'evals') {
    throw invalidRequest(
      [{ path: 'purpose', message: `"${form.purpose}" files are not stored here: Tribunal keeps eval data ("evals")` }],
      'form',
    );
  }
  if (form.file.size > MAX_FILE_BYTES) {
    throw new ApiError(
      413,
      'payload_too_large',
      `file: ${String(form.file.size)} bytes, over ${String(MAX_FILE_BYTES)}`,
    );
  }
  const text = await form.file.text();
  const filename = form.file.name || 'upload.jsonl';
  const db = tenantDb(env, tenant);
  const idem = await idempotentCreate(idempotencyKey, {
    filename,
    purpose: form.purpose,
    sha256: await sha256Hex(text),
  });
  const earlier = idem && (await replayed(db, tenant, idem));
  if (earlier) return { file: earlier, replayed: true };
  const lines = jsonLines(text);
  if (lines.length > MAX_FILE_LINES) {
    throw invalidRequest(
      [{ path: 'file', message: `${String(lines.length)} lines, over ${String(MAX_FILE_LINES)}` }],
      'file',
    );
  }
  const record: FileRecord = {
    id: `file-${randomBase32(24)}`,
    tenant,
    filename,
    purpose: 'evals',
    bytes: form.file.size,
    lines: lines.length,
    createdAt: Date.now(),
  };
  // The object first: a row never names content that is not there.
  await env.FILES.put(objectKey(tenant, record.id), text, { httpMetadata: { contentType: 'application/jsonl' } });
  if (await insertFile(db, record, idem)) return { file: view(record), replayed: false };
  // A concurrent upload with the same key stored its file first: this one's object is not named by any row.
  await env.FILES.delete(objectKey(tenant, record.id));
  const winner = idem && (await replayed(db, tenant, idem));
  if (!winner) throw new Error(`file insert changed no row and no file holds key "${idem?.key ?? ''}"`);
  return { file: winner, replayed: true };
}

/** The file uploaded earlier under the create's key; null when none. @throws ApiError 404 (deleted), 409. */
async function replayed(db: D1Database, tenant: string, idem: IdempotentCreate): Promise<FileObject | null> {
  const earlier = replayOf(idem, await findFileByKey(db, tenant, idem.key), 'file');
  return earlier && view(earlier);
}

/** The tenant's file, or 404. */
export async function requireFile(env: Bindings, tenant: string, id: string): Promise<FileRecord> {
  const f = await getFile(tenantDb(env, tenant), tenant, id);
  if (!f) throw new ApiError(404, 'not_found', `no file "${id}"`);
  return f;
}

/** `GET /v1/files/{file_id}`. */
export async function getFileView(env: Bindings, tenant: string, id: string): Promise<FileObject> {
  return view(await requireFile(env, tenant, id));
}

/** `GET /v1/files`: one page in OpenAI's list shape. */
export async function listFilesView(
  env: Bindings,
  tenant: string,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; purpose?: string | undefined },
) {
  const rows = await listFiles(tenantDb(env, tenant), tenant, q);
  return listPage(rows.slice(0, q.limit).map(view), rows.length > q.limit);
}

/** The stored text of the tenant's file `id`, or null when it is gone. */
export async function fileText(env: Bindings, tenant: string, id: string): Promise<string | null> {
  const f = await getFile(tenantDb(env, tenant), tenant, id);
  if (!f) return null;
  const object = await env.FILES.get(objectKey(tenant, id));
  return object ? object.text() : null;
}

/**
 * The JSON objects of the tenant's file `id` (one per line), or null when it is gone: the eval runs' `file_id`
 * source.
 */
export async function fileLines(env: Bindings, tenant: string, id: string): Promise<Record<string, unknown>[] | null> {
  const text = await fileText(env, tenant, id);
  return text === null ? null : jsonLines(text);
}

/** `DELETE /v1/files/{file_id}`: the row, then the object. */
export async function deleteFileView(env: Bindings, tenant: string, id: string) {
  if (!(await deleteFile(tenantDb(env, tenant), tenant, id, Date.now()))) {
    throw new ApiError(404, 'not_found', `no file "${id}"`);
  }
  await env.FILES.delete(objectKey(tenant, id));
  return { id, object: 'file' as const, deleted: true as const };
}
