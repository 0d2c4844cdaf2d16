/**
 * @module
 * The typed Tribunal client (`import { createTribunalClient } from 'tribunal/client'`). Its types are
 * generated from the API's OpenAPI document (./api-types.ts, `npm run client:types`), which is generated
 * from the same zod route definitions that validate requests: `request()` reaches every route with its
 * path parameters, query, headers and body typed, and answers a union narrowed by `status`, errors
 * included. On top: `submit`, `get`, `transcript`, `cancel`, `events` (the live SSE stream, typed) and
 * `judge` (submit, follow the events to the end, return the evaluation with its verdict), `compare` (submit a
 * comparison with `Prefer: wait`, return it ended with its gate) and `waitForComparison`.
 *
 * Runs wherever `fetch` does (Node 18+, browsers, Workers); no dependency. Example: ./README.md.
 */
import type { components, paths } from './api-types.js';
import type { EvaluationEvent } from '../evaluations/live-events.js';
import { sseBlocks } from './sse.js';
import { backoffDelay } from '../backoff/backoff.js';
import { comparisonHelpers } from './comparisons.js';

export type { components, paths } from './api-types.js';
export type { EvaluationEvent } from '../evaluations/live-events.js';
export { GATE_EXIT_CODES, gateExitCode } from './comparisons.js';
export type { CompareOptions } from './comparisons.js';

/** The API's named schemas (`Task`, `Evaluation`, `VerdictSummary`, `ChatCompletion`, …). */
export type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type CreateEvaluationRequest = Schemas['CreateEvaluationRequest'];
export type EvaluationAccepted = Schemas['EvaluationAccepted'];
export type Evaluation = Schemas['Evaluation'];
/** The verdict without its transcript (the document marks the component itself nullable, as `Evaluation.verdict` is). */
export type VerdictSummary = NonNullable<Schemas['VerdictSummary']>;
export type Transcript = Schemas['Transcript'];
/** The verdict the OpenAI-compatible endpoint puts in the assistant message (JSON text). */
export type JudgeVerdict = Schemas['JudgeVerdict'];
/** `POST /v1/comparisons`'s body, its answer, and `GET /v1/comparisons/{id}` (ranking, pairs, gate, summary). */
export type CreateComparisonRequest = Schemas['CreateComparisonRequest'];
export type ComparisonAccepted = Schemas['ComparisonAccepted'];
export type Comparison = Schemas['Comparison'];
export type GateResult = NonNullable<Schemas['GateResult']>;
/** `POST /v1/chat/completions`'s body, and its answer without `stream`. */
export type ChatCompletionRequest = Schemas['ChatCompletionRequest'];
export type ChatCompletion = Schemas['ChatCompletion'];
/** One chunk of a streamed chat completion (`stream: true`), the shape of the `openai` package's `ChatCompletionChunk`. */
export type ChatCompletionChunk = Schemas['ChatCompletionChunk'];
/** A streamed chat completion as `request()` answers it: its chunks as they arrive. */
export type ChatCompletionStream = AsyncIterable<ChatCompletionChunk>;

/** HTTP methods the API uses. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];
/** The operation at `P` for `M`. */
export type Operation<P extends keyof paths, M extends HttpMethod> = Extract<paths[P][M], { responses: unknown }>;

type Defined<T> = Exclude<T, undefined>;
type IsNever<T> = [T] extends [never] ? true : false;
/** `{ [k]: v }` when `v` is a real (non-never) type, else `{}` (a parameter the route does not take). */
type Field<K extends string, V, Required extends boolean> =
  IsNever<Defined<V>> extends true
    ? { [P in K]?: never }
    : Required extends true
      ? { [P in K]: Defined<V> }
      : { [P in K]?: Defined<V> };
type Parameters_<O> = O extends { parameters: infer P } ? P : never;
type PathOf<O> = Parameters_<O> extends { path?: infer X } ? X : never;
type QueryOf<O> = Parameters_<O> extends { query?: infer X } ? X : never;
type HeaderOf<O> = Parameters_<O> extends { header?: infer X } ? X : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type BodyRequired<O> = O extends { requestBody: unknown } ? true : false;
/** A body with a `stream` switch (OpenAI's convention), set to `S`; any other body as it is. */
type StreamSet<B, S> = B extends unknown ? ('stream' extends keyof B ? Omit<B, 'stream'> & S : B) : never;
/** A body that asks for no stream: `stream` absent, false or null (a plain `boolean` is refused: the answer's type depends on it). */
type Unstreamed<B> = StreamSet<B, { stream?: false | null }>;
/** A body that asks for a stream: `stream: true`. */
type Streamed<B> = StreamSet<B, { stream: true }>;
/** Operations whose JSON body has a `stream` switch (`POST /v1/chat/completions`). */
export type StreamingPaths = {
  [P in PathsWith<'post'>]: 'stream' extends keyof Defined<BodyOf<Operation<P, 'post'>>> ? P : never;
}[PathsWith<'post'>];

/** What `request()` takes for an operation: its typed parameters and body, plus extra headers and a signal. */
export type RequestInput<O, Body = Unstreamed<BodyOf<O>>> = Field<'params', PathOf<O>, true> &
  Field<'query', QueryOf<O>, false> &
  Field<'body', Body, BodyRequired<O>> & {
    /** The route's documented headers (e.g. `Idempotency-Key`) and any other. */
    headers?: (IsNever<Defined<HeaderOf<O>>> extends true ? unknown : Defined<HeaderOf<O>>) &
      Record<string, string | undefined>;
    signal?: AbortSignal;
  };

type Content<R> = R extends { content: infer C } ? C : never;
/** The body at one status: JSON parsed, NDJSON as an async iterator of its lines, nothing as null, else text. */
type BodyType<R> =
  Content<R> extends { 'application/json': infer J }
    ? J
    : Content<R> extends { 'application/x-ndjson': infer L }
      ? AsyncIterable<L>
      : IsNever<Content<R>> extends true
        ? null
        : string;
/**
 * The body at one status of a streamed request: server-sent events as an async iterator of each `data:`
 * line's item (`[DONE]` ends it; an error item is thrown as a {@link TribunalError}, as OpenAI's SDKs do).
 */
type StreamBodyType<R> =
  Content<R> extends { 'text/event-stream': infer E } ? AsyncIterable<Exclude<E, { error: unknown }>> : BodyType<R>;
/** One documented answer: its status, the body's type at that status, and the headers. */
export type ResponseOf<O, Stream extends boolean = false> = O extends { responses: infer R }
  ? {
      [S in keyof R & number]: {
        status: S;
        ok: `${S}` extends `2${string}` ? true : false;
        body: Stream extends true ? StreamBodyType<R[S]> : BodyType<R[S]>;
        headers: Headers;
      };
    }[keyof R & number]
  : never;

/** An answer that is not 2xx, or a helper's failure; `code` is the API's stable error code. */
export class TribunalError extends Error {
  override readonly name = 'TribunalError';
  constructor(
    message: string,
    /** HTTP status (0 for a failure without a response, e.g. a client-side timeout). */
    readonly status: number,
    /** Stable code: the API's `error.code`, or `verdict_timeout` / `evaluation_failed` / `evaluation_cancelled` / `comparison_timeout` from the helpers. */
    readonly code: string,
    /** The error body, or the evaluation that did not succeed. */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** Options of {@link createTribunalClient}. */
export interface TribunalClientOptions {
  /** The deployment's origin, e.g. `https://tribunal.example.com` (no trailing `/v1`). */
  baseUrl: string;
  /** Bearer token; leave out for a deployment without `API_KEYS`. */
  apiKey?: string | undefined;
  /** `fetch` to use; default the global one. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** Options of the helpers that wait. */
export interface WaitOptions {
  /** Give up after this many ms (a {@link TribunalError} `verdict_timeout`; the evaluation keeps running). Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** An evaluation that succeeded: its verdict is set. */
export type JudgedEvaluation = Evaluation & { status: 'succeeded'; verdict: VerdictSummary };

/** A {@link TribunalError} from an error answer (`{ error: { code, message } }` in either of the API's shapes). */
function errorOf(status: number, body: unknown): TribunalError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  return new TribunalError(error?.message ?? `HTTP ${status}`, status, error?.code ?? 'http_error', body);
}

/** The media type of a `Content-Type` header, lower-cased, without parameters. */
function mediaTypeOf(header: string | null): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** `application/json` or a `+json` type: parsed as JSON. (Not NDJSON, nor anything merely containing "json".) */
function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * An NDJSON body as an async iterator of its parsed lines, read as they arrive (blank lines skipped).
 * A line that is not JSON throws a {@link TribunalError} `invalid_ndjson` naming its number.
 */
async function* ndjsonLines(res: Response): AsyncGenerator<unknown, void, undefined> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let line = 0;
  const parse = (text: string): unknown => {
    line += 1;
    try {
      return JSON.parse(text);
    } catch {
      throw new TribunalError(`line ${line} of the NDJSON body is not JSON`, res.status, 'invalid_ndjson', text);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value !== undefined) buffered += value;
      const lines = buffered.split('\n');
      buffered = done ? '' : (lines.pop() ?? '');
      for (const text of lines) {
        if (text.trim() === '') line += 1;
        else yield parse(text);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A server-sent event stream as an async iterator of each event's `data`, parsed as JSON, read as it
 * arrives: comments (keep-alives) skipped, `data: [DONE]` ends it, and an item `{ "error": {…} }` (how a
 * stream that ends without its answer says why) is thrown as a {@link TribunalError} with its code.
 */
async function* sseItems(res: Response): AsyncGenerator<unknown, void, undefined> {
  if (!res.body) return;
  // Typed `ReadableStream<any>` by the Worker runtime types; a fetch body is bytes everywhere.
  for await (const block of sseBlocks(res.body as ReadableStream<Uint8Array>)) {
    if (block.data === '') continue;
    if (block.data === '[DONE]') return;
    let item: unknown;
    try {
      item = JSON.parse(block.data);
    } catch {
      throw new TribunalError('an event of the stream is not JSON', res.status, 'invalid_sse', block.data);
    }
    if (typeof item === 'object' && item !== null && 'error' in item) throw errorOf(res.status, item);
    yield item;
  }
}

/** Whether a JSON request body asks for a stream (`stream: true`). */
function asksStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

const TERMINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);
const DEFAULT_TIMEOUT_MS = 600_000;

/** Creates a client for one deployment. */
export function createTribunalClient(options: TribunalClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const given = options.fetch;
  /**
   * Sends `r`. The global fetch also gets the caller's `signal` itself: Node's fetch (undici) links a
   * Request's signal to the one it was built with only through a weak reference, so once `r` is collected a
   * caller's abort (a timeout, `wait` closing the event stream) would no longer reach the request.
   */
  const doFetch = (r: Request, signal: AbortSignal | undefined): Promise<Response> =>
    given ? given(r) : fetch(r, signal ? { signal } : {});

  function headersOf(extra: Record<string, string | undefined> | undefined): Headers {
    const h = new Headers(options.headers);
    if (options.apiKey) h.set('Authorization', `Bearer ${options.apiKey}`);
    for (const [k, v] of Object.entries(extra ?? {})) if (v !== undefined) h.set(k, v);
    return h;
  }

  /**
   * Any route, typed from the OpenAPI document: `request('get', '/v1/evaluations/{id}', { params: { id } })`.
   * Resolves with every documented status (narrow on `status`); rejects only when no answer came. The body
   * is parsed JSON for a JSON media type, an async iterator of parsed lines for NDJSON
   * (`application/x-ndjson`, e.g. `GET /v1/batches/{id}/results`: `for await (const line of res.body)`),
   * null for 204, and text otherwise. A body with `stream: true` (`POST /v1/chat/completions`) answers
   * server-sent events: an async iterator of the typed chunks ({@link ChatCompletionStream}), which throws a
   * {@link TribunalError} with the API's code when the stream ends in an error (e.g. `verdict_timeout`).
   */
  function request<P extends StreamingPaths>(
    method: 'post',
    path: P,
    input: RequestInput<Operation<P, 'post'>, Streamed<BodyOf<Operation<P, 'post'>>>>,
  ): Promise<ResponseOf<Operation<P, 'post'>, true>>;
  function request<M extends HttpMethod, P extends PathsWith<M>>(
    method: M,
    path: P,
    input: RequestInput<Operation<P, M>>,
  ): Promise<ResponseOf<Operation<P, M>>>;
  async function request(
    method: HttpMethod,
    path: string,
    input: object,
  ): Promise<{ status: number; ok: boolean; body: unknown; headers: Headers }> {
    const { params, query, body, headers, signal } = input as {
      params?: Record<string, string>;
      query?: Record<string, string | number | boolean>;
      body?: unknown;
      headers?: Record<string, string | undefined>;
      signal?: AbortSignal;
    };
    let url = `${base}${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''))}`;
    const search = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
    if ([...search].length > 0) url += `?${search.toString()}`;
    const h = headersOf(headers);
    if (body !== undefined) h.set('Content-Type', 'application/json');
    const res = await doFetch(
      new Request(url, {
        method: method.toUpperCase(),
        headers: h,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      }),
      signal,
    );
    const type = mediaTypeOf(res.headers.get('Content-Type'));
    const parsed: unknown =
      res.status === 204
        ? null
        : type === 'application/x-ndjson'
          ? ndjsonLines(res)
          : type === 'text/event-stream' && asksStream(body)
            ? sseItems(res)
            : isJsonType(type)
              ? await res.json()
              : await res.text();
    return { status: res.status, ok: res.ok, body: parsed, headers: res.headers };
  }

  /** The body of a 2xx answer, or a {@link TribunalError} with the API's code. */
  function ok<R extends { ok: boolean; status: number; body: unknown }>(res: R): Extract<R, { ok: true }>['body'] {
    if (res.ok) return res.body;
    throw errorOf(res.status, res.body);
  }

  /** Submits an evaluation (202); the same `idempotencyKey` makes a retry return the same evaluation. */
  async function submit(
    req: CreateEvaluationRequest,
    opts: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<EvaluationAccepted> {
    const headers = opts.idempotencyKey !== undefined ? { 'Idempotency-Key': opts.idempotencyKey } : {};
    return ok(
      await request('post', '/v1/evaluations', { body: req, headers, ...(opts.signal ? { signal: opts.signal } : {}) }),
    );
  }

  /** The evaluation as it stands. */
  async function get(id: string): Promise<Evaluation> {
    return ok(await request('get', '/v1/evaluations/{id}', { params: { id } }));
  }

  /** Every stored reply; `complete` once the evaluation ended. */
  async function transcript(id: string): Promise<Transcript> {
    return ok(await request('get', '/v1/evaluations/{id}/transcript', { params: { id } }));
  }

  /** Cancels (calls in flight are still billed). */
  async function cancel(id: string, reason?: string): Promise<Schemas['CancelResponse']> {
    return ok(
      await request('post', '/v1/evaluations/{id}/cancel', {
        params: { id },
        body: reason !== undefined ? { reason } : {},
      }),
    );
  }

  /**
   * The live events of an evaluation (everything so far first, then as it happens); ends after the
   * terminal `status` event, or when the server closes the stream.
   */
  async function* events(id: string, opts: { signal?: AbortSignal } = {}): AsyncGenerator<EvaluationEvent> {
    const res = await doFetch(
      new Request(`${base}/v1/evaluations/${encodeURIComponent(id)}/events`, {
        headers: headersOf({ Accept: 'text/event-stream' }),
        ...(opts.signal ? { signal: opts.signal } : {}),
      }),
      opts.signal,
    );
    if (!res.ok || !res.body) throw errorOf(res.status, await res.json().catch(() => null));
    // Typed `ReadableStream<any>` by the Worker runtime types; a fetch body is bytes everywhere.
    for await (const block of sseBlocks(res.body as ReadableStream<Uint8Array>)) {
      if (block.event === null || block.data === '') continue;
      // The server's own encoding: `event` names the type, `data` is its JSON.
      yield { type: block.event, data: JSON.parse(block.data) as unknown } as EvaluationEvent;
    }
  }

  /**
   * Waits for the evaluation to end (following its events; a dropped stream is reopened) and returns it.
   * @throws TribunalError `verdict_timeout` after `timeoutMs` (default 10 min)
   */
  async function waitForEnd(id: string, opts: WaitOptions = {}): Promise<Evaluation> {
    const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const abort = new AbortController();
    const stop = () => {
      abort.abort();
    };
    opts.signal?.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, Math.max(0, deadline - Date.now()));
    try {
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        try {
          for await (const e of events(id, { signal: abort.signal })) {
            if (e.type === 'status' && TERMINAL.has(e.data.status)) return await get(id);
          }
        } catch (err) {
          if (abort.signal.aborted) break;
          if (err instanceof TribunalError && err.status < 500) throw err;
        }
        // The stream ended early: the evaluation may have ended meanwhile.
        const now = await get(id);
        if (TERMINAL.has(now.status)) return now;
        await new Promise((r) => setTimeout(r, backoffDelay(attempt + 1, { base: 50, max: 1_000 })));
      }
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stop);
    }
    if (opts.signal?.aborted) throw new TribunalError('aborted', 0, 'aborted');
    throw new TribunalError(
      `evaluation ${id} did not end within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms; it keeps running`,
      0,
      'verdict_timeout',
      { evaluationId: id },
    );
  }

  /**
   * Submits and waits for the verdict.
   * @throws TribunalError `evaluation_failed` / `evaluation_cancelled` (the evaluation in `body`), `verdict_timeout`, or the API's code
   */
  async function judge(
    req: CreateEvaluationRequest,
    opts: WaitOptions & { idempotencyKey?: string } = {},
  ): Promise<JudgedEvaluation> {
    const accepted = await submit(req, opts);
    const evaluation = await waitForEnd(accepted.id, opts);
    if (evaluation.status === 'succeeded' && evaluation.verdict) return evaluation as JudgedEvaluation;
    const code = evaluation.status === 'cancelled' ? 'evaluation_cancelled' : 'evaluation_failed';
    throw new TribunalError(
      `evaluation ${evaluation.id} ${evaluation.status}: ${evaluation.error?.message ?? 'no verdict'}`,
      0,
      code,
      evaluation,
    );
  }

  const { compare, waitForComparison } = comparisonHelpers({
    post: (body, headers, signal) =>
      request('post', '/v1/comparisons', { body, headers, ...(signal ? { signal } : {}) }),
    get: (id, signal) => request('get', '/v1/comparisons/{id}', { params: { id }, ...(signal ? { signal } : {}) }),
    error: errorOf,
    timeout: (message, id) => new TribunalError(message, 0, 'comparison_timeout', { comparisonId: id }),
  });

  return { request, ok, submit, get, transcript, cancel, events, waitForEnd, judge, compare, waitForComparison };
}

/** A client made by {@link createTribunalClient}. */
export type TribunalClient = ReturnType<typeof createTribunalClient>;
