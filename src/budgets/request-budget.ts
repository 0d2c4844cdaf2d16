/**
 * @module
 * A budget at the API boundary, for every route that takes one (`POST /v1/evaluations`, `/v1/estimates`,
 * batches): the request's top-level `budget` becomes the resolved config's `budget` (where the engine and
 * the Durable Object read it), and a `maxCostUsd` is refused when a model the judge calls has no price,
 * since its cost would count as 0 and the limit would be silently ignored.
 */
import { ApiError, invalidRequest } from '../http/errors.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import type { LlmEnv } from '../llm/settings.js';
import { settingsFromEnv } from '../llm/settings.js';
import { DEFAULT_PRICES, priceFor } from '../llm/pricing.js';
import type { Budget } from '../engine/budget.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The config overrides with the top-level budget at `budget` (`config` unchanged without one).
 * @throws ApiError 400 `invalid_request` when both `budget` and `config.budget` are given.
 */
export function withBudget(
  config: Record<string, unknown> | undefined,
  budget: Budget | undefined,
): Record<string, unknown> | undefined {
  if (budget === undefined) return config;
  if (config?.budget !== undefined) {
    throw invalidRequest([
      { path: 'budget', message: 'give the budget once: as `budget` or as `config.budget`, not both' },
    ]);
  }
  return { ...config, budget };
}

/** Every model and provider a resolved config may call: each agent's settings over `defaults`, over the deployment's. */
export function modelsOf(
  config: ResolvedJudge['config'],
  deployment: { defaultModel: string; defaultProvider: string },
): { model: string; provider: string }[] {
  const defaults = isObject(config.defaults) ? config.defaults : {};
  const base = {
    model: typeof defaults.model === 'string' ? defaults.model : deployment.defaultModel,
    provider: typeof defaults.provider === 'string' ? defaults.provider : deployment.defaultProvider,
  };
  const out = new Map<string, { model: string; provider: string }>([[`${base.provider}\u0000${base.model}`, base]]);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    if (!isObject(v)) return;
    if (typeof v.model === 'string' || typeof v.provider === 'string') {
      const pair = {
        model: typeof v.model === 'string' ? v.model : base.model,
        provider: typeof v.provider === 'string' ? v.provider : base.provider,
      };
      out.set(`${pair.provider}\u0000${pair.model}`, pair);
    }
    Object.values(v).forEach(walk);
  };
  walk(config);
  return [...out.values()];
}

/**
 * Refuses a `maxCostUsd` the price table cannot enforce. Call after `checkLlmConfig` (the settings are valid).
 * @throws ApiError 400 `invalid_request` naming `budget.maxCostUsd` and the unpriced models.
 */
export function checkBudgetPrices(env: LlmEnv, judge: ResolvedJudge): void {
  const budget = judge.config.budget;
  if (!isObject(budget) || budget.maxCostUsd === undefined) return;
  const settings = settingsFromEnv(env);
  const table = { ...DEFAULT_PRICES, ...settings.prices };
  const unpriced = modelsOf(judge.config, settings).filter((m) => priceFor(m.model, m.provider, table) === undefined);
  if (unpriced.length === 0) return;
  const names = unpriced.map((m) => `"${m.model}"`).join(', ');
  throw new ApiError(
    400,
    'invalid_request',
    `budget.maxCostUsd: no price for ${names} in this deployment's price table (LLM_PRICES), so its cost cannot be limited; set maxCalls or maxTokens instead`,
    [{ path: 'budget.maxCostUsd', message: `no price for ${names}` }],
  );
}
