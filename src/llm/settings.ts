/**
 * @module
 * LLM layer settings: the provider table, default model, timeouts, retry policy and prices, read from
 * the Worker's environment by {@link settingsFromEnv}.
 *
 * API keys come only from secrets (`LLM_API_KEY`, or the secret a provider names in `apiKeySecret`);
 * a caller's own key (BYOK) is accepted only through the explicit `byokKey` option and only when the
 * deployment sets `ALLOW_BYOK = "true"`. Settings hold keys in memory: never log or persist them.
 */
import { z } from 'zod';
import { ModelPriceSchema } from './pricing.js';

/** Base URL that selects the bundled in-process mock (no network). */
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
     * {@link IN_PROCESS_MOCK_URL} answers from the bundled mock without any network.
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
  })
  .strict();
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** Retry policy of the client's own retry loop (the SDK's retries are off). */
export const RetryPolicySchema = z
  .object({
    /** Attempts per call, first try included, 1-20. Default 5. */
    maxAttempts: z.number().int().min(1).max(20).default(5),
    /** Backoff base in ms: attempt n waits a random time in [0, base·2^(n-1)] (full jitter). Default 500. */
    baseDelayMs: z.number().int().nonnegative().default(500),
    /** Cap of one backoff delay in ms. Default 20,000. */
    maxDelayMs: z.number().int().nonnegative().default(20_000),
    /** Longest `Retry-After` honoured, in ms; a provider asking for longer ends the call as `rate_limited`. Default 60,000. */
    maxRetryAfterMs: z.number().int().nonnegative().default(60_000),
    /** Retries after an empty reply (they count against `maxAttempts` too). Default 2. */
    maxEmptyRetries: z.number().int().nonnegative().default(2),
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
    /** Retry policy; each field defaults as documented on {@link RetryPolicySchema}. */
    retry: RetryPolicySchema.prefault({}),
    /** Price overrides merged over {@link DEFAULT_PRICES} (USD per 1M tokens). */
    prices: z.record(z.string(), ModelPriceSchema).default({}),
  })
  .strict();
export type LlmSettings = z.infer<typeof LlmSettingsSchema>;
/** Settings as written by hand: defaults may be left out. */
export type LlmSettingsInput = z.input<typeof LlmSettingsSchema>;

/** The environment variables and secrets the LLM layer reads (all strings, all optional). */
export interface LlmEnv {
  /** Default provider's base URL; `mock` = the bundled in-process mock. Required: empty is a configuration error. */
  LLM_BASE_URL?: string;
  /** Secret: default provider's key. */
  LLM_API_KEY?: string;
  /** Default model. Default `gpt-4o-mini`. */
  LLM_MODEL?: string;
  /** Per-attempt timeout, ms. Default 60000. */
  LLM_TIMEOUT_MS?: string;
  /** Attempts per call including the first. Default 5. */
  LLM_MAX_ATTEMPTS?: string;
  /** JSON table of extra providers: `{"groq": {"baseUrl": "...", "apiKeySecret": "GROQ_API_KEY"}}`. */
  LLM_PROVIDERS?: string;
  /** Optional JSON price overrides: `{"gpt-4o": {"input": 2.5, "output": 10}}` (USD per 1M tokens). */
  LLM_PRICES?: string;
  /** `"true"` lets callers bring their own key for the default provider. Default false. */
  ALLOW_BYOK?: string;
  /** Other variables and secrets (provider keys named by `apiKeySecret`). */
  [name: string]: unknown;
}

/**
 * The Worker's bindings as the LLM layer reads them: a string map of variables and secrets. A copy, because
 * the generated `Env` interface has no index signature (provider keys are named by `LLM_PROVIDERS`).
 */
export function llmEnvOf(env: object): LlmEnv {
  return { ...env };
}

/** A deployment configuration error. `code` is stable. */
export class LlmSettingsError extends Error {
  override readonly name = 'LlmSettingsError';
  constructor(
    message: string,
    /** `invalid_providers`, `invalid_prices`, `invalid_number`, `byok_disabled`, `invalid_settings`, `llm_not_configured`. */
    readonly code: 'invalid_providers' | 'invalid_prices' | 'invalid_number' | 'byok_disabled' | 'invalid_settings' | 'llm_not_configured',
  ) {
    super(message);
  }
}

/** One entry of `LLM_PROVIDERS` as written in the environment. */
const EnvProviderSchema = z
  .object({
    baseUrl: z.string().min(1),
    /** Name of the env secret holding the key (the key itself is never in a variable). */
    apiKeySecret: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    supportsJsonSchema: z.boolean().optional(),
    /** Azure `api-version`; both spellings accepted. */
    azureApiVersion: z.string().min(1).optional(),
    apiVersion: z.string().min(1).optional(),
  })
  .strict();

function str(env: LlmEnv, name: string): string | undefined {
  const v = env[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function positiveInt(env: LlmEnv, name: string): number | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new LlmSettingsError(`${name} must be a positive integer, got "${raw}"`, 'invalid_number');
  return n;
}

function parseJsonVar(env: LlmEnv, name: string, code: 'invalid_providers' | 'invalid_prices'): unknown {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw new LlmSettingsError(`${name} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, code);
  }
}

/**
 * Builds settings from the Worker environment.
 *
 * - provider `default`: `LLM_BASE_URL` (`mock` = {@link IN_PROCESS_MOCK_URL}) with secret `LLM_API_KEY`,
 *   or `opts.byokKey` when given and `ALLOW_BYOK` is `"true"`;
 * - `LLM_PROVIDERS` adds named providers, each key read from the env secret its `apiKeySecret` names
 *   (a missing secret leaves the provider keyless: calls then fail as `auth` unless the endpoint needs none);
 * - `LLM_MODEL` (default `gpt-4o-mini`), `LLM_TIMEOUT_MS` (default 60000 ms), `LLM_MAX_ATTEMPTS` (default 5),
 *   `LLM_PRICES` (optional price overrides).
 *
 * @throws LlmSettingsError on malformed variables; `llm_not_configured` when `LLM_BASE_URL` is empty (why:
 *   a deployment that forgot it must fail loudly, not answer with the mock's hash-based verdicts);
 *   `byok_disabled` when a BYOK key is given but the deployment does not allow it.
 */
export function settingsFromEnv(env: LlmEnv, opts: { byokKey?: string } = {}): LlmSettings {
  const byok = opts.byokKey?.trim();
  if (byok) {
    if (str(env, 'ALLOW_BYOK')?.toLowerCase() !== 'true') {
      throw new LlmSettingsError('this deployment does not accept caller-supplied API keys (ALLOW_BYOK is off)', 'byok_disabled');
    }
  }
  const defaultKey = byok || str(env, 'LLM_API_KEY');
  const base = str(env, 'LLM_BASE_URL');
  if (base === undefined) {
    throw new LlmSettingsError(
      'LLM_BASE_URL is not set: point it at an OpenAI-compatible endpoint (e.g. https://api.openai.com/v1), or set it to "mock" for the bundled mock LLM',
      'llm_not_configured',
    );
  }
  const providers: Record<string, ProviderSettings> = {
    [DEFAULT_PROVIDER_ID]: {
      baseUrl: base === 'mock' ? IN_PROCESS_MOCK_URL : base,
      ...(defaultKey ? { apiKey: defaultKey } : {}),
      headers: {},
      supportsJsonSchema: true,
    },
  };

  const table = parseJsonVar(env, 'LLM_PROVIDERS', 'invalid_providers');
  if (table !== undefined) {
    const parsed = z.record(z.string().min(1).max(64), EnvProviderSchema).safeParse(table);
    if (!parsed.success) {
      throw new LlmSettingsError(`LLM_PROVIDERS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, 'invalid_providers');
    }
    for (const [id, p] of Object.entries(parsed.data)) {
      const key = p.apiKeySecret ? str(env, p.apiKeySecret) : undefined;
      const apiVersion = p.azureApiVersion ?? p.apiVersion;
      providers[id] = {
        baseUrl: p.baseUrl,
        ...(key ? { apiKey: key } : {}),
        headers: p.headers ?? {},
        supportsJsonSchema: p.supportsJsonSchema ?? true,
        ...(apiVersion ? { azureApiVersion: apiVersion } : {}),
      };
    }
  }

  const prices = parseJsonVar(env, 'LLM_PRICES', 'invalid_prices');
  const maxAttempts = positiveInt(env, 'LLM_MAX_ATTEMPTS');
  const result = LlmSettingsSchema.safeParse({
    providers,
    defaultModel: str(env, 'LLM_MODEL'),
    timeoutMs: positiveInt(env, 'LLM_TIMEOUT_MS'),
    retry: maxAttempts !== undefined ? { maxAttempts } : undefined,
    prices,
  });
  if (!result.success) {
    throw new LlmSettingsError(
      `invalid LLM settings: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      prices !== undefined && result.error.issues.some((i) => i.path[0] === 'prices') ? 'invalid_prices' : 'invalid_settings',
    );
  }
  return result.data;
}

/** Completes hand-written settings with their defaults. @throws LlmSettingsError when invalid. */
export function resolveSettings(input: LlmSettingsInput): LlmSettings {
  const r = LlmSettingsSchema.safeParse(input);
  if (!r.success) {
    throw new LlmSettingsError(`invalid LLM settings: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, 'invalid_settings');
  }
  return r.data;
}
