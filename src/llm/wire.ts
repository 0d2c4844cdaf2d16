/**
 * @module
 * One chat-completions attempt on the OpenAI wire format, with `fetch` and nothing else: the URL and
 * headers of a provider (OpenAI-compatible or Azure OpenAI), the JSON body, and the answer read into an
 * {@link AttemptOutcome}. Why not the `openai` SDK: per request it builds and merges header sets, formats
 * debug details and wraps the response; in workerd that cost ~20% of the isolate's CPU per single-call
 * evaluation (BENCHMARKS.md), for features this client turns off (its retries, its timeout, its
 * logging). The wire is the contract: `tests/llm/client.test.ts` checks paths, headers and bodies.
 */
import type { HeaderLookup } from './retry.js';
import { retryAfterMs } from './retry.js';
import type { AttemptFailure, AttemptOutcome } from './outcome.js';
import { readCompletion } from './outcome.js';
import type { ProviderSettings } from './settings.js';
import { rejectsJsonSchema } from './structured.js';

/** Where and how one provider's requests go; the URL depends on the model only for Azure. */
export interface WireTarget {
  /** The chat-completions URL for `model`. */
  url(model: string): string;
  /** Headers of every request (content type, auth, the provider's own). */
  headers: Record<string, string>;
}

/** Longest part of a non-JSON error body quoted in a message, characters. */
const QUOTED_BODY_CHARS = 300;

/**
 * The target of provider settings `p` served at `baseUrl` (the settings' own, or a placeholder for the
 * in-process mock). OpenAI-compatible: `{baseUrl}/chat/completions`, `Authorization: Bearer` when a key is
 * set. Azure (`azureApiVersion`): `{baseUrl}/deployments/{model}/chat/completions?api-version=…` (unless
 * the base URL already names a deployment) and the key in `api-key`, as Azure's REST API and the SDK's
 * `AzureOpenAI` send them. `p.headers` come last and may override any default here (each attempt then adds its
 * call id and retry count on top, src/llm/send-attempt.ts).
 */
export function wireTarget(p: ProviderSettings, baseUrl: string): WireTarget {
  const base = baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (p.azureApiVersion !== undefined) {
    if (p.apiKey !== undefined) headers['api-key'] = p.apiKey;
    const query = `api-version=${encodeURIComponent(p.azureApiVersion)}`;
    const named = base.includes('/deployments');
    return {
      url: (model) =>
        named
          ? `${base}/chat/completions?${query}`
          : `${base}/deployments/${encodeURIComponent(model)}/chat/completions?${query}`,
      headers: { ...headers, ...p.headers },
    };
  }
  if (p.apiKey !== undefined) headers.authorization = `Bearer ${p.apiKey}`;
  const url = `${base}/chat/completions`;
  return { url: () => url, headers: { ...headers, ...p.headers } };
}

/** How one attempt is sent: the fetch to use, our timeout's signal, and whether that timer fired. */
export interface WireSend {
  fetch: typeof fetch;
  signal: AbortSignal;
  /** True once our own timer aborted the attempt (reported as a timeout, not a network error). */
  timedOut: () => boolean;
  timeoutMs: number;
  /** Clock for an HTTP-date `Retry-After`, ms since epoch. */
  now: () => number;
}

/**
 * A {@link WireSend} over `fetchImpl` whose signal aborts after `timeoutMs` (ms), reported as our timeout; `done`
 * clears the timer (call it once the answer is read, a stream's included).
 * @param now the clock for an HTTP-date `Retry-After`, ms since epoch
 */
export function timedSend(
  fetchImpl: typeof fetch,
  timeoutMs: number,
  now: () => number,
): { send: WireSend; done: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  return {
    send: { fetch: fetchImpl, signal: controller.signal, timedOut: () => timedOut, timeoutMs, now },
    done: () => {
      clearTimeout(timer);
    },
  };
}

/**
 * The provider's message out of an error body: `error.message` (with `error.code` and `error.param` when
 * strings), `error` as text, `message`, else the text itself.
 */
export function errorBodyMessage(text: string): { message: string; code?: string; param?: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const quoted = text.trim().slice(0, QUOTED_BODY_CHARS);
    return { message: quoted === '' ? 'no body' : quoted };
  }
  if (typeof body === 'object' && body !== null) {
    const rec = body as { error?: unknown; message?: unknown };
    const err = rec.error;
    if (typeof err === 'object' && err !== null) {
      const e = err as { message?: unknown; code?: unknown; param?: unknown };
      if (typeof e.message === 'string' && e.message !== '')
        return {
          message: e.message,
          ...(typeof e.code === 'string' ? { code: e.code } : {}),
          ...(typeof e.param === 'string' ? { param: e.param } : {}),
        };
    }
    if (typeof err === 'string' && err !== '') return { message: err };
    if (typeof rec.message === 'string' && rec.message !== '') return { message: rec.message };
  }
  return { message: text.trim().slice(0, QUOTED_BODY_CHARS) };
}

/**
 * The failure of an answer with a non-2xx status: its stable code and retryability ({@link statusCode}),
 * the provider's message, code and param, a `Retry-After` wait when given. Also reads a batch line's
 * 4xx/5xx `response` (no headers there).
 */
export function httpFailure(
  providerId: string,
  status: number,
  headers: HeaderLookup | undefined,
  text: string,
  now: number,
): AttemptFailure {
  const { message, code: providerCode, param: providerParam } = errorBodyMessage(text);
  const { code, retryable } = statusCode(status);
  // OpenAI answers 429 for exhausted credit too; waiting does not help there.
  const quota =
    status === 429 &&
    (providerCode === 'insufficient_quota' || /insufficient.quota|exceeded your current quota/i.test(message));
  const wait = retryAfterMs(headers, now);
  return {
    kind: 'error',
    attemptKind: 'http',
    retryable: retryable && !quota,
    schemaRejected: rejectsJsonSchema(status, message),
    error: { code, status, message: `provider "${providerId}" returned HTTP ${status}: ${message}` },
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
    ...(providerCode !== undefined || providerParam !== undefined
      ? {
          provider: {
            ...(providerCode !== undefined ? { code: providerCode } : {}),
            ...(providerParam !== undefined ? { param: providerParam } : {}),
          },
        }
      : {}),
  };
}

/** Stable code and retryability of an HTTP status. */
export function statusCode(status: number): { code: string; retryable: boolean } {
  if (status === 429) return { code: 'rate_limited', retryable: true };
  if (status === 408) return { code: 'timeout', retryable: true };
  // 409: OpenAI documents it as a transient lock conflict (its SDK retries it too).
  if (status === 409) return { code: 'provider_error', retryable: true };
  if (status >= 500) return { code: 'provider_error', retryable: true };
  if (status === 401 || status === 403) return { code: 'auth', retryable: false };
  if (status === 404) return { code: 'not_found', retryable: false };
  return { code: 'bad_request', retryable: false };
}

/**
 * Sends one HTTP request to a provider and reads the answer: its 2xx response (body unread when `read` is
 * false, for streaming), or a failure classified as chat completions' are — a non-2xx status
 * ({@link httpFailure}), our timeout, a network error. Never throws.
 */
export async function sendToProvider(
  providerId: string,
  url: string,
  init: RequestInit,
  send: WireSend,
  read = true,
): Promise<{ kind: 'ok'; response: Response; text: string } | AttemptFailure> {
  let text = '';
  let response: Response;
  try {
    response = await send.fetch(url, { ...init, signal: send.signal });
    if (read || !response.ok) text = await response.text();
  } catch (e) {
    if (send.timedOut()) {
      return {
        kind: 'error',
        attemptKind: 'timeout',
        retryable: true,
        error: { code: 'timeout', message: `provider "${providerId}" gave no reply within ${send.timeoutMs} ms` },
      };
    }
    const msg = e instanceof Error ? e.message : String(e);
    return {
      kind: 'error',
      attemptKind: 'network',
      retryable: true,
      error: { code: 'network', message: `cannot reach provider "${providerId}": ${msg}` },
    };
  }
  if (!response.ok) return httpFailure(providerId, response.status, response.headers, text, send.now());
  return { kind: 'ok', response, text };
}

/**
 * Sends one chat-completions request and reads the answer: a reply (see `readCompletion`), or a failure
 * classified as `outcome.ts` describes — HTTP status, our timeout, a network error, a body that is not JSON.
 * Never throws.
 * @param wanted choices asked for (`n`), default 1
 */
export async function sendChatCompletion(
  providerId: string,
  target: WireTarget,
  model: string,
  body: object,
  send: WireSend,
  wanted = 1,
): Promise<AttemptOutcome> {
  return sendJson(providerId, target.url(model), target.headers, body, send, (parsed) =>
    readCompletion(parsed, providerId, model, wanted),
  );
}

/**
 * POSTs `body` as JSON to a provider and hands the parsed answer to `read` (which checks its shape); a failure
 * is classified as `outcome.ts` describes (HTTP status, our timeout, a network error, a body that is not
 * JSON). Never throws.
 */
export async function sendJson<T>(
  providerId: string,
  url: string,
  headers: Record<string, string>,
  body: object,
  send: WireSend,
  read: (parsed: unknown) => T | AttemptFailure,
): Promise<T | AttemptFailure> {
  const sent = await sendToProvider(providerId, url, { method: 'POST', headers, body: JSON.stringify(body) }, send);
  if (sent.kind === 'error') return sent;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sent.text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      kind: 'error',
      attemptKind: 'malformed',
      retryable: true,
      error: { code: 'provider_error', message: `provider "${providerId}" sent a malformed response body: ${why}` },
    };
  }
  return read(parsed);
}
