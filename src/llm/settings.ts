/**
 * @module
 * LLM layer settings: the provider table, default model, timeouts, retry policy and prices, read from
 * the Worker's environment by {@link settingsFromEnv}.
 *
 * API keys come only from secrets (`LLM_API_KEY`, or the secret a provider names in `apiKeySecret`);
 * a caller's own key (BYOK) is accepted only through the explicit `byokKey` option and only when the
 * deployment sets `ALLOW_BYOK = "true"`. Settings hold keys in memory: never log or persist them (the
 * client removes them, and every other secret value of the environment, from the messages it builds).
 *
 * A broken configuration is the operator's problem, not the caller's: {@link LlmSettingsError} carries a
 * generic caller-facing message and code (`llm_not_configured`), and {@link settingsFromEnv} writes the
 * diagnosis (`reason`, `detail`) to the operator's logs as `llm.settings_invalid` (./settings-error.ts). The
 * `LLM_PROVIDERS` table is read by ./env-providers.ts.
 */
import { z } from 'zod';
import { configOf } from '../config/vars.js';
import { log } from '../log/log.js';
import { ModelPriceSchema } from './pricing.js';
import { createRedactor, isSecretName, rememberSecrets } from '../log/redact.js';
import { DEFAULT_BATCH_TURNAROUND_SECONDS, DEFAULT_FLEX_TIMEOUT_MS, TierSchema } from './tiers.js';
import { parseJsonVar, providersFromEnv } from './env-providers.js';
import { LlmSettingsError } from './settings-error.js';

/**
 * Base URL that selects the in-process mock (no network). Only Node code that opts in can use it
 * (`src/mock-llm/in-process.ts`); the Worker bundle does not contain the mock and refuses it.
 */
export const IN_PROCESS_MOCK_URL = 'mock://in-process/v1';

/** Id of the provider built from `LLM_BASE_URL` / `LLM_API_KEY`. */
export const DEFAULT_PROVIDER_ID = 'default';

/** One OpenAI-compatible endpoint. */
export const ProviderSettingsSchema = z
  .object({
    /**
     * Base URL up to and including the API version path, e.g. `https://api.openai.com/v1`,
     * `https://api.groq.com/openai/v1`, `https://openrouter.ai/api/v1`, `http://localhost:11434/v1`,
     * `https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/compat`; for Azure (with `azureApiVersion`)
     * `https://{resource}.openai.azure.com/openai`, where a request's model is the deployment name.
     * {@link IN_PROCESS_MOCK_URL} answers from the in-process mock (Node only, see `createLlmWithMock`).
     */
    baseUrl: z.string().min(1),
    /** Bearer key (resolved from a secret; never from a request body). Absent: no Authorization header. */
    apiKey: z.string().min(1).optional(),
    /** Extra headers sent with every call (e.g. OpenRouter's `HTTP-Referer`, AI Gateway's `cf-aig-*`). */
    headers: z.record(z.string(), z.string()).default({}),
    /** Whether `response_format: json_schema` may be sent. Default true; a 400 rejection turns it off per model. */
    supportsJsonSchema: z.boolean().default(true),
    /** Azure OpenAI `api-version` query parameter; when set, the key goes in the `api-key` header. */
    azureApiVersion: z.string().min(1).optional(),
    /**
     * Whether OpenAI's `n` (several choices from one request) may be sent. Default false: many compatible
     * servers ignore or refuse it. When false, samples of one prompt go as separate calls, each counted.
     */
    supportsN: z.boolean().default(false),
    /**
     * Whether the provider offers flex processing (`service_tier: "flex"` on chat completions: OpenAI, Groq).
     * Default false: a flex call to it is refused without a request (`tier_unsupported`).
     */
    supportsFlex: z.boolean().default(false),
    /**
     * Whether the provider offers OpenAI's Batch API (`/files` + `/batches`: OpenAI, Azure OpenAI, Groq,
     * Together, Fireworks). Default false.
     */
    supportsBatch: z.boolean().default(false),
    /**
     * Whether `prompt_cache_key` may be sent (OpenAI routes requests to a prompt cache by it). Default false:
     * strict OpenAI-compatible servers refuse unknown body fields, so a call's key is dropped elsewhere.
     */
    supportsPromptCacheKey: z.boolean().default(false),
    /**
     * Whether the provider speaks OpenAI's Responses API (`POST /responses`: OpenAI). Default false: calls that
     * ask for it (an Evals run's `responses` data source) go as chat completions there.
     */
    supportsResponses: z.boolean().default(false),
    /**
     * The tier of requests to this provider that name none and whose tenant has no default (`standard`,
     * `flex` or `batch`; one it does not offer never applies). Default `standard`.
     */
    defaultTier: TierSchema.default('standard'),
    /**
     * How long the provider's Batch API typically takes to finish a batch, seconds: the estimates' typical
     * time of one wave (the worst case is the 24 h completion window). Default 3,600.
     */
    batchTurnaroundSeconds: z.number().positive().default(DEFAULT_BATCH_TURNAROUND_SECONDS),
  })
  .strict();
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/**
 * The one retry policy of the client's own retry loop (nothing underneath retries). It covers every
 * transient fault alike: 429, 408, 409, 5xx, timeouts, network errors, empty replies and malformed bodies.
 */
export const RetryPolicySchema = z
  .object({
    /** Attempts per call, first try included, 1-20. Default 5 (env `LLM_MAX_ATTEMPTS`). */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** Backoff base in ms: retry n waits a random time in [0, base·2^(n-1)] (full jitter). Default 500 (env `LLM_RETRY_BASE_MS`). */
    baseDelayMs: z.number().int().nonnegative().default(500),
    /** Cap of one backoff delay in ms. Default 20,000 (env `LLM_RETRY_MAX_MS`). */
    maxDelayMs: z.number().int().nonnegative().default(20_000),
    /**
     * Longest `Retry-After` honoured, in ms; a provider asking for longer ends the call as `rate_limited`.
     * Default 60,000 (env `LLM_RETRY_AFTER_MAX_MS`).
     */
    maxRetryAfterMs: z.number().int().nonnegative().default(60_000),
  })
  .strict();
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

/** Everything {@link createLlm} needs. */
export const LlmSettingsSchema = z
  .object({
    /** Provider table by id; requests name one in `provider`. */
    providers: z.record(z.string(), ProviderSettingsSchema),
    /** Provider for requests without `provider`. Default `default`. */
    defaultProvider: z.string().min(1).default(DEFAULT_PROVIDER_ID),
    /** Model for requests without `model`. Default `gpt-4o-mini`. */
    defaultModel: z.string().min(1).default('gpt-4o-mini'),
    /** Per-attempt timeout in milliseconds. Default 60,000. */
    timeoutMs: z.number().int().positive().default(60_000),
    /**
     * Per-attempt timeout of a flex call, ms. Default 900,000 (15 min, OpenAI's advice for flex). A Durable
     * Object alarm's wall clock is bounded at 15 min too: callers inside `alarm()` pass a shorter `timeoutMs`
     * per call (see `tiers.ts`).
     */
    flexTimeoutMs: z.number().int().positive().default(DEFAULT_FLEX_TIMEOUT_MS),
    /** Retry policy; each field defaults as documented on {@link RetryPolicySchema}. */
    retry: RetryPolicySchema.prefault({}),
    /** Price overrides merged over {@link DEFAULT_PRICES} (USD per 1M tokens). */
    prices: z.record(z.string(), ModelPriceSchema).default({}),
    /**
     * Secret values removed from every message the client builds, besides the providers' own keys (which
     * are always removed): the deployment's other secrets. Default none; {@link settingsFromEnv} fills it.
     */
    secrets: z.array(z.string()).default([]),
  })
  .strict();
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;

/**
 * Whether a call's provider (its `provider`, else `defaultProvider`) is declared to honour OpenAI's `n`
 * (`supportsN`); false for a provider the table lacks. The one reading of the capability, shared by the
 * drivers (which samples the engine groups, `readyCalls`' `supportsN`) and the budget meter (what a
 * request with `n` may bring back), so both agree with what the client sends.
 */
export function supportsNOf(settings: {
  defaultProvider: string;
  providers?: Readonly<Record<string, { supportsN?: boolean }>>;
}): (call: { provider?: string | undefined }) => boolean {
  return (call) => settings.providers?.[call.provider ?? settings.defaultProvider]?.supportsN === true;
}
/** Settings as written by hand: defaults may be left out. */
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;

/** The environment variables and secrets the LLM layer reads (all strings, all optional). */
export interface LlmEnv {
  /** Default provider's base URL. Required: empty is a configuration error. `mock` (in-process mock) only where allowed. */
  LLM_BASE_URL?: string;
  /** Secret: default provider's key. */
  LLM_API_KEY?: string;
  /** Default model. Default `gpt-4o-mini`. */
  LLM_MODEL?: string;
  /** Per-attempt timeout, ms. Default 60000. */
  LLM_TIMEOUT_MS?: string;
  /** Attempts per call including the first, for every transient fault. Default 5. */
  LLM_MAX_ATTEMPTS?: string;
  /** Backoff base, ms (full-jitter exponential). Default 500. */
  LLM_RETRY_BASE_MS?: string;
  /** Longest backoff wait, ms. Default 20000. */
  LLM_RETRY_MAX_MS?: string;
  /** Longest provider `Retry-After` waited for, ms; longer ends the call. Default 60000. */
  LLM_RETRY_AFTER_MAX_MS?: string;
  /** `"true"`: the default provider honours OpenAI's `n` (OpenAI does; many compatible servers do not). Default false. */
  LLM_SUPPORTS_N?: string;
  /** `"true"`: the default provider offers flex processing (`service_tier: "flex"`). Default false. */
  LLM_SUPPORTS_FLEX?: string;
  /** `"true"`: the default provider offers OpenAI's Batch API (`/files`, `/batches`). Default false. */
  LLM_SUPPORTS_BATCH?: string;
  /** `"true"`: the default provider accepts `prompt_cache_key` (OpenAI does). Default false. */
  LLM_SUPPORTS_PROMPT_CACHE_KEY?: string;
  /** `"true"`: the default provider speaks OpenAI's Responses API (OpenAI does). Default false. */
  LLM_SUPPORTS_RESPONSES?: string;
  /** Per-attempt timeout of a flex call, ms. Default 900000 (15 min). */
  LLM_FLEX_TIMEOUT_MS?: string;
  /** The default provider's default tier (`standard`, `flex`, `batch`). Default `standard`. */
  LLM_DEFAULT_TIER?: string;
  /** The default provider's typical Batch API turnaround, s (estimates). Default 3600. */
  LLM_BATCH_TURNAROUND_SECONDS?: string;
  /**
   * JSON table of extra providers: `{"groq": {"baseUrl": "...", "apiKeySecret": "GROQ_API_KEY", "supportsN": false,
   * "supportsFlex": true, "supportsBatch": true, "supportsPromptCacheKey": false}}`.
   */
  LLM_PROVIDERS?: string;
  /** Optional JSON price overrides: `{"gpt-4o": {"input": 2.5, "output": 10}}` (USD per 1M tokens). */
  LLM_PRICES?: string;
  /** `"true"` lets callers bring their own key for the default provider. Default false. */
  ALLOW_BYOK?: string;
  /** Other variables and secrets (provider keys named by `apiKeySecret`). */
  [name: string]: unknown;
}

/**
 * The Worker's bindings as the LLM layer reads them: a string map of variables and secrets (the generated
 * `Env` interface has no index signature; provider keys are named by `LLM_PROVIDERS`). The same object,
 * not a copy: {@link settingsFromEnv} keeps what it read per environment object.
 */
export function llmEnvOf(env: object): LlmEnv {
  return env as LlmEnv;
}

/** The environment's secret values: every `*_API_KEY` / `*_TOKEN` / `*_SECRET` / `*_PASSWORD` variable. */
function envSecrets(env: LlmEnv): string[] {
  return Object.entries(env).flatMap(([name, v]) => (isSecretName(name) && typeof v === 'string' ? [v] : []));
}

/** Options of {@link settingsFromEnv}. */
export interface SettingsFromEnvOptions {
  /** A caller's own key for the default provider; only accepted when `ALLOW_BYOK` is `"true"`. */
  byokKey?: string;
  /**
   * Whether `LLM_BASE_URL = "mock"` may select the in-process mock. Default false: the Worker does not
   * include the mock. Node callers that build their client with `createLlmWithMock` set it.
   */
  inProcessMock?: boolean;
}

/**
 * Builds settings from the Worker environment.
 *
 * - provider `default`: `LLM_BASE_URL` with secret `LLM_API_KEY`, or `opts.byokKey` when given and
 *   `ALLOW_BYOK` is `"true"`; `mock` selects {@link IN_PROCESS_MOCK_URL} only with `opts.inProcessMock`;
 * - `LLM_SUPPORTS_N` (`true` / `false`, default false): whether the default provider honours OpenAI's `n`;
 *   an `LLM_PROVIDERS` entry says so with `"supportsN": true`; likewise `LLM_SUPPORTS_FLEX` / `supportsFlex`
 *   (flex processing), `LLM_SUPPORTS_BATCH` / `supportsBatch` (the Batch API) and
 *   `LLM_SUPPORTS_PROMPT_CACHE_KEY` / `supportsPromptCacheKey`, `LLM_SUPPORTS_RESPONSES` / `supportsResponses`
 *   (OpenAI's Responses API), all default false; `LLM_DEFAULT_TIER` /
 *   `defaultTier` (default `standard`) and `LLM_BATCH_TURNAROUND_SECONDS` / `batchTurnaroundSeconds` (3600);
 * - `LLM_PROVIDERS` adds named providers, each key read from the env secret its `apiKeySecret` names
 *   (a missing secret leaves the provider keyless: calls then fail as `auth` unless the endpoint needs none);
 * - `LLM_MODEL` (default `gpt-4o-mini`), `LLM_TIMEOUT_MS` (default 60000 ms), `LLM_FLEX_TIMEOUT_MS` (default
 *   900000 ms), `LLM_PRICES` (optional
 *   price overrides); the retry policy from `LLM_MAX_ATTEMPTS` (default 5), `LLM_RETRY_BASE_MS` (500),
 *   `LLM_RETRY_MAX_MS` (20000), `LLM_RETRY_AFTER_MAX_MS` (60000);
 * - `secrets`: every secret value of the environment (see {@link isSecretName}) and the BYOK key, which
 *   are also remembered for the logger's redaction.
 *
 * A deployment fault is logged (`llm.settings_invalid`, with `reason` and `detail`) before it is thrown.
 * @throws LlmSettingsError `llm_not_configured` on malformed variables, an empty `LLM_BASE_URL` (why: a
 *   deployment that forgot it must fail loudly, not answer with mock verdicts) or a refused `mock`;
 *   `byok_disabled` when a BYOK key is given but the deployment does not allow it.
 */
export function settingsFromEnv(env: LlmEnv, opts: SettingsFromEnvOptions = {}): LlmSettings {
  const byok = opts.byokKey?.trim();
  const key = byok ? null : opts.inProcessMock === true ? 'mock' : 'plain';
  const cached = key === null ? undefined : readFromEnv.get(env)?.[key];
  if (cached) {
    rememberSecrets(cached.secrets);
    return cached;
  }
  const secrets = [...envSecrets(env), ...(byok ? [byok] : [])];
  rememberSecrets(secrets);
  try {
    const settings = readSettings(env, opts, byok, secrets);
    if (key !== null) readFromEnv.set(env, { ...readFromEnv.get(env), [key]: settings });
    return settings;
  } catch (e) {
    if (e instanceof LlmSettingsError && e.code === 'llm_not_configured') {
      log('error', 'llm.settings_invalid', { reason: e.reason, detail: e.detail });
    }
    throw e;
  }
}

/**
 * Settings read from an environment object (bindings do not change while an isolate lives): every Durable
 * Object instance and request reads the same variables, and parsing them each time cost ~1-2.5 ms of CPU
 * per evaluation in workerd (BENCHMARKS.md). BYOK settings are never kept.
 */
const readFromEnv = new WeakMap<object, { plain?: LlmSettings; mock?: LlmSettings }>();

/** Settings objects that passed the schema ({@link resolveSettings} need not parse them again). */
const resolved = new WeakSet<object>();

function readSettings(
  env: LlmEnv,
  opts: SettingsFromEnvOptions,
  byok: string | undefined,
  secrets: string[],
): LlmSettings {
  // Numbers and flags are the deployment's configuration, parsed and checked once (src/config/vars.ts).
  const config = configOf(env);
  if (byok) {
    if (!config.ALLOW_BYOK) {
      throw new LlmSettingsError(
        'byok_disabled',
        'this deployment does not accept caller-supplied API keys (ALLOW_BYOK is off)',
      );
    }
  }
  const defaultKey = byok || config.LLM_API_KEY;
  const base = config.LLM_BASE_URL.trim();
  if (base === '') {
    throw new LlmSettingsError(
      'missing_base_url',
      'LLM_BASE_URL is not set: point it at an OpenAI-compatible endpoint (e.g. https://api.openai.com/v1), or at a mock server (`npm run mock-llm`)',
    );
  }
  if (base === 'mock' && !opts.inProcessMock) {
    throw new LlmSettingsError(
      'mock_unavailable',
      'LLM_BASE_URL = "mock" selects the in-process mock LLM, which this build does not include (dev and tests only): run `npm run mock-llm` and set LLM_BASE_URL to the URL it prints',
    );
  }
  const providers: Record<string, ProviderSettings> = {
    [DEFAULT_PROVIDER_ID]: {
      baseUrl: base === 'mock' ? IN_PROCESS_MOCK_URL : base,
      ...(defaultKey ? { apiKey: defaultKey } : {}),
      headers: {},
      supportsJsonSchema: true,
      supportsN: config.LLM_SUPPORTS_N,
      supportsFlex: config.LLM_SUPPORTS_FLEX,
      supportsBatch: config.LLM_SUPPORTS_BATCH,
      supportsPromptCacheKey: config.LLM_SUPPORTS_PROMPT_CACHE_KEY,
      supportsResponses: config.LLM_SUPPORTS_RESPONSES,
      defaultTier: config.LLM_DEFAULT_TIER,
      batchTurnaroundSeconds: config.LLM_BATCH_TURNAROUND_SECONDS,
    },
  };

  Object.assign(providers, providersFromEnv(env, config.LLM_PROVIDERS));

  const prices = parseJsonVar(config.LLM_PRICES, 'LLM_PRICES', 'invalid_prices');
  const result = LlmSettingsSchema.safeParse({
    providers,
    defaultModel: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    flexTimeoutMs: config.LLM_FLEX_TIMEOUT_MS,
    retry: {
      maxAttempts: config.LLM_MAX_ATTEMPTS,
      baseDelayMs: config.LLM_RETRY_BASE_MS,
      maxDelayMs: config.LLM_RETRY_MAX_MS,
      maxRetryAfterMs: config.LLM_RETRY_AFTER_MAX_MS,
    },
    prices,
    secrets,
  });
  if (!result.success) {
    throw new LlmSettingsError(
      prices !== undefined && result.error.issues.some((i) => i.path[0] === 'prices')
        ? 'invalid_prices'
        : 'invalid_settings',
      `invalid LLM settings: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  resolved.add(result.data);
  return result.data;
}

/** What removes the providers' keys and the deployment's secrets from a message (./client.ts and its siblings). */
export function settingsRedactor(settings: Pick<LlmSettings, 'providers' | 'secrets'>): (text: string) => string {
  return createRedactor([...Object.values(settings.providers).map((p) => p.apiKey), ...settings.secrets]);
}

/** Completes hand-written settings with their defaults. @throws LlmSettingsError when invalid. */
export function resolveSettings(input: LlmSettingsInput): LlmSettings {
  if (resolved.has(input)) return input as LlmSettings;
  const r = LlmSettingsSchema.safeParse(input);
  if (!r.success) {
    throw new LlmSettingsError(
      'invalid_settings',
      `invalid LLM settings: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  resolved.add(r.data);
  return r.data;
}
