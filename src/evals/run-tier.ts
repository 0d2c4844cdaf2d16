/**
 * @module
 * The service tier of a run's model calls (the sampler's and the model graders'), resolved at create by the
 * tiers' rules (src/tiers/resolve.ts) for the one provider those calls go to (the deployment's default), with
 * the price warnings every tiered request gets. A Tribunal judge as a grader's model runs its evaluation at
 * the run's tier; at `batch` the run does not wait for its verdict but looks again later (./run-waves.ts).
 */
import type { Bindings } from '../config/bindings.js';
import { ApiError } from '../http/errors.js';
import type { ApiWarning } from '../http/warnings.js';
import type { Tier } from '../llm/tiers.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { LlmSettingsError } from '../llm/settings-error.js';
import { modelPriceWarnings, resolveTierFor } from '../tiers/resolve.js';
import { isJudgeModel } from './judge-grader.js';
import type { EvalRecord } from './rows.js';
import type { RunDataSource } from './run-schemas.js';

/** The request field a tier's 400 and warnings name. */
const FIELD = 'service_tier';

/** Every `model` a value names (a grader's, a `multi`'s graders'), in order, once each. */
export function modelsNamed(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) modelsNamed(v, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'model' && typeof v === 'string') into.add(v);
      else modelsNamed(v, into);
    }
  }
  return into;
}

/** A run's tier and the warnings of its answer. */
export interface RunTier {
  tier: Tier;
  warnings: ApiWarning[];
}

/**
 * The tier of a new run of `ev` over `ds` (see the module note). A run that calls no model runs at
 * `standard` unless it asks for a tier, which is then checked all the same.
 * @throws ApiError 400 `tier_unsupported` naming `service_tier`; 503 `llm_not_configured`.
 */
export function runTier(
  env: Bindings,
  ev: EvalRecord,
  ds: RunDataSource,
  asked: Tier | undefined,
  tenantDefault: Tier | null,
): RunTier {
  const named = modelsNamed(ev.testingCriteria);
  if (ds.type !== 'jsonl' && ds.model !== undefined) named.add(ds.model);
  const models = [...named].filter((m) => !isJudgeModel(m));
  if (asked === undefined && named.size === 0) return { tier: 'standard', warnings: [] };
  let provider: string;
  try {
    provider = settingsFromEnv(llmEnvOf(env)).defaultProvider;
  } catch (err) {
    if (err instanceof LlmSettingsError) throw new ApiError(503, 'llm_not_configured', err.message);
    throw err;
  }
  const tier = resolveTierFor(env, [provider], { tier: asked }, tenantDefault, FIELD).tier;
  const priced = models.map((model) => ({ model, provider }));
  return { tier, warnings: modelPriceWarnings(env, priced, tier, FIELD) };
}
