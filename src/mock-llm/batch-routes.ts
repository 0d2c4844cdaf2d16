/**
 * @module
 * The Batch API's HTTP routes on the mock (`POST /v1/batches`, `GET /v1/batches`, `GET /v1/batches/{id}`,
 * `POST /v1/batches/{id}/cancel`), over the store of `batches.ts`. Create checks its request as OpenAI does:
 * an uploaded file of purpose `batch`, an endpoint of the Batch API (the mock runs `/v1/chat/completions`
 * only), `completion_window: "24h"`, `metadata` of at most 16 string pairs (keys ≤ 64 characters, values
 * ≤ 512); each mistake is a 400 naming its `param`.
 */
import type { LineAnswerer, MockBatchOptions, MockBatchStore } from './batches.js';
import { batchNotFound } from './batches.js';
import type { MockFileStore } from './files.js';
import { apiError, listPage } from './files.js';
import { unitFromHash } from '../llm/hash53.js';

/** The endpoints OpenAI's Batch API takes; the mock runs `/v1/chat/completions` only. */
const ENDPOINTS = ['/v1/responses', '/v1/chat/completions', '/v1/embeddings', '/v1/completions', '/v1/moderations'];
const SERVED_ENDPOINT = '/v1/chat/completions';

function invalid(message: string, param: string | null, code: string | null = 'invalid_value'): Response {
  return apiError({ status: 400, message, type: 'invalid_request_error', param, code });
}

/** Checks `metadata` as OpenAI does: at most 16 string pairs, keys ≤ 64 characters, values ≤ 512. */
function readMetadata(raw: unknown): Record<string, string> | null | string {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) return "'metadata' must be an object of strings";
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > 16) return "'metadata' may hold at most 16 pairs";
  for (const [k, v] of entries) {
    if (k.length > 64) return `'metadata' key ${k.slice(0, 20)}… is longer than 64 characters`;
    if (typeof v !== 'string') return `'metadata.${k}' must be a string`;
    if (v.length > 512) return `'metadata.${k}' is longer than 512 characters`;
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

async function createRoute(
  request: Request,
  store: MockBatchStore,
  files: MockFileStore,
  answer: LineAnswerer,
  nowMs: number,
  options: MockBatchOptions,
): Promise<Response> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return invalid('We could not parse the JSON body of your request.', null, null);
  }
  const b = (raw ?? {}) as Record<string, unknown>;
  if (typeof b.input_file_id !== 'string')
    return invalid("Missing required parameter: 'input_file_id'.", 'input_file_id', 'missing_required_parameter');
  if (typeof b.endpoint !== 'string' || !ENDPOINTS.includes(b.endpoint))
    return invalid(`Invalid 'endpoint': expected one of ${ENDPOINTS.join(', ')}.`, 'endpoint');
  if (b.endpoint !== SERVED_ENDPOINT)
    return invalid(`The mock runs ${SERVED_ENDPOINT} batches only, not ${b.endpoint}.`, 'endpoint');
  if (b.completion_window !== '24h')
    return invalid("Invalid 'completion_window': only '24h' is supported.", 'completion_window');
  const metadata = readMetadata(b.metadata);
  if (typeof metadata === 'string') return invalid(metadata, 'metadata');
  const file = files.get(b.input_file_id);
  if (!file)
    return invalid(`Invalid 'input_file_id': no file with id '${b.input_file_id}'.`, 'input_file_id', 'not_found');
  if (file.object.purpose !== 'batch')
    return invalid(
      `Invalid 'input_file_id': the file's purpose is '${file.object.purpose}', a batch needs 'batch'.`,
      'input_file_id',
    );
  const batch = store.create(
    { inputFileId: b.input_file_id, endpoint: b.endpoint, metadata, content: file.content },
    answer,
    nowMs,
    options,
  );
  if (unitFromHash(`${options.seed ?? ''}\u0000${batch.id}\u0000create-loss`) < (options.createLossRate ?? 0))
    return apiError({
      status: 500,
      message: 'The server had an error while processing your request (mock create fault: the batch was created).',
      type: 'server_error',
      param: null,
      code: null,
    });
  return Response.json(batch);
}

/** Answers the Batch API routes (module notes), or undefined when `path` is none of them. */
export async function handleBatchesRoute(
  request: Request,
  path: string,
  store: MockBatchStore,
  files: MockFileStore,
  answer: LineAnswerer,
  nowMs: number,
  options: MockBatchOptions = {},
): Promise<Response | undefined> {
  const m = /\/batches(?:\/([^/]+)(\/cancel)?)?$/.exec(path);
  if (!m) return undefined;
  const id = m[1] === undefined ? undefined : decodeURIComponent(m[1]);
  if (id === undefined) {
    if (request.method === 'POST') return createRoute(request, store, files, answer, nowMs, options);
    if (request.method === 'GET') return listPage(await store.list(nowMs), new URL(request.url).searchParams, 20, 100);
    return undefined;
  }
  if (m[2] !== undefined) {
    if (request.method !== 'POST') return undefined;
    const out = await store.cancel(id, nowMs);
    return 'error' in out ? apiError(out.error) : Response.json(out.batch);
  }
  if (request.method !== 'GET') return undefined;
  const batch = await store.get(id, nowMs);
  return batch ? Response.json(batch) : apiError(batchNotFound(id));
}
