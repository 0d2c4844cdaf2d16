/**
 * @module
 * The LLM client: one {@link LlmFunction} over any OpenAI-compatible chat-completions endpoint
 * (OpenAI, Azure OpenAI, OpenRouter, Groq, Together, vLLM, Ollama, Cloudflare AI Gateway's compat
 * endpoint, our mock), speaking the OpenAI wire format with `fetch` (`wire.ts`), so that every attempt
 * is ours to count, time out and report.
 *
 * Per request: the provider (`request.provider`, else the default) and model (`request.model`, else the
 * default) are chosen (`routing.ts`), so agents of one debate can use different models and providers. Provider
 * trouble never throws: it ends in `{ ok: false, error: { code, message, status, attempts } }` after the
 * retry policy (`retry.ts`), the message listing every attempt (`attempts.ts` says which code stands for the
 * call) and holding no secret (`redact.ts`). Runs in workerd and Node (no Node-only imports), and does not
 * contain the mock LLM: Node code reaches the in-process mock through `createLlmWithMock`.
 *
 * Two faces of one client: {@link createTieredLlm} runs a call at the `standard` or `flex` tier with a
 * flex fallback policy and reports each attempt's tier and the usage at the tier's price;
 * {@link createLlm} is its `standard` face as the engine's {@link LlmFunction}. Each attempt is sent by
 * `send-attempt.ts`, its body from `request.ts`, the one builder the Batch API lines use too. (Batch-tier calls go through
 * `batch-client.ts`.)
 */
import type { LlmAttempt, LlmCallRequest, LlmCallResult, LlmFunction } from '../engine/call.js';
import type { FailedAttempt } from './attempts.js';
import { callError } from './attempts.js';
import { asFlexFailure, flexRefusalOf } from './flex.js';
import type { PriceTable } from './pricing.js';
import { DEFAULT_PRICES, priceFor } from './pricing.js';
import type { ProviderGate } from './provider-gate-hook.js';
import { gateOutcome } from './provider-gate-hook.js';
import { afterFailure } from './retry.js';
import { createRouter } from './routing.js';
import { sendAttempt } from './send-attempt.js';
import type { LlmSettings, LlmSettingsInput } from './settings.js';
import { resolveSettings, settingsRedactor } from './settings.js';
import type { FlexFallback } from './tiers.js';
import type { TierUsage } from './usage.js';
import { plainUsage, usageOf } from './usage.js';

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
   * Answers the requests of providers whose base URL is `IN_PROCESS_MOCK_URL` (./settings.ts). Default none: such
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
  /**
   * Asked once an attempt has failed, before the wait for the next one, and before that next attempt (after its
   * wait for the provider gate too): true ends the call at once with the attempts made, sending nothing more (e.g.
   * its evaluation was cancelled). Also asked when an attempt's gate slot is granted: a call stopped while it
   * waited gives the slot back and sends nothing more ({@link TieredCallResult.unsent} for a first attempt). Without a gate the first
   * attempt always goes (the caller decided to make the call just before). Default: never.
   */
  stop?: () => boolean;
  /**
   * Aborted when the call is to stop (with {@link stop} then true): an attempt still waiting for its provider gate
   * slot (the first or a retry) stops waiting at once, its ask withdrawn, and is not sent: a first attempt's call
   * ends {@link TieredCallResult.unsent}, a retry's with the failures so far (as {@link stop}), so the caller need
   * not wait for a grant it would not use. Default none (the wait ends only with a grant).
   */
  signal?: AbortSignal;
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
   * `deadline` failure): continue it later, passing `attempts`' failures on as {@link CallOptions.attemptsMade};
   * store it as the outcome only when nothing will continue it (its evaluation has ended).
   */
  cutShort?: true;
  /**
   * True when the call was stopped ({@link CallOptions.stop}) while its first attempt waited for the provider
   * gate: nothing more was sent, so nothing more is billed; `result` is a {@link NOT_SENT} failure carrying the
   * attempts of earlier invocations ({@link CallOptions.attemptsMade}), 0 for a call never sent.
   */
  unsent?: true;
}

/** The code of a call stopped before anything was sent ({@link TieredCallResult.unsent}). */
export const NOT_SENT = 'not_sent';

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
 * @throws LlmSettingsError `mock_unavailable` when a provider uses `IN_PROCESS_MOCK_URL` (./settings.ts) and
 *   `deps.inProcessMock` is not given.
 */
export function createTieredLlm(settingsInput: LlmSettings | LlmSettingsInput, deps: LlmDeps = {}): TieredLlmFunction {
  const settings = resolveSettings(settingsInput);
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const prices: PriceTable = { ...DEFAULT_PRICES, ...settings.prices };
  const redact = settingsRedactor(settings);
  const router = createRouter(settings, deps);

  return async function call(request: LlmCallRequest, options: CallOptions = {}): Promise<TieredCallResult> {
    const started = now();
    const route = router.route(request, options);
    if ('refused' in route) {
      const { code, message, tier } = route.refused;
      return {
        result: { id: request.id, ok: false, attempts: 0, error: { code, message: redact(message) } },
        tier,
        attempts: [],
      };
    }
    const { providerId, model } = route;
    let { format, tier } = route;
    const flexPolicy = options.flexFallback ?? 'standard';
    const policy = settings.retry;
    const failures: FailedAttempt[] = [];
    const tiers: TierAttempt[] = [];
    let retriesUsed = options.attemptsMade ?? 0;
    // Attempts sent before this invocation's first (its retry-count header counts them).
    const earlier = retriesUsed;
    const deadline = options.deadlineMs;
    // The invocation's time ran out: no outcome, the caller continues the call later.
    const cut = (): TieredCallResult => ({
      result: {
        id: request.id,
        ok: false,
        attempts: failures.length,
        error: {
          code: 'deadline',
          message: "the call was cut short at its invocation's deadline",
          attempts: failures.map((f) => f.record),
        },
      },
      tier,
      attempts: tiers,
      cutShort: true,
    });
    // Stopped after a failed attempt: the failures so far are the call's outcome.
    const stop = () => failures.length > 0 && options.stop?.() === true;
    const stopped = (): TieredCallResult => ({
      result: { id: request.id, ok: false, attempts: failures.length, error: callError(failures, undefined, redact) },
      tier,
      attempts: tiers,
    });
    const unsent = (): TieredCallResult => ({
      result: {
        id: request.id,
        ok: false,
        attempts: 0,
        error: { code: NOT_SENT, message: 'not sent: the call was stopped while it waited for its provider slot' },
      },
      tier,
      attempts: [],
      unsent: true,
    });
    for (;;) {
      if (stop()) return stopped();
      const attempt = failures.length + 1;
      const ownTimeout = options.timeoutMs ?? (tier === 'flex' ? settings.flexTimeoutMs : settings.timeoutMs);
      const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - now();
      if (left < MIN_ATTEMPT_MS) return cut();
      const timeoutMs = Math.min(ownTimeout, left);
      const bodyOptions = {
        model,
        tier,
        ...(format ? { responseFormat: format } : {}),
        ...(route.n !== undefined ? { n: route.n } : {}),
        ...(route.promptCacheKey !== undefined ? { promptCacheKey: route.promptCacheKey } : {}),
      };
      const lease = await deps.gate?.acquire(
        { provider: providerId, model, callId: request.id, attempt },
        options.signal,
      );
      // The wait for a slot may be long: a call stopped meanwhile gives its slot back unused (none when the signal
      // withdrew its ask); a first attempt granted after the stop is not sent at all (a call already on the wire at
      // the stop is kept, retries aside).
      if (lease && (options.signal?.aborted === true || options.stop?.() === true)) {
        lease.release('failed');
        return failures.length > 0 ? stopped() : unsent();
      }
      const t0 = now();
      const sent = await sendAttempt(route, request, bodyOptions, timeoutMs, now, earlier + failures.length);
      const latencyMs = now() - t0;
      const refusal = sent.kind === 'error' && tier === 'flex' ? flexRefusalOf(sent) : undefined;
      const out = sent.kind === 'error' && refusal ? asFlexFailure(sent, refusal) : sent;
      // A flex refusal is about the flex pool, not the provider's capacity for this model: no window cut.
      lease?.release(
        refusal ? 'failed' : gateOutcome(out.kind === 'reply', out.kind === 'reply' ? undefined : out.error.status),
      );
      // What this attempt was sent as, fixed now: a fallback changes `tier` or `format` before the report.
      const sentAs = { tier, structured: format !== undefined };
      const report = (extra: Partial<AttemptInfo>) =>
        deps.onAttempt?.({
          id: request.id,
          provider: providerId,
          model,
          attempt,
          ...sentAs,
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
      const failed = { kind: out.attemptKind, code: error.code, ...status };

      // The deadline, not the attempt's own timeout, ended it: the caller sends it again later.
      if (out.attemptKind === 'timeout' && timeoutMs < ownTimeout) {
        report(failed);
        return cut();
      }
      if (refusal === 'unsupported') router.noFlex(route);
      // Flex refused under the `standard` policy: sent again at once at the standard tier, not counted
      // against the retry budget (the refusal is unbilled and says nothing about the call).
      if (flexFallback) {
        tier = 'standard';
        report({ ...failed, delayMs: 0 });
        continue;
      }
      // Structured output refused: one immediate retry as plain text, not counted against the retry budget.
      if (schemaFallback) {
        router.noJsonSchema(route);
        format = undefined;
        report({ ...failed, delayMs: 0 });
        continue;
      }
      const next = afterFailure(out, retriesUsed, { policy, random, now, deadline, minAttemptMs: MIN_ATTEMPT_MS });
      if (next.step !== 'wait') {
        report(failed);
        if (next.step === 'cut') return cut();
        return {
          result: { id: request.id, ok: false, attempts: attempt, error: callError(failures, next.terminal, redact) },
          tier,
          attempts: tiers,
        };
      }
      if (stop()) {
        report(failed);
        return stopped();
      }
      report({ ...failed, delayMs: next.delayMs });
      retriesUsed += 1;
      await sleep(next.delayMs);
    }
  };
}
