/**
 * @module
 * A client of a provider's Batch API (OpenAI's wire: `/files` and `/batches`; Azure OpenAI, Groq, Together
 * and Fireworks speak the same), with `fetch`, `FormData` and `Blob` only, so it runs in workerd and Node.
 *
 * Every method makes one HTTP request and never throws for provider trouble: it answers
 * `{ok: true, value}` or `{ok: false, error}`, the error classified as a chat-completions attempt's is
 * (`rate_limited`, `provider_error`, `timeout`, `network`, `auth`, `not_found`, `bad_request`, with
 * `retryable` and the provider's `Retry-After`), its message free of keys and secrets. Retrying is the
 * caller's: a Durable Object polls by alarm, and `POST /files` / `POST /batches` are not idempotent (after a
 * lost answer, {@link BatchClient.findFile} finds a file by the name and size the caller gave it, and
 * {@link BatchClient.findBatch} a batch by the metadata the caller gave it).
 *
 * Typical wave: {@link planBatchFiles} (`batch-files.ts`) → {@link BatchClient.uploadFile} per file →
 * {@link BatchClient.createBatch} with metadata naming the wave → {@link BatchClient.getBatch} until
 * `completed`, `expired`, `failed` or `cancelled` → {@link BatchClient.readFile} on `output_file_id` and
 * `error_file_id`, matching lines by `custom_id` (`custom-id.ts`) → {@link BatchClient.deleteFile}.
 */
import type { CursorPageResponse } from 'openai/core/pagination';
import type { Batch, BatchCreateParams } from 'openai/resources/batches';
import type { FileDeleted, FileListParams, FileObject } from 'openai/resources/files';
import type { LlmError } from '../engine/call.js';
import type { BatchFilePlan } from './batch-files.js';
import type { BatchLineOutcome } from './batch-lines.js';
import { jsonlLines, readBatchLine } from './batch-lines.js';
import type { AttemptFailure } from './outcome.js';
import { BATCH_ENDPOINT } from './request.js';
import type { LlmSettings, LlmSettingsInput, ProviderSettings } from './settings.js';
import { resolveSettings, settingsRedactor } from './settings.js';
import { transportOf } from './routing.js';
import { sendToProvider, timedSend, wireTarget } from './wire.js';

/** A Batch API failure: the LLM layer's error, whether trying again may help, and the provider's wait. */
export interface BatchApiError extends LlmError {
  retryable: boolean;
  /** The provider's `Retry-After`, ms. */
  retryAfterMs?: number;
}

/** What a Batch API method answers. */
export type BatchApiResult<T> = { ok: true; value: T } | { ok: false; error: BatchApiError };

/** A page of batches (`GET /batches`), newest first. */
export interface BatchPage {
  data: Batch[];
  hasMore: boolean;
  /** The cursor of the next page (`after`), the last batch's id. */
  lastId: string | null;
}

/** A page of files (`GET /files`): OpenAI's cursor list, `{object: "list", data, first_id, last_id, has_more}`. */
export interface FilePage {
  data: FileObject[];
  hasMore: boolean;
  /** The cursor of the next page (`after`), the last file's id. */
  lastId: string | null;
}

/**
 * An OpenAI cursor list as sent, `{object: "list", data, first_id, last_id, has_more}` (the openai package's
 * `CursorPageResponse` plus the cursors its reference documents), read defensively: a field may be missing.
 */
type RawPage<T> = Partial<CursorPageResponse<T>> & {
  object?: 'list';
  first_id?: string | null;
  last_id?: string | null;
};

/** A cursor list's page as the client answers it (the cursor: the last item's id). */
function pageOf<T>(
  r: BatchApiResult<RawPage<T>>,
): BatchApiResult<{ data: T[]; hasMore: boolean; lastId: string | null }> {
  if (!r.ok) return r;
  const data = Array.isArray(r.value.data) ? r.value.data : [];
  const last = data.at(-1) as { id?: string } | undefined;
  return { ok: true, value: { data, hasMore: r.value.has_more === true, lastId: r.value.last_id ?? last?.id ?? null } };
}

/** A list request's query string (`?k=v&…`, or '' without parameters). */
function queryOf(params: object): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params) as [string, unknown][])
    if (typeof v === 'string' || typeof v === 'number') query.set(k, String(v));
  const q = query.toString();
  return q ? `?${q}` : '';
}

/** The first item `match` accepts in at most `maxPages` pages of a cursor list, or null. */
async function findInPages<T>(
  page: (after: string | undefined) => Promise<BatchApiResult<{ data: T[]; hasMore: boolean; lastId: string | null }>>,
  match: (item: T) => boolean,
  maxPages: number,
): Promise<BatchApiResult<T | null>> {
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const got = await page(after);
    if (!got.ok) return got;
    const hit = got.value.data.find(match);
    if (hit) return { ok: true, value: hit };
    if (!got.value.hasMore || got.value.lastId === null) break;
    after = got.value.lastId;
  }
  return { ok: true, value: null };
}

/** Statuses after which a batch changes no more. */
export const TERMINAL_BATCH_STATUSES: readonly Batch['status'][] = ['completed', 'failed', 'expired', 'cancelled'];

/** Whether a batch's status is final ({@link TERMINAL_BATCH_STATUSES}). */
export function isTerminalBatch(batch: Pick<Batch, 'status'>): boolean {
  return TERMINAL_BATCH_STATUSES.includes(batch.status);
}

/** One provider's Batch API. */
export interface BatchClient {
  /** The provider id. */
  readonly provider: string;
  /**
   * Uploads an input file (`purpose=batch`, multipart). `file`: a plan from `planBatchFiles`, or JSONL text.
   * @param filename default `tribunal-batch.jsonl` (the Batch API wants `.jsonl`)
   */
  uploadFile(file: BatchFilePlan | string, filename?: string): Promise<BatchApiResult<FileObject>>;
  /** A file's object. */
  getFile(fileId: string): Promise<BatchApiResult<FileObject>>;
  /**
   * One page of files (`GET /files`; OpenAI's `purpose`, `limit` 1-10,000 default 10,000, `order` by
   * `created_at`, default `desc`, and the `after` cursor).
   */
  listFiles(params?: FileListParams): Promise<BatchApiResult<FilePage>>;
  /**
   * The newest `purpose=batch` file named `filename` of `bytes` bytes, looking through at most `maxPages` pages
   * of 100 (default 5), or null. For recovery after an upload whose answer was lost: the caller names each
   * file for what it holds, so a file of that name and size is that upload.
   */
  findFile(filename: string, bytes: number, maxPages?: number): Promise<BatchApiResult<FileObject | null>>;
  /** Deletes a file (inputs once their batch is created or done; outputs once read). */
  deleteFile(fileId: string): Promise<BatchApiResult<FileDeleted>>;
  /**
   * Creates a batch of an uploaded file on `/v1/chat/completions` with the 24 h window.
   * @param metadata up to 16 pairs (keys ≤ 64 characters, values ≤ 512): name the wave here so a lost answer
   *   can be recovered with {@link findBatch}
   */
  createBatch(inputFileId: string, metadata?: Record<string, string>): Promise<BatchApiResult<Batch>>;
  /** A batch's object: status, `request_counts`, `output_file_id`, `error_file_id`, `errors`. */
  getBatch(batchId: string): Promise<BatchApiResult<Batch>>;
  /** Asks to cancel a batch (`cancelling`, then `cancelled` with partial results). */
  cancelBatch(batchId: string): Promise<BatchApiResult<Batch>>;
  /** One page of batches, newest first. @param limit 1-100, default 20 */
  listBatches(page?: { after?: string; limit?: number }): Promise<BatchApiResult<BatchPage>>;
  /**
   * The newest batch `match` accepts, looking through at most `maxPages` pages of 100 (default 5), or null.
   * For recovery after a `createBatch` whose answer was lost: match on the metadata given to it.
   */
  findBatch(match: (batch: Batch) => boolean, maxPages?: number): Promise<BatchApiResult<Batch | null>>;
  /**
   * An output or error file, streamed: each line's outcome as it arrives (`batch-lines.ts`), never the whole
   * file in memory. A stream that breaks off throws {@link BatchReadError} from the iterator; results are
   * stored by call id, so reading the file again from the start is safe. Iterate to the end (or `break`, which
   * closes it): the request's timer runs until then.
   */
  readFile(fileId: string): Promise<BatchApiResult<AsyncIterable<BatchLineOutcome>>>;
}

/** A result file's stream broke off (network, timeout): read it again. */
export class BatchReadError extends Error {
  override readonly name = 'BatchReadError';
  /** `network` or `timeout`. */
  readonly code: 'network' | 'timeout';
  constructor(code: 'network' | 'timeout', message: string) {
    super(message);
    this.code = code;
  }
}

/** Injectable effects of {@link createBatchClient}; every default is the real thing. */
export interface BatchClientDeps {
  /** fetch used for provider requests. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Clock, ms since epoch (HTTP-date `Retry-After`). Default `Date.now`. */
  now?: () => number;
  /** Answers providers whose base URL is the in-process mock (Node only; see `client.ts`). */
  inProcessMock?: typeof fetch;
}

/**
 * The endpoint of a provider's batches, which its input lines' `url` must equal: `/v1/chat/completions`,
 * or `/chat/completions` for Azure OpenAI (whose examples name it so). Pass it to `batchLine`.
 */
export function batchLineUrl(p: Pick<ProviderSettings, 'azureApiVersion'>): string {
  return p.azureApiVersion !== undefined ? '/chat/completions' : BATCH_ENDPOINT;
}

/** The URL of a Batch API path: OpenAI-compatible, or Azure's `{endpoint}/openai/files?api-version=…`. */
function routeOf(p: ProviderSettings, base: string): (path: string) => string {
  const root = base.replace(/\/+$/, '');
  if (p.azureApiVersion === undefined) return (path) => `${root}${path}`;
  const query = `api-version=${encodeURIComponent(p.azureApiVersion)}`;
  return (path) => `${root}${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * The Batch API client of a provider (default: the settings' default provider). A provider not declared
 * `supportsBatch` gets a client whose every method answers `tier_unsupported` without a request.
 * Per request it waits at most `settings.timeoutMs` (a result file's whole stream included).
 */
export function createBatchClient(
  settingsInput: LlmSettings | LlmSettingsInput,
  providerId?: string,
  deps: BatchClientDeps = {},
): BatchClient {
  const settings = resolveSettings(settingsInput);
  const id = providerId ?? settings.defaultProvider;
  const provider = settings.providers[id];
  const now = deps.now ?? Date.now;
  const redact = settingsRedactor(settings);
  const refused = (code: string, message: string) =>
    Promise.resolve({ ok: false as const, error: { code, message: redact(message), retryable: false } });

  if (!provider || !provider.supportsBatch) {
    const why = provider ? `provider "${id}" does not offer the batch tier` : `unknown provider "${id}"`;
    const code = provider ? 'tier_unsupported' : 'bad_request';
    return {
      provider: id,
      uploadFile: () => refused(code, why),
      getFile: () => refused(code, why),
      listFiles: () => refused(code, why),
      findFile: () => refused(code, why),
      deleteFile: () => refused(code, why),
      createBatch: () => refused(code, why),
      getBatch: () => refused(code, why),
      cancelBatch: () => refused(code, why),
      listBatches: () => refused(code, why),
      findBatch: () => refused(code, why),
      readFile: () => refused(code, why),
    };
  }

  const { fetch: fetchImpl, base } = transportOf(provider, deps);
  const { headers: jsonHeaders } = wireTarget(provider, '');
  const url = routeOf(provider, base);
  const endpoint = batchLineUrl(provider);
  // Multipart sets its own content type (with the boundary).
  const { 'content-type': _json, ...uploadHeaders } = jsonHeaders;

  function failure(f: AttemptFailure): { ok: false; error: BatchApiError } {
    return {
      ok: false,
      error: {
        code: f.error.code,
        message: redact(f.error.message),
        ...(f.error.status !== undefined ? { status: f.error.status } : {}),
        retryable: f.retryable,
        ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
      },
    };
  }

  /** One request with our timeout; `done` clears it (a stream's caller calls it once the stream is read). */
  const sender = () => timedSend(fetchImpl, settings.timeoutMs, now);

  async function requestJson<T>(path: string, init: RequestInit): Promise<BatchApiResult<T>> {
    const { send, done } = sender();
    try {
      const sent = await sendToProvider(id, url(path), init, send);
      if (sent.kind === 'error') return failure(sent);
      try {
        return { ok: true, value: JSON.parse(sent.text) as T };
      } catch (e) {
        return failure({
          kind: 'error',
          attemptKind: 'malformed',
          retryable: true,
          error: {
            code: 'provider_error',
            message: `provider "${id}" sent a malformed body for ${path.split('?')[0] ?? path}: ${e instanceof Error ? e.message : String(e)}`,
          },
        });
      }
    } finally {
      done();
    }
  }

  const get = <T>(path: string) => requestJson<T>(path, { method: 'GET', headers: jsonHeaders });
  const enc = encodeURIComponent;

  const client: BatchClient = {
    provider: id,
    uploadFile(file, filename = 'tribunal-batch.jsonl') {
      const form = new FormData();
      form.append('purpose', 'batch');
      const parts = typeof file === 'string' ? [file] : file.lines;
      form.append('file', new Blob(parts, { type: 'application/jsonl' }), filename);
      return requestJson<FileObject>('/files', { method: 'POST', headers: uploadHeaders, body: form });
    },
    getFile: (fileId) => get<FileObject>(`/files/${enc(fileId)}`),
    listFiles: async (params = {}) => pageOf(await get<RawPage<FileObject>>(`/files${queryOf(params)}`)),
    findFile: (filename, bytes, maxPages = 5) =>
      findInPages(
        (after) =>
          client.listFiles({ purpose: 'batch', limit: 100, order: 'desc', ...(after !== undefined ? { after } : {}) }),
        (f) => f.filename === filename && f.bytes === bytes,
        maxPages,
      ),
    deleteFile: (fileId) =>
      requestJson<FileDeleted>(`/files/${enc(fileId)}`, { method: 'DELETE', headers: jsonHeaders }),
    createBatch(inputFileId, metadata) {
      const body: BatchCreateParams = {
        input_file_id: inputFileId,
        endpoint: endpoint as BatchCreateParams['endpoint'],
        completion_window: '24h',
        ...(metadata ? { metadata } : {}),
      };
      return requestJson<Batch>('/batches', { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
    },
    getBatch: (batchId) => get<Batch>(`/batches/${enc(batchId)}`),
    cancelBatch: (batchId) =>
      requestJson<Batch>(`/batches/${enc(batchId)}/cancel`, { method: 'POST', headers: jsonHeaders }),
    listBatches: async (page = {}) => pageOf(await get<RawPage<Batch>>(`/batches${queryOf(page)}`)),
    findBatch: (match, maxPages = 5) =>
      findInPages(
        (after) => client.listBatches({ limit: 100, ...(after !== undefined ? { after } : {}) }),
        match,
        maxPages,
      ),
    async readFile(fileId) {
      const { send, done } = sender();
      const sent = await sendToProvider(
        id,
        url(`/files/${enc(fileId)}/content`),
        { method: 'GET', headers: jsonHeaders },
        send,
        false,
      );
      if (sent.kind === 'error') {
        done();
        return failure(sent);
      }
      // workerd's types leave the chunk type open; a fetch body's chunks are bytes.
      const body = sent.response.body as ReadableStream<Uint8Array> | null;
      async function* outcomes(): AsyncGenerator<BatchLineOutcome> {
        try {
          if (!body) return;
          for await (const text of jsonlLines(body)) {
            const outcome = readBatchLine(text, id);
            yield outcome.kind === 'error'
              ? { ...outcome, error: { ...outcome.error, message: redact(outcome.error.message) } }
              : outcome;
          }
        } catch (e) {
          const timedOut = send.timedOut();
          throw new BatchReadError(
            timedOut ? 'timeout' : 'network',
            redact(
              timedOut
                ? `provider "${id}" did not finish sending file ${fileId} within ${settings.timeoutMs} ms`
                : `reading file ${fileId} from provider "${id}" broke off: ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
        } finally {
          done();
        }
      }
      return { ok: true, value: outcomes() };
    },
  };
  return client;
}
