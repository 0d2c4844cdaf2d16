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
 * Runs wherever `fetch` does (Node 18+, browsers, Workers); the code its entry loads imports no package (its
 * declarations name zod's types, the package's one dependency). Example: ./README.md.
 */
import type { components } from './api-types.js';
import { sseBlocks } from './sse.js';
import type { EvaluationEvent } from '../evaluations/live-events.js';
import { asksStream, isJsonType, mediaTypeOf, ndjsonLines, sseItems } from './bodies.js';
import { errorOf, TribunalError } from './errors.js';
import type {
  BodyOf,
  HttpMethod,
  Operation,
  PathsWith,
  RequestInput,
  ResponseOf,
  Streamed,
  StreamingPaths,
} from './typed-request.js';
import { backoffDelay } from '../backoff/backoff.js';
import { comparisonHelpers } from './comparisons.js';

export type { components, paths } from './api-types.js';
export type { EvaluationEvent } from '../evaluations/live-events.js';
export { GATE_EXIT_CODES, gateExitCode } from './comparisons.js';
export type { CompareOptions } from './comparisons.js';
export { TribunalError } from './errors.js';
export type { HttpMethod, Operation, PathsWith, RequestInput, ResponseOf, StreamingPaths } from './typed-request.js';

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
  /**
   * Give up after this many milliseconds, not seconds (`npm run gate -- --timeout` takes seconds): a
   * {@link TribunalError} `verdict_timeout` whose message gives the bound in seconds and as `timeoutMs`; the evaluation
   * keeps running. Default 600,000 (10 minutes).
   */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** An evaluation that succeeded: its verdict is set. */
export type JudgedEvaluation = Evaluation & { status: 'succeeded'; verdict: VerdictSummary };

const TERMINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** A wait's bound as a timeout names it: in seconds, with the option's own value in ms (`600 s (timeoutMs 600000)`). */
function waitedFor(timeoutMs: number): string {
  return `${String(timeoutMs / 1000)} s (timeoutMs ${String(timeoutMs)})`;
}
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
      `evaluation ${id} did not end within ${waitedFor(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)}; it keeps running`,
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
