/**
 * @module
 * The LLM client: one {@link LlmFunction} over any OpenAI-compatible chat-completions endpoint
 * (OpenAI, Azure OpenAI, OpenRouter, Groq, Together, vLLM, Ollama, Cloudflare AI Gateway's compat
 * endpoint, our mock), built on the `openai` SDK with the SDK's own retries off so that every attempt
 * is ours to count, time out and report.
 *
 * Per request: the provider (`request.provider`, else the default) and model (`request.model`, else the
 * default) are chosen, so agents of one debate can use different models and providers. Provider
 * trouble never throws: it ends in `{ ok: false, error: { code, message, status } }` after the retry
 * policy. Runs in workerd and Node (no Node-only imports).
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, AzureOpenAI } from 'openai';
import type { LlmCallRequest, LlmCallResult, LlmError, LlmFunction } from '../engine/call.js';
import { createMockState, handleMockRequest } from './mock/handler.js';
import type { MockState } from './mock/handler.js';
import type { PriceTable } from './pricing.js';
import { DEFAULT_PRICES, priceFor } from './pricing.js';
import type { HeaderLookup } from './retry.js';
import { backoffDelayMs, retryAfterMs } from './retry.js';
import type { LlmSettings, LlmSettingsInput, ProviderSettings } from './settings.js';
import { IN_PROCESS_MOCK_URL, resolveSettings } from './settings.js';
import { rejectsJsonSchema, responseFormatFor } from './structured.js';
import type { JsonSchemaResponseFormat } from './structured.js';
import type { ProviderUsage } from './usage.js';
import { usageOf } from './usage.js';

/** What {@link LlmDeps.onAttempt} reports after each attempt (for logs, metrics and tests). */
export interface AttemptInfo {
  /** The request id. */
  id: string;
  provider: string;
  model: string;
  /** 1-based attempt number. */
  attempt: number;
  ok: boolean;
  /** Error code when the attempt failed. */
  code?: string;
  /** HTTP status when there was one. */
  status?: number;
  /** Whether the attempt asked for `json_schema` structured output. */
  structured: boolean;
  /** Duration of this attempt, ms. */
  latencyMs: number;
  /** Wait before the next attempt, ms (absent when none follows). */
  delayMs?: number;
}

/** Injectable effects; every default is the real thing. */
export interface LlmDeps {
  /** fetch used by the SDK. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Waits between attempts. Default: a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform [0, 1) source for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Clock in ms since epoch, for latency and HTTP-date `Retry-After`. Default `Date.now`. */
  now?: () => number;
  /** Called after every attempt. Must not throw. */
  onAttempt?: (info: AttemptInfo) => void;
  /** State of the in-process mock (provider base URL {@link IN_PROCESS_MOCK_URL}); default: a fresh one per client. */
  mockState?: MockState;
}

/** The outcome of one HTTP attempt. */
type AttemptOutcome =
  | { kind: 'reply'; content: string; model: string; usage: ProviderUsage | null | undefined }
  | { kind: 'error'; error: LlmError; retryable: boolean; retryAfterMs?: number; schemaRejected?: boolean };

/** Placeholder base URL under which the in-process mock is served (never resolved by DNS). */
const IN_PROCESS_BASE = 'http://in-process.mock.invalid/v1';

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The provider's own message out of an SDK error (`error.message` of the JSON body, else the SDK's text). */
function providerMessage(e: { readonly error: unknown; readonly message: string }): string {
  const body = e.error;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message !== '') return body.message;
  return e.message;
}

function statusCode(status: number): { code: string; retryable: boolean } {
  if (status === 429) return { code: 'rate_limited', retryable: true };
  if (status === 408) return { code: 'timeout', retryable: true };
  // 409: OpenAI documents it as a transient lock conflict; the SDK retries it too.
  if (status === 409) return { code: 'provider_error', retryable: true };
  if (status >= 500) return { code: 'provider_error', retryable: true };
  if (status === 401 || status === 403) return { code: 'auth', retryable: false };
  if (status === 404) return { code: 'not_found', retryable: false };
  return { code: 'bad_request', retryable: false };
}

/** Maps anything a call threw to an attempt outcome. `timedOut` is set when our own timer aborted it. */
function classify(e: unknown, providerId: string, timeoutMs: number, timedOut: boolean, now: number): AttemptOutcome {
  if (timedOut || e instanceof APIConnectionTimeoutError) {
    return { kind: 'error', retryable: true, error: { code: 'timeout', message: `provider "${providerId}" gave no reply within ${timeoutMs} ms` } };
  }
  if (e instanceof APIUserAbortError) {
    return { kind: 'error', retryable: true, error: { code: 'network', message: `request to provider "${providerId}" was aborted` } };
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    const status = e.status;
    const msg = providerMessage(e);
    const { code, retryable } = statusCode(status);
    // OpenAI answers 429 for exhausted credit too; waiting does not help there.
    const quota = status === 429 && (e.code === 'insufficient_quota' || /insufficient.quota|exceeded your current quota/i.test(msg));
    return {
      kind: 'error',
      retryable: retryable && !quota,
      schemaRejected: rejectsJsonSchema(status, msg),
      error: { code, status, message: `provider "${providerId}" returned HTTP ${status}: ${msg}` },
      ...(() => {
        const ra = retryAfterMs(e.headers as HeaderLookup | undefined, now);
        return ra === undefined ? {} : { retryAfterMs: ra };
      })(),
    };
  }
  if (e instanceof APIError) {
    // APIConnectionError: DNS, TLS, reset connections; the cause holds the detail.
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { kind: 'error', retryable: true, error: { code: 'network', message: `cannot reach provider "${providerId}": ${e.message}${cause}` } };
  }
  if (e instanceof SyntaxError) {
    return { kind: 'error', retryable: true, error: { code: 'provider_error', message: `provider "${providerId}" sent a malformed response body: ${e.message}` } };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return { kind: 'error', retryable: true, error: { code: 'network', message: `call to provider "${providerId}" failed: ${msg}` } };
}

/** Reads the reply out of a completion body, checking its shape (the body may be anything). */
function readCompletion(body: unknown, providerId: string, fallbackModel: string): AttemptOutcome {
  const malformed = (why: string): AttemptOutcome => ({
    kind: 'error',
    retryable: true,
    error: { code: 'provider_error', message: `provider "${providerId}" sent a malformed completion: ${why}` },
  });
  if (typeof body !== 'object' || body === null) return malformed('the body is not a JSON object');
  const rec = body as { choices?: unknown; model?: unknown; usage?: unknown };
  if (!Array.isArray(rec.choices) || rec.choices.length === 0) return malformed('no choices');
  const first = rec.choices[0] as { message?: { content?: unknown; refusal?: unknown } | null } | undefined;
  const message = first?.message;
  if (typeof message !== 'object' || message === null) return malformed('the first choice has no message');
  // A refusal is still a reply: the parser rejects it and the protocol's repair turn takes over.
  const text = typeof message.content === 'string' ? message.content : typeof message.refusal === 'string' ? message.refusal : '';
  if (text.trim() === '') {
    return { kind: 'error', retryable: true, error: { code: 'empty_reply', message: `provider "${providerId}" returned an empty reply` } };
  }
  return {
    kind: 'reply',
    content: text,
    model: typeof rec.model === 'string' && rec.model !== '' ? rec.model : fallbackModel,
    usage: typeof rec.usage === 'object' ? (rec.usage) : undefined,
  };
}

/**
 * Creates the LLM function.
 *
 * Behaviour per call (defaults from {@link LlmSettings}):
 * - each attempt is aborted after `timeoutMs` (default 60 s) through an AbortSignal;
 * - 429, 408, 409, 5xx, network errors, timeouts, malformed bodies and empty replies are retried up to
 *   `retry.maxAttempts` attempts in all (default 5), empty replies at most `retry.maxEmptyRetries` times;
 *   the wait is the provider's `retry-after-ms` / `Retry-After` when given (a wait above
 *   `retry.maxRetryAfterMs` ends the call instead), else full-jitter exponential backoff;
 * - 400, 401, 403, 404 and other 4xx end the call at once, quoting the provider's message;
 * - `json` parsers send `response_format: json_schema` where the provider supports it; a 400 that
 *   rejects it is retried once without, and that provider+model is remembered as text-only for the
 *   life of this function (one isolate).
 * The result carries `attempts` (HTTP attempts made) and, on success, `latencyMs` (wall time incl. waits).
 */
export function createLlm(settingsInput: LlmSettings | LlmSettingsInput, deps: LlmDeps = {}): LlmFunction {
  const settings = resolveSettings(settingsInput);
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const prices: PriceTable = { ...DEFAULT_PRICES, ...settings.prices };
  const clients = new Map<string, OpenAI>();
  /** `provider\u0000model` pairs that rejected json_schema: later calls go straight to text. */
  const noJsonSchema = new Set<string>();
  let mockState: MockState | undefined = deps.mockState;

  function clientFor(providerId: string, p: ProviderSettings): OpenAI {
    const cached = clients.get(providerId);
    if (cached) return cached;
    const inProcess = p.baseUrl === IN_PROCESS_MOCK_URL;
    let fetchImpl: typeof fetch | undefined = deps.fetch;
    if (inProcess) {
      const state = (mockState ??= createMockState());
      fetchImpl = async (input, init) => handleMockRequest(new Request(input, init), { state });
    }
    const common = {
      baseURL: inProcess ? IN_PROCESS_BASE : p.baseUrl,
      // The SDK refuses to start without a key; keyless endpoints (Ollama, vLLM, the mock) get a dummy.
      apiKey: p.apiKey ?? 'no-key',
      // Our loop counts, times and reports attempts; SDK retries would hide them.
      maxRetries: 0,
      defaultHeaders: p.headers,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
      // Workers are not browsers, but the SDK's browser heuristics must not block it there.
      dangerouslyAllowBrowser: true,
      logLevel: 'off' as const,
    };
    const client = p.azureApiVersion ? new AzureOpenAI({ ...common, apiVersion: p.azureApiVersion }) : new OpenAI(common);
    clients.set(providerId, client);
    return client;
  }

  async function attemptOnce(
    client: OpenAI,
    providerId: string,
    request: LlmCallRequest,
    model: string,
    format: JsonSchemaResponseFormat | undefined,
  ): Promise<AttemptOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    try {
      const body = await client.chat.completions.create(
        {
          model,
          messages: request.messages.map((m) => (m.name ? { role: m.role, content: m.content, name: m.name } : { role: m.role, content: m.content })),
          temperature: request.temperature,
          // Kept over its successor `max_completion_tokens`: this client serves any OpenAI-compatible endpoint,
          // and not all of them (e.g. older Azure API versions, Ollama, vLLM releases) honour the newer field,
          // so switching would silently drop the limit there. The mock ignores both.
          // eslint-disable-next-line @typescript-eslint/no-deprecated -- wire compatibility with non-OpenAI providers, see above
          max_tokens: request.maxTokens,
          ...(format ? { response_format: format } : {}),
        },
        // The SDK's own timeout is a backstop only: our signal fires first and is what we report.
        { signal: controller.signal, timeout: settings.timeoutMs + 5_000, maxRetries: 0 },
      );
      return readCompletion(body, providerId, model);
    } catch (e) {
      return classify(e, providerId, settings.timeoutMs, timedOut, now());
    } finally {
      clearTimeout(timer);
    }
  }

  return async function llm(request: LlmCallRequest): Promise<LlmCallResult> {
    const started = now();
    const providerId = request.provider ?? settings.defaultProvider;
    const provider = settings.providers[providerId];
    if (!provider) {
      return {
        id: request.id,
        ok: false,
        attempts: 0,
        error: { code: 'bad_request', message: `unknown provider "${providerId}"; configured: ${Object.keys(settings.providers).join(', ')}` },
      };
    }
    const model = request.model ?? settings.defaultModel;
    const client = clientFor(providerId, provider);
    const schemaKey = `${providerId}\u0000${model}`;
    const parser = request.parser;
    let format =
      parser.type === 'json' && provider.supportsJsonSchema && !noJsonSchema.has(schemaKey) ? responseFormatFor(parser) : undefined;

    const policy = settings.retry;
    let attempts = 0;
    let retriesUsed = 0;
    let empties = 0;
    for (;;) {
      attempts += 1;
      const t0 = now();
      const out = await attemptOnce(client, providerId, request, model, format);
      const latencyMs = now() - t0;
      const report = (extra: Partial<AttemptInfo>) =>
        deps.onAttempt?.({ id: request.id, provider: providerId, model, attempt: attempts, structured: format !== undefined, latencyMs, ok: false, ...extra });

      if (out.kind === 'reply') {
        report({ ok: true });
        return {
          id: request.id,
          ok: true,
          content: out.content,
          model: out.model,
          usage: usageOf(out.usage, request.messages, out.content, priceFor(model, providerId, prices)),
          attempts,
          latencyMs: now() - started,
        };
      }

      const { error } = out;
      const failed = (): LlmCallResult => ({ id: request.id, ok: false, error, attempts });
      const status = error.status !== undefined ? { status: error.status } : {};

      // Structured output refused: one immediate retry as plain text, not counted against the retry budget.
      if (out.schemaRejected && format) {
        noJsonSchema.add(schemaKey);
        format = undefined;
        report({ code: error.code, ...status, delayMs: 0 });
        continue;
      }
      if (error.code === 'empty_reply') empties += 1;
      const exhausted =
        !out.retryable ||
        retriesUsed + 1 >= policy.maxAttempts ||
        (error.code === 'empty_reply' && empties > policy.maxEmptyRetries);
      if (exhausted) {
        report({ code: error.code, ...status });
        return failed();
      }
      let delayMs: number;
      if (out.retryAfterMs !== undefined) {
        if (out.retryAfterMs > policy.maxRetryAfterMs) {
          report({ code: error.code, ...status });
          return {
            id: request.id,
            ok: false,
            attempts,
            error: { ...error, message: `${error.message} (asked to retry after ${Math.ceil(out.retryAfterMs / 1000)} s, longer than the ${policy.maxRetryAfterMs / 1000} s we wait)` },
          };
        }
        delayMs = out.retryAfterMs;
      } else {
        delayMs = backoffDelayMs(retriesUsed + 1, policy, random);
      }
      report({ code: error.code, ...status, delayMs });
      retriesUsed += 1;
      await sleep(delayMs);
    }
  };
}
