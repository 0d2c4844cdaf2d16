/**
 * @module
 * The LLM client: one {@link LlmFunction} over any OpenAI-compatible chat-completions endpoint
 * (OpenAI, Azure OpenAI, OpenRouter, Groq, Together, vLLM, Ollama, Cloudflare AI Gateway's compat
 * endpoint, our mock), speaking the OpenAI wire format with `fetch` (`wire.ts`), so that every attempt
 * is ours to count, time out and report.
 *
 * Per request: the provider (`request.provider`, else the default) and model (`request.model`, else the
 * default) are chosen, so agents of one debate can use different models and providers. Provider
 * trouble never throws: it ends in `{ ok: false, error: { code, message, status, attempts } }` after the
 * retry policy, the message listing every attempt (`attempts.ts` says which code stands for the call)
 * and holding no secret (`redact.ts`). Runs in workerd and Node (no Node-only imports), and does not
 * contain the mock LLM: Node code reaches the in-process mock through `createLlmWithMock`.
 *
 * Two faces of one client: {@link createTieredLlm} runs a call at the `standard` or `flex` tier with a
 * flex fallback policy and reports each attempt's tier and the usage at the tier's price;
 * {@link createLlm} is its `standard` face as the engine's {@link LlmFunction}. The body of every attempt
 * comes from `request.ts`, the one builder the Batch API lines use too. (Batch-tier calls go through
 * `batch-client.ts`.)
 */
import type { LlmAttempt, LlmCallRequest, LlmCallResult, LlmError, LlmFunction } from '../engine/call.js';
import { dominantAttemptIndex, summarizeAttempts } from './attempts.js';
import type { ProviderGate } from './provider-gate-hook.js';
import { gateOutcome } from './provider-gate-hook.js';
import { asFlexFailure, FLEX_UNSUPPORTED, flexRefusalOf } from './flex.js';
import type { PriceTable } from './pricing.js';
import { DEFAULT_PRICES, priceFor } from './pricing.js';
import type { AttemptOutcome } from './outcome.js';
import { createRedactor } from '../log/redact.js';
import { buildChatBody } from './request.js';
import { backoffDelayMs } from './retry.js';
import type { LlmSettings, LlmSettingsInput, ProviderSettings } from './settings.js';
import { IN_PROCESS_MOCK_URL, LlmSettingsError, resolveSettings } from './settings.js';
import { responseFormatFor } from './structured.js';
import type { FlexFallback } from './tiers.js';
import type { TierUsage } from './usage.js';
import { plainUsage, usageOf } from './usage.js';
import type { WireSend, WireTarget } from './wire.js';
import { buildResponsesBody, responsesUrl, sendResponse } from './responses.js';
import { sendChatCompletion, wireTarget } from './wire.js';

/** What {@link LlmDeps.onAttempt} reports after each attempt (for logs, metrics and tests). */
export interface AttemptInfo {
  /** The request id. */
  id: string;
  provider: string;
  model: string;
  /** 1-based attempt number. */
  attempt: number;
  /** The tier the attempt was sent at. */
  tier: 'standard' | 'flex';
  ok: boolean;
  /** What went wrong, when the attempt failed. */
  kind?: LlmAttempt['kind'];
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
  /** fetch used for provider requests. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Waits between attempts. Default: a `setTimeout` promise. */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform [0, 1) source for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** Clock in ms since epoch, for latency and HTTP-date `Retry-After`. Default `Date.now`. */
  now?: () => number;
  /** Called after every attempt. Must not throw. */
  onAttempt?: (info: AttemptInfo) => void;
  /**
   * Answers the requests of providers whose base URL is {@link IN_PROCESS_MOCK_URL}. Default none: such
   * providers are refused (`createLlmWithMock` in `mock/in-process.ts` sets it; the Worker never does).
   */
  inProcessMock?: typeof fetch;
  /**
   * Admits each attempt under its provider and model's adaptive concurrency limit (./provider-gate-hook.ts): asked
   * before the attempt goes out, told its outcome after. Waiting for a slot is not part of an attempt's
   * latency. Default none (no limit beyond the caller's own).
   */
  gate?: ProviderGate;
}

/** Placeholder base URL under which the in-process mock is served (`.invalid`: never resolved by DNS). */
export const IN_PROCESS_BASE = 'http://in-process.mock.invalid/v1';

/** How one call is run, beyond the call itself (all optional). */
export interface CallOptions {
  /**
   * `standard` (default) or `flex` (`service_tier: "flex"`, only at a provider declared `supportsFlex`;
   * elsewhere the call fails at once as `tier_unsupported`, no request sent). Batch-tier calls go through
   * `batch-client.ts`.
   */
  tier?: 'standard' | 'flex';
  /** What a flex refusal leads to (see `tiers.ts`). Default `standard`. */
  flexFallback?: FlexFallback;
  /**
   * OpenAI's `prompt_cache_key`, e.g. one per evaluation so a debate's calls share a cache route; sent only
   * to a provider declared `supportsPromptCacheKey`. Default none.
   */
  promptCacheKey?: string;
  /**
   * Per-attempt timeout, ms. Default the settings' `timeoutMs` (standard) or `flexTimeoutMs` (flex); a caller
   * inside a Durable Object alarm passes what is left of its wall clock (see `tiers.ts`).
   */
  timeoutMs?: number;
  /**
   * Epoch ms by which the call must have given its answer back (a Durable Object alarm's wall clock, less a
   * margin): each attempt's timeout is cut to what is left, no attempt starts (and no backoff wait begins)
   * that could not end by then, and a call that reaches it ends {@link TieredCallResult.cutShort} instead of
   * failing, for the caller to continue in a later invocation. Default none.
   */
  deadlineMs?: number;
  /**
   * Failed attempts earlier invocations made of this call (a call continued after {@link deadlineMs}, or after
   * an eviction cut one off): counted against the retry policy's `maxAttempts`. Default 0.
   */
  attemptsMade?: number;
}

/** Shortest attempt started before a {@link CallOptions.deadlineMs}, ms: 1 s. */
export const MIN_ATTEMPT_MS = 1000;

/** One attempt of a call and the tier it went at. */
export interface TierAttempt {
  /** 1-based attempt number. */
  attempt: number;
  tier: 'standard' | 'flex';
  ok: boolean;
  /** The attempt's error code when it failed (`flex_unavailable` / `flex_unsupported` for flex refusals). */
  code?: string;
  /** What went wrong, when it failed. */
  kind?: LlmAttempt['kind'];
  /** HTTP status when there was one. */
  status?: number;
  latencyMs: number;
}

/** A call's outcome with its tiers. */
export interface TieredCallResult {
  /** The engine's result: on success its `usage.costUsd` is at the price of the tier that answered. */
  result: LlmCallResult;
  /** The tier of the last attempt (the one that answered, on success). */
  tier: 'standard' | 'flex';
  /** Every attempt, in order, with its tier. Empty when none was made. */
  attempts: TierAttempt[];
  /** On success: the usage with its tier and the USD the prompt cache saved. */
  usage?: TierUsage;
  /**
   * True when the call stopped at {@link CallOptions.deadlineMs} without an outcome (`result` is then a
   * `deadline` failure that must not be stored): continue it later, passing `attempts`' failures on as
   * {@link CallOptions.attemptsMade}.
   */
  cutShort?: true;
}

/** Runs one call with {@link CallOptions}. Never throws for provider trouble. */
export type TieredLlmFunction = (request: LlmCallRequest, options?: CallOptions) => Promise<TieredCallResult>;

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Creates the LLM function: {@link createTieredLlm}'s standard tier, as the engine's {@link LlmFunction}.
 * @param options how every call runs (default: the standard tier, no prompt cache key), e.g. one
 *   `promptCacheKey` for all the calls of one evaluation.
 * @throws LlmSettingsError as {@link createTieredLlm}.
 */
export function createLlm(
  settingsInput: LlmSettings | LlmSettingsInput,
  deps: LlmDeps = {},
  options: CallOptions = {},
): LlmFunction {
  const call = createTieredLlm(settingsInput, deps);
  return async (request) => (await call(request, options)).result;
}

/**
 * Creates the tiered LLM function.
 *
 * Behaviour per call (defaults from {@link LlmSettings}):
 * - each attempt is aborted after `timeoutMs` (default 60 s) through an AbortSignal;
 * - every transient fault (429, 408, 409, 5xx, network errors, timeouts, malformed bodies, empty replies)
 *   is retried under the one policy `retry`: up to `maxAttempts` attempts in all (default 5); the wait is
 *   the provider's `retry-after-ms` / `Retry-After` when given (a wait above `maxRetryAfterMs` ends the
 *   call instead), else full-jitter exponential backoff from `baseDelayMs` capped at `maxDelayMs`;
 * - 400, 401, 403, 404 and other 4xx end the call at once, quoting the provider's message;
 * - a request with `n` (samples of one prompt) sends `n` where the provider is declared to support it
 *   (`supportsN`), else none; the result's `choices` hold what came back (at most `n`, empty ones left out),
 *   its usage is the one request's;
 * - `json` parsers send `response_format: json_schema` where the provider supports it; a 400 that
 *   rejects it is retried once without (not counted against `maxAttempts`), and that provider+model is
 *   remembered as text-only for the life of this function (one isolate).
 * - `tier: "flex"` sends `service_tier: "flex"` with the flex timeout (default 15 min). A flex refusal
 *   (`flex.ts`: capacity, or a model without flex) under `flexFallback: "standard"` (default) is sent again
 *   at once at the standard tier, not counted against `maxAttempts`; under `"wait"` a capacity refusal is
 *   retried like a 429 and, when the attempts run out, the call fails as `flex_unavailable`, while a model
 *   without flex ends the call as `flex_unsupported`. A provider+model that answered "no flex" is remembered
 *   for the life of this function: later flex calls to it go straight to the fallback. A flex refusal does not
 *   cut the provider gate's window (it says nothing about the standard tier's capacity).
 * - `promptCacheKey` is sent as `prompt_cache_key` where the provider accepts it.
 * - a call with `api: 'responses'` goes to the provider's Responses API (`./responses.ts`) where it is declared
 *   to speak it (`supportsResponses`, not Azure), with the same retries and tiers; elsewhere as chat completions.
 * A failure's message lists every attempt and its code is chosen as `attempts.ts` describes; the
 * providers' keys, `settings.secrets` and anything shaped like a credential are removed from it.
 * The result carries `attempts` (HTTP attempts made) and, on success, `latencyMs` (wall time incl. waits).
 * @throws LlmSettingsError `mock_unavailable` when a provider uses {@link IN_PROCESS_MOCK_URL} and
 *   `deps.inProcessMock` is not given.
 */
export function createTieredLlm(settingsInput: LlmSettings | LlmSettingsInput, deps: LlmDeps = {}): TieredLlmFunction {
  const settings = resolveSettings(settingsInput);
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const prices: PriceTable = { ...DEFAULT_PRICES, ...settings.prices };
  const redact = createRedactor([...Object.values(settings.providers).map((p) => p.apiKey), ...settings.secrets]);
  const targets = new Map<string, WireTarget>();
  /** `provider\u0000model` pairs that rejected json_schema: later calls go straight to text. */
  const noJsonSchema = new Set<string>();
  /** `provider\u0000model` pairs that answered that they offer no flex tier. */
  const noFlex = new Set<string>();
  for (const [id, p] of Object.entries(settings.providers)) {
    if (p.baseUrl === IN_PROCESS_MOCK_URL && !deps.inProcessMock) {
      throw new LlmSettingsError(
        'mock_unavailable',
        `provider "${id}" uses the in-process mock, which this build does not include: use createLlmWithMock (Node) or a mock server`,
      );
    }
  }
  // Called unbound: workerd's fetch refuses a `this` other than the global scope.
  const fetchDefault: typeof fetch = (input, init) => fetch(input, init);

  function targetFor(
    providerId: string,
    p: ProviderSettings,
  ): { target: WireTarget; responsesUrl: string; fetch: typeof fetch } {
    const inProcess = p.baseUrl === IN_PROCESS_MOCK_URL;
    const fetchImpl = (inProcess ? deps.inProcessMock : deps.fetch) ?? fetchDefault;
    const base = inProcess ? IN_PROCESS_BASE : p.baseUrl;
    const cached = targets.get(providerId);
    const target = cached ?? wireTarget(p, base);
    if (!cached) targets.set(providerId, target);
    return { target, responsesUrl: responsesUrl(base), fetch: fetchImpl };
  }

  /** One attempt under its own timeout: `go` sends it over `fetchImpl` with the timeout's signal. */
  async function attemptOnce(
    timeoutMs: number,
    fetchImpl: typeof fetch,
    go: (send: WireSend) => Promise<AttemptOutcome>,
  ): Promise<AttemptOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      return await go({ fetch: fetchImpl, signal: controller.signal, timedOut: () => timedOut, timeoutMs, now });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The call's error from its failed attempts (see `attempts.ts`): the final attempt's when it ended the
   * call on a fault retrying cannot fix (`terminal`), else the dominant one's; the message lists them all.
   */
  function finalError(
    failures: readonly { record: LlmAttempt; error: LlmError; fallback: boolean }[],
    terminal: LlmError | undefined,
  ): LlmError {
    const records = failures.map((f) => f.record);
    // The structured-output fallback's 400 is a capability probe, not a cause of the failure.
    const causes = failures.filter((f) => !f.fallback);
    const chosen =
      terminal ?? causes[dominantAttemptIndex(causes.map((f) => f.record))]?.error ?? failures.at(-1)?.error;
    if (!chosen) throw new Error('finalError needs at least one failed attempt');
    return {
      code: chosen.code,
      message: redact(`${chosen.message} (${summarizeAttempts(records)})`),
      ...(chosen.status !== undefined ? { status: chosen.status } : {}),
      attempts: records,
    };
  }

  return async function call(request: LlmCallRequest, options: CallOptions = {}): Promise<TieredCallResult> {
    const started = now();
    const providerId = request.provider ?? settings.defaultProvider;
    const provider = settings.providers[providerId];
    const refuse = (code: string, message: string, tier: 'standard' | 'flex'): TieredCallResult => ({
      result: { id: request.id, ok: false, attempts: 0, error: { code, message: redact(message) } },
      tier,
      attempts: [],
    });
    if (!provider) {
      // Names no other provider: the deployment's provider table is not the caller's business.
      return refuse('bad_request', `unknown provider "${providerId}"`, 'standard');
    }
    const model = request.model ?? settings.defaultModel;
    const via = targetFor(providerId, provider);
    const modelKey = `${providerId}\u0000${model}`;
    const parser = request.parser;
    let format =
      parser.type === 'json' && provider.supportsJsonSchema && !noJsonSchema.has(modelKey)
        ? responseFormatFor(parser)
        : undefined;

    const flexPolicy = options.flexFallback ?? 'standard';
    let tier: 'standard' | 'flex' = 'standard';
    if (options.tier === 'flex') {
      if (!provider.supportsFlex)
        return refuse('tier_unsupported', `provider "${providerId}" does not offer the flex tier`, 'flex');
      if (!noFlex.has(modelKey)) tier = 'flex';
      else if (flexPolicy === 'wait')
        return refuse(FLEX_UNSUPPORTED, `model "${model}" at provider "${providerId}" offers no flex tier`, 'flex');
    }
    // `n` only where the provider is declared to honour it; elsewhere one choice comes back and the protocol
    // core asks for the missing samples as separate calls.
    // The Responses API where the call asks for it and the provider speaks it (not Azure's deployment URLs).
    const responses =
      request.api === 'responses' && provider.supportsResponses && provider.azureApiVersion === undefined;
    const n = request.n !== undefined && request.n > 1 && provider.supportsN && !responses ? request.n : undefined;
    const promptCacheKey = provider.supportsPromptCacheKey ? options.promptCacheKey : undefined;
    const policy = settings.retry;
    const failures: { record: LlmAttempt; error: LlmError; fallback: boolean }[] = [];
    const tiers: TierAttempt[] = [];
    let retriesUsed = options.attemptsMade ?? 0;
    const deadline = options.deadlineMs;
    // The invocation's time ran out: no outcome, the caller continues the call later.
    const cut = (): TieredCallResult => ({
      result: {
        id: request.id,
        ok: false,
        attempts: failures.length,
        error: {
          code: 'deadline',
          message: 'the call was cut short to continue in a later invocation',
          attempts: failures.map((f) => f.record),
        },
      },
      tier,
      attempts: tiers,
      cutShort: true,
    });
    for (;;) {
      const attempt = failures.length + 1;
      const ownTimeout = options.timeoutMs ?? (tier === 'flex' ? settings.flexTimeoutMs : settings.timeoutMs);
      const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - now();
      if (left < MIN_ATTEMPT_MS) return cut();
      const timeoutMs = Math.min(ownTimeout, left);
      const bodyOptions = {
        model,
        tier,
        ...(format ? { responseFormat: format } : {}),
        ...(n !== undefined ? { n } : {}),
        ...(promptCacheKey !== undefined ? { promptCacheKey } : {}),
      };
      const lease = await deps.gate?.acquire({ provider: providerId, model, callId: request.id, attempt });
      const t0 = now();
      const sent = await attemptOnce(timeoutMs, via.fetch, (send) =>
        responses
          ? sendResponse(
              providerId,
              via.responsesUrl,
              via.target.headers,
              model,
              buildResponsesBody(request, bodyOptions),
              send,
            )
          : sendChatCompletion(providerId, via.target, model, buildChatBody(request, bodyOptions), send, n ?? 1),
      );
      const latencyMs = now() - t0;
      const refusal = sent.kind === 'error' && tier === 'flex' ? flexRefusalOf(sent) : undefined;
      const out = sent.kind === 'error' && refusal ? asFlexFailure(sent, refusal) : sent;
      // A flex refusal is about the flex pool, not the provider's capacity for this model: no window cut.
      lease?.release(
        refusal ? 'failed' : gateOutcome(out.kind === 'reply', out.kind === 'reply' ? undefined : out.error.status),
      );
      const report = (extra: Partial<AttemptInfo>) =>
        deps.onAttempt?.({
          id: request.id,
          provider: providerId,
          model,
          attempt,
          tier,
          structured: format !== undefined,
          latencyMs,
          ok: false,
          ...extra,
        });

      if (out.kind === 'reply') {
        report({ ok: true });
        tiers.push({ attempt, tier, ok: true, latencyMs });
        const usage = usageOf(out.usage, request.messages, out.choices, priceFor(model, providerId, prices), tier);
        return {
          result: {
            id: request.id,
            ok: true,
            content: out.content,
            ...(request.n !== undefined && request.n > 1 ? { choices: out.choices } : {}),
            model: out.model,
            usage: { ...plainUsage(usage), ...(tier !== 'standard' ? { tier } : {}) },
            attempts: attempt,
            latencyMs: now() - started,
            ...(failures.length > 0 ? { failedAttempts: failures.map((f) => f.record) } : {}),
          },
          tier,
          attempts: tiers,
          usage,
        };
      }

      const { error } = out;
      const status = error.status !== undefined ? { status: error.status } : {};
      tiers.push({ attempt, tier, ok: false, code: error.code, kind: out.attemptKind, ...status, latencyMs });
      const schemaFallback = out.schemaRejected === true && format !== undefined;
      const flexFallback = refusal !== undefined && flexPolicy === 'standard';
      failures.push({
        record: {
          attempt,
          kind: out.attemptKind,
          code: error.code,
          ...status,
          latencyMs,
          ...(tier !== 'standard' ? { tier } : {}),
        },
        error,
        fallback: schemaFallback || flexFallback,
      });
      const fail = (terminal?: LlmError): TieredCallResult => ({
        result: { id: request.id, ok: false, attempts: attempt, error: finalError(failures, terminal) },
        tier,
        attempts: tiers,
      });

      // The deadline, not the attempt's own timeout, ended it: the caller sends it again later.
      if (out.attemptKind === 'timeout' && timeoutMs < ownTimeout) {
        report({ kind: out.attemptKind, code: error.code, ...status });
        return cut();
      }
      if (refusal === 'unsupported') noFlex.add(modelKey);
      // Flex refused under the `standard` policy: sent again at once at the standard tier, not counted
      // against the retry budget (the refusal is unbilled and says nothing about the call).
      if (flexFallback) {
        tier = 'standard';
        report({ kind: out.attemptKind, code: error.code, ...status, delayMs: 0 });
        continue;
      }
      // Structured output refused: one immediate retry as plain text, not counted against the retry budget.
      if (schemaFallback) {
        noJsonSchema.add(modelKey);
        format = undefined;
        report({ kind: out.attemptKind, code: error.code, ...status, delayMs: 0 });
        continue;
      }
      if (!out.retryable) {
        report({ kind: out.attemptKind, code: error.code, ...status });
        return fail(error);
      }
      if (retriesUsed + 1 >= policy.maxAttempts) {
        report({ kind: out.attemptKind, code: error.code, ...status });
        return fail();
      }
      let delayMs: number;
      if (out.retryAfterMs !== undefined) {
        if (out.retryAfterMs > policy.maxRetryAfterMs) {
          report({ kind: out.attemptKind, code: error.code, ...status });
          const wait = `asked to retry after ${Math.ceil(out.retryAfterMs / 1000)} s, longer than the ${policy.maxRetryAfterMs / 1000} s we wait`;
          return fail({ ...error, message: `${error.message} (${wait})` });
        }
        delayMs = out.retryAfterMs;
      } else {
        delayMs = backoffDelayMs(retriesUsed + 1, policy, random);
      }
      if (deadline !== undefined && now() + delayMs + MIN_ATTEMPT_MS > deadline) {
        report({ kind: out.attemptKind, code: error.code, ...status });
        return cut();
      }
      report({ kind: out.attemptKind, code: error.code, ...status, delayMs });
      retriesUsed += 1;
      await sleep(delayMs);
    }
  };
}
