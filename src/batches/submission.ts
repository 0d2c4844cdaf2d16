/**
 * @module
 * What every multi-item submission (a batch, a comparison, a meta-evaluation) checks and resolves first, in
 * one order: the judge, the LLM settings it needs, the tenant's limits (read once and handed on), the tier,
 * and the webhook URL with its signing secret.
 */
import type { Bindings } from '../config/bindings.js';
import type { CreatorInfo } from '../evaluations/service.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import { limitsFor } from '../evaluations/service.js';
import { llmEnvOf } from '../llm/settings.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { checkLlmConfig, resolveJudge } from '../methods/resolve-judge.js';
import type { TierAsked, TierChoice } from '../tiers/resolve.js';
import { resolveTier, tierPriceWarnings } from '../tiers/resolve.js';
import type { ApiWarning } from '../http/warnings.js';
import { requireSigningSecret, requireWebhookUrl } from '../webhooks/url-checks.js';

/** The parts of a submission's request {@link resolveSubmission} reads. */
export interface SubmissionAsked extends TierAsked {
  preset?: string | undefined;
  config?: Record<string, unknown> | undefined;
  webhook?: { url: string } | undefined;
}

/** What {@link resolveSubmission} resolved. */
export interface ResolvedSubmission {
  judge: ResolvedJudge;
  /** The creator with the tenant's limits filled in, for the later checks (rubric steps, quota). */
  creator: CreatorInfo & { limits: EffectiveLimits };
  tier: TierChoice;
  /** The checked webhook URL, or null without one. */
  webhookUrl: string | null;
  /** What the answer warns about (`tier_price_missing`). */
  warnings: ApiWarning[];
}

/**
 * Resolves and checks a submission's judge, limits, tier and webhook.
 * @throws ApiError 400 (the judge, `tier_unsupported`, `webhook.url`), 503 `llm_not_configured`.
 */
export async function resolveSubmission(
  env: Bindings,
  tenant: string,
  request: SubmissionAsked,
  creator: CreatorInfo,
): Promise<ResolvedSubmission> {
  const judge = resolveJudge(request.preset, request.config);
  checkLlmConfig(llmEnvOf(env), judge);
  const limits = await limitsFor(env, tenant, creator.limits);
  const tier = resolveTier(env, judge, request, limits.defaultTier);
  const webhookUrl = request.webhook ? requireWebhookUrl(env, request.webhook.url, 'webhook.url') : null;
  if (webhookUrl !== null) await requireSigningSecret(env, tenant, 'webhook.url');
  return {
    judge,
    creator: { ...creator, limits },
    tier,
    webhookUrl,
    warnings: tierPriceWarnings(env, judge, tier.tier),
  };
}
