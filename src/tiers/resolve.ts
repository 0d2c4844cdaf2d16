/**
 * @module
 * The service tier of a request, decided once at creation and stored with the evaluation (or batch):
 *
 * 1. the request's `tier`: a tier some provider of the judge does not offer is a 400 `tier_unsupported` naming
 *    that provider (a provider offers `flex` / `batch` only where the deployment declares it:
 *    `LLM_SUPPORTS_FLEX` / `LLM_SUPPORTS_BATCH`, `supportsFlex` / `supportsBatch` in `LLM_PROVIDERS`);
 * 2. else the tenant's default (`defaultTier`, admin API), where every provider of the judge offers it;
 * 3. else the providers' default (`LLM_DEFAULT_TIER`, `defaultTier` in `LLM_PROVIDERS`), when every provider of
 *    the judge names the same one and offers it;
 * 4. else `standard`.
 *
 * A default that a provider does not offer is passed over rather than refused: the caller did not ask for it,
 * and the evaluation shows the tier it runs at (`tier` on every evaluation and batch).
 */
import type { LlmSettings } from '../llm/settings.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import { supportsTier } from '../llm/tiers.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { judgeProviders } from '../methods/resolve-judge.js';
import { ApiError } from '../http/errors.js';
import type { ApiWarning } from '../http/warnings.js';
import { DEFAULT_PRICES, priceFor } from '../llm/pricing.js';
import { modelsOf } from '../budgets/request-budget.js';

/** A resolved tier and what a flex refusal leads to. */
export interface TierChoice {
  tier: Tier;
  flexFallback: FlexFallback;
}

/** What a request asked for (both optional). */
export interface TierAsked {
  tier?: Tier | undefined;
  flexFallback?: FlexFallback | undefined;
}

/** The deployment variable that declares a tier for the default provider, for the 400's message. */
function declaredBy(provider: string, tier: Tier, defaultProvider: string): string {
  const flag = tier === 'flex' ? 'supportsFlex' : 'supportsBatch';
  return provider === defaultProvider ? `LLM_SUPPORTS_${tier.toUpperCase()}` : `"${flag}" in LLM_PROVIDERS`;
}

/**
 * The first provider of `providers` that does not offer `tier`, or undefined when all do.
 */
function lacking(settings: LlmSettings, providers: readonly string[], tier: Tier): string | undefined {
  return providers.find((p) => !supportsTier(settings, p, tier));
}

/**
 * The tier a request runs at (see the module notes).
 * @param tenantDefault the tenant's `defaultTier` (`EffectiveLimits.defaultTier`), or null
 * @param field the request field named by a 400 (`tier`)
 * @throws ApiError 400 `tier_unsupported` when the request's own tier is one a provider of the judge lacks.
 */
export function resolveTier(
  env: object,
  judge: ResolvedJudge,
  asked: TierAsked,
  tenantDefault: Tier | null,
  field = 'tier',
): TierChoice {
  const settings = settingsFromEnv(llmEnvOf(env));
  return resolveTierFor(env, judgeProviders(judge, settings.defaultProvider), asked, tenantDefault, field);
}

/**
 * The tier a request runs at whose calls go to `providers` (ids of the deployment's LLM providers): as
 * {@link resolveTier}, for callers without a judge (an Evals run's sampler and model graders).
 * @throws ApiError 400 `tier_unsupported` naming `field`.
 */
export function resolveTierFor(
  env: object,
  providers: readonly string[],
  asked: TierAsked,
  tenantDefault: Tier | null,
  field = 'tier',
): TierChoice {
  const settings = settingsFromEnv(llmEnvOf(env));
  const flexFallback = asked.flexFallback ?? 'standard';
  if (asked.tier !== undefined) {
    const missing = lacking(settings, providers, asked.tier);
    if (missing !== undefined) {
      const message = `provider "${missing}" does not offer the ${asked.tier} tier (this deployment declares it with ${declaredBy(missing, asked.tier, settings.defaultProvider)})`;
      throw new ApiError(400, 'tier_unsupported', `${field}: ${message}`, [{ path: field, message }]);
    }
    return { tier: asked.tier, flexFallback };
  }
  if (tenantDefault !== null && lacking(settings, providers, tenantDefault) === undefined)
    return { tier: tenantDefault, flexFallback };
  const defaults = new Set(providers.map((p) => settings.providers[p]?.defaultTier ?? 'standard'));
  const [only] = defaults;
  if (defaults.size === 1 && only !== undefined && lacking(settings, providers, only) === undefined)
    return { tier: only, flexFallback };
  return { tier: 'standard', flexFallback };
}

/**
 * A `tier_price_missing` warning for each model of the judge that has a standard price but none for `tier`
 * (`flex` or `batch`) in the deployment's price table: its calls there are billed at the standard price
 * (src/llm/pricing.ts, docs/pricing.md). None at `standard`, and none for a model without any price or a free
 * one (billed 0 either way). Call after `checkLlmConfig` (the settings are valid).
 * @param field the request field the warning names (`tier`)
 */
export function tierPriceWarnings(env: object, judge: ResolvedJudge, tier: Tier, field = 'tier'): ApiWarning[] {
  if (tier === 'standard') return [];
  return modelPriceWarnings(env, modelsOf(judge.config, settingsFromEnv(llmEnvOf(env))), tier, field);
}

/**
 * {@link tierPriceWarnings} for the models a request calls, each with its provider (an Evals run's sampler
 * and model graders).
 */
export function modelPriceWarnings(
  env: object,
  models: readonly { model: string; provider: string }[],
  tier: Tier,
  field = 'tier',
): ApiWarning[] {
  if (tier === 'standard') return [];
  const settings = settingsFromEnv(llmEnvOf(env));
  const table = { ...DEFAULT_PRICES, ...settings.prices };
  return models.flatMap(({ model, provider }): ApiWarning[] => {
    const price = priceFor(model, provider, table);
    if (!price || price[tier] !== undefined || (price.input === 0 && price.output === 0)) return [];
    return [
      {
        code: 'tier_price_missing',
        field,
        message: `model "${model}" (provider "${provider}") has no ${tier} price in this deployment's price table (LLM_PRICES): its calls are billed at the standard price`,
      },
    ];
  });
}
