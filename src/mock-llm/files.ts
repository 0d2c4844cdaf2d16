/**
 * @module
 * OpenAI's Files API as the mock serves it (the part the Batch API needs), in memory:
 *
 * - `POST /v1/files`: multipart form with `purpose` and `file`; answers the File object
 *   (`{id, object: "file", bytes, created_at, filename, purpose, status: "processed", expires_at}`).
 *   `purpose=batch` files must be named `*.jsonl` and stay within the Batch API's 200 MB (else 400,
 *   `param: "file"`) and expire after 30 days as OpenAI's do by default;
 * - `GET /v1/files` (`purpose`, `limit` 1-10,000 default 10,000, `order` asc|desc default desc, `after`);
 * - `GET /v1/files/{id}`, `GET /v1/files/{id}/content` (the bytes as uploaded or written),
 *   `DELETE /v1/files/{id}` (`{id, object: "file", deleted: true}`); an unknown id is a 404.
 *
 * The Batch API's output and error files are written here too (purpose `batch_output`).
 *
 * Fault: `uploadLossRate` stores an upload and then answers 500 `server_error`, as a connection reset or a
 * gateway error after the file was stored would: the caller cannot tell, and a blind retry makes a second
 * file. Drawn from a hash of (seed, filename, how many times that name was uploaded).
 * Sources: the openai package 6.20's `resources/files.d.ts` and OpenAI's API reference for Files.
 */
import type { FileDeleted, FileObject } from 'openai/resources/files';
import { hashHex, unitFromHash } from '../llm/hash53.js';

/** Purposes an upload may name (openai 6.20's `FilePurpose`). */
const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** How long a `batch` / `batch_output` file lives by default, seconds (OpenAI: 30 days). */
export const BATCH_FILE_TTL_SECONDS = 30 * 24 * 3600;

/** The Batch API's size limit of an input file, bytes (OpenAI: "up to 200 MB"). */
export const BATCH_FILE_MAX_BYTES = 200 * 1024 * 1024;

/** Options of the Files API routes (the Batch API's options carry them: `MockBatchOptions`). */
export interface MockFileOptions {
  /** Bytes allowed in one `purpose=batch` upload. Default {@link BATCH_FILE_MAX_BYTES}. */
  maxFileBytes?: number;
  /** Share of uploads stored and then answered with a 500 (the answer lost), 0-1. Default 0. */
  uploadLossRate?: number;
  /** Seed of the loss draws. Default ''. */
  seed?: string;
}

/** An OpenAI-style error: status and the fields of `{error: {...}}`. */
export interface MockApiError {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** A file as stored: its File object and its text. */
export interface StoredFile {
  object: FileObject;
  content: string;
}

const encoder = new TextEncoder();

/** In-memory file store of one mock server. */
export class MockFileStore {
  private readonly files = new Map<string, StoredFile>();
  /** Uploads per file name, so each upload of one name draws its loss anew. */
  private readonly uploadsByName = new Map<string, number>();
  private seq = 0;

  /** Counts an upload of `filename`; answers how many there have been, this one included. */
  countUpload(filename: string): number {
    const n = (this.uploadsByName.get(filename) ?? 0) + 1;
    this.uploadsByName.set(filename, n);
    return n;
  }

  /** Stores `content` as a new file and returns its File object. `nowMs`: creation time, ms since epoch. */
  add(content: string, filename: string, purpose: FileObject['purpose'], nowMs: number): FileObject {
    this.seq += 1;
    const createdAt = Math.floor(nowMs / 1000);
    const batchy = purpose === 'batch' || purpose === 'batch_output';
    const object: FileObject = {
      // Sequence first, so ids sort by creation; the hash makes them look like OpenAI's opaque ids.
      id: `file-${String(this.seq).padStart(8, '0')}${hashHex(`file\u0000${this.seq}\u0000${filename}`)}`,
      object: 'file',
      bytes: encoder.encode(content).byteLength,
      created_at: createdAt,
      filename,
      purpose,
      // Deprecated in OpenAI's reference, yet still required by the File object's type and still sent.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      status: 'processed',
      ...(batchy ? { expires_at: createdAt + BATCH_FILE_TTL_SECONDS } : {}),
    };
    this.files.set(object.id, { object, content });
    return object;
  }

  /** The stored file, or undefined. */
  get(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  /** Removes a file; false when there was none. */
  delete(id: string): boolean {
    return this.files.delete(id);
  }

  /** Every file in creation order. */
  all(): FileObject[] {
    return [...this.files.values()].map((f) => f.object);
  }
}

/** An OpenAI-style error response. */
export function apiError(e: MockApiError, headers: Record<string, string> = {}): Response {
  return Response.json(
    { error: { message: e.message, type: e.type, param: e.param, code: e.code } },
    { status: e.status, headers },
  );
}

function invalid(message: string, param: string | null = null, code: string | null = null): Response {
  return apiError({ status: 400, message, type: 'invalid_request_error', param, code });
}

function notFound(id: string): Response {
  return apiError({
    status: 404,
    message: `No such File object: ${id}`,
    type: 'invalid_request_error',
    param: 'id',
    code: null,
  });
}

/** A cursor page as OpenAI's list endpoints answer it. */
export function listPage(
  items: readonly { id: string }[],
  query: URLSearchParams,
  defaultLimit: number,
  maxLimit: number,
): Response {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? defaultLimit : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    return invalid(`Invalid 'limit': must be an integer from 1 to ${maxLimit}.`, 'limit', 'invalid_value');
  const after = query.get('after');
  let start = 0;
  if (after !== null) {
    const at = items.findIndex((i) => i.id === after);
    if (at < 0) return invalid(`Invalid 'after': no object with id ${after}.`, 'after', 'invalid_value');
    start = at + 1;
  }
  const data = items.slice(start, start + limit);
  return Response.json({
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < items.length,
  });
}

async function upload(
  request: Request,
  store: MockFileStore,
  nowMs: number,
  options: MockFileOptions,
): Promise<Response> {
  const maxBatchBytes = options.maxFileBytes ?? BATCH_FILE_MAX_BYTES;
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type))
    return invalid(`Invalid Content-Type header (${type || 'none'}), expected multipart/form-data.`);
  let form: FormData;
  try {
    // undici deprecates formData() for servers facing large untrusted bodies; the mock reads the small uploads
    // of its own tests and benches.
    form = await request.formData();
  } catch (e) {
    return invalid(`Could not parse the multipart form: ${e instanceof Error ? e.message : String(e)}`);
  }
  const purpose = form.get('purpose');
  if (typeof purpose !== 'string')
    return invalid("Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter');
  if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose))
    return invalid(
      `Invalid value for 'purpose': '${purpose}'. Expected one of ${UPLOAD_PURPOSES.join(', ')}.`,
      'purpose',
      'invalid_value',
    );
  const file = form.get('file');
  if (file === null) return invalid("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  if (typeof file === 'string') return invalid("'file' must be a file, not a text field.", 'file', 'invalid_value');
  const filename = file.name || 'upload';
  if (purpose === 'batch') {
    if (!filename.endsWith('.jsonl')) return invalid('Invalid file format for Batch API. Must be .jsonl', 'file');
    if (file.size > maxBatchBytes)
      return invalid(
        `File is too large for the Batch API: ${file.size} bytes; the limit is ${maxBatchBytes} bytes.`,
        'file',
      );
  }
  const object = store.add(await file.text(), filename, purpose as FileObject['purpose'], nowMs);
  const nth = store.countUpload(filename);
  if (
    unitFromHash(`${options.seed ?? ''}\u0000${filename}\u0000upload-loss\u0000${nth}`) < (options.uploadLossRate ?? 0)
  )
    return apiError({
      status: 500,
      message: 'The server had an error while processing your request (mock upload fault: the file was stored).',
      type: 'server_error',
      param: null,
      code: null,
    });
  return Response.json(object);
}

/**
 * Answers the Files API routes (module notes), or undefined when `path` is none of them.
 * @param options the upload limit and fault (default: OpenAI's limit, no fault)
 */
export async function handleFilesRoute(
  request: Request,
  path: string,
  store: MockFileStore,
  nowMs: number,
  options: MockFileOptions = {},
): Promise<Response | undefined> {
  const m = /\/files(?:\/([^/]+)(\/content)?)?$/.exec(path);
  if (!m) return undefined;
  const id = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
  if (id === undefined) {
    if (request.method === 'POST') return upload(request, store, nowMs, options);
    if (request.method === 'GET') {
      const query = new URL(request.url).searchParams;
      const purpose = query.get('purpose');
      const order = query.get('order') ?? 'desc';
      if (order !== 'asc' && order !== 'desc')
        return invalid("Invalid 'order': expected asc or desc.", 'order', 'invalid_value');
      const files = store.all().filter((f) => purpose === null || f.purpose === purpose);
      return listPage(order === 'desc' ? files.reverse() : files, query, 10_000, 10_000);
    }
    return undefined;
  }
  const stored = store.get(id);
  if (m[2] !== undefined) {
    if (request.method !== 'GET') return undefined;
    if (!stored) return notFound(id);
    return new Response(stored.content, { headers: { 'content-type': 'application/octet-stream' } });
  }
  if (request.method === 'GET') return stored ? Response.json(stored.object) : notFound(id);
  if (request.method === 'DELETE') {
    if (!store.delete(id)) return notFound(id);
    const deleted: FileDeleted = { id, object: 'file', deleted: true };
    return Response.json(deleted);
  }
  return undefined;
}
