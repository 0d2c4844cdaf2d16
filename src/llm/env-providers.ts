/**
 * @module
 * The providers an environment names besides the default one (`LLM_PROVIDERS`, read by `settingsFromEnv` in
 * ./settings.ts), and the JSON variables' reading.
 */
import { z } from 'zod';
import { LlmSettingsError } from './settings-error.js';
import { DEFAULT_BATCH_TURNAROUND_SECONDS, TierSchema } from './tiers.js';

/** One entry of `LLM_PROVIDERS` as written in the environment. */
const EnvProviderSchema = z
  .object({
    baseUrl: z.string().min(1),
    /** Name of the env secret holding the key (the key itself is never in a variable). */
    apiKeySecret: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    supportsJsonSchema: z.boolean().optional(),
    /** Whether the provider honours OpenAI's `n`. Default false. */
    supportsN: z.boolean().optional(),
    /** Whether the provider offers flex processing. Default false. */
    supportsFlex: z.boolean().optional(),
    /** Whether the provider offers OpenAI's Batch API. Default false. */
    supportsBatch: z.boolean().optional(),
    /** Whether the provider accepts `prompt_cache_key`. Default false. */
    supportsPromptCacheKey: z.boolean().optional(),
    /** Whether the provider speaks OpenAI's Responses API. Default false. */
    supportsResponses: z.boolean().optional(),
    /** The provider's default tier. Default `standard`. */
    defaultTier: TierSchema.optional(),
    /** The provider's typical Batch API turnaround, seconds. Default 3,600. */
    batchTurnaroundSeconds: z.number().positive().optional(),
    /** Azure `api-version`; both spellings accepted. */
    azureApiVersion: z.string().min(1).optional(),
    apiVersion: z.string().min(1).optional(),
  })
  .strict();

/** A secret the environment names at run time (a provider's `apiKeySecret`), trimmed; undefined when unset or empty. */
function secretOf(env: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = env[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** A JSON variable's value, or undefined when it is empty. */
export function parseJsonVar(raw: string, name: string, reason: 'invalid_providers' | 'invalid_prices'): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw new LlmSettingsError(reason, `${name} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** One `LLM_PROVIDERS` entry as a provider of the settings (./settings.ts `ProviderSettings`), capabilities defaulted. */
function providerOf(env: Readonly<Record<string, unknown>>, p: z.infer<typeof EnvProviderSchema>) {
  const key = p.apiKeySecret ? secretOf(env, p.apiKeySecret) : undefined;
  const apiVersion = p.azureApiVersion ?? p.apiVersion;
  return {
    baseUrl: p.baseUrl,
    ...(key ? { apiKey: key } : {}),
    headers: p.headers ?? {},
    supportsJsonSchema: p.supportsJsonSchema ?? true,
    supportsN: p.supportsN ?? false,
    supportsFlex: p.supportsFlex ?? false,
    supportsBatch: p.supportsBatch ?? false,
    supportsPromptCacheKey: p.supportsPromptCacheKey ?? false,
    supportsResponses: p.supportsResponses ?? false,
    defaultTier: p.defaultTier ?? 'standard',
    batchTurnaroundSeconds: p.batchTurnaroundSeconds ?? DEFAULT_BATCH_TURNAROUND_SECONDS,
    ...(apiVersion ? { azureApiVersion: apiVersion } : {}),
  };
}

/**
 * The named providers of `LLM_PROVIDERS` (a JSON table; empty: none), each key read from the env secret its
 * `apiKeySecret` names (a missing secret leaves the provider keyless) and every capability defaulted.
 * @throws LlmSettingsError `invalid_providers` when the table is not valid JSON or not of the schema.
 */
export function providersFromEnv(
  env: Readonly<Record<string, unknown>>,
  raw: string,
): Record<string, ReturnType<typeof providerOf>> {
  const table = parseJsonVar(raw, 'LLM_PROVIDERS', 'invalid_providers');
  if (table === undefined) return {};
  const parsed = z.record(z.string().min(1).max(64), EnvProviderSchema).safeParse(table);
  if (!parsed.success) {
    throw new LlmSettingsError(
      'invalid_providers',
      `LLM_PROVIDERS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return Object.fromEntries(Object.entries(parsed.data).map(([id, p]) => [id, providerOf(env, p)]));
}
