/**
 * @module
 * A tenant's limits and quotas: what the operator set for it (`tenants` row; null = not set) over the
 * deployment's defaults (wrangler.toml `[vars]`). Pure; the D1 side is ./rows.ts.
 */
import { z } from 'zod';
import { configOf } from '../config/vars.js';
import type { Tier } from '../llm/tiers.js';
import { TierSchema } from '../llm/tiers.js';
import { MAX_SPREAD } from '../config/d1-buckets.js';

/** A request rate: `requests` per `windowSeconds`, as a token bucket that holds up to `requests`. */
export const RatePolicySchema = z
  .object({
    requests: z.number().int().min(1).max(1_000_000).describe('Requests per window (also the largest burst).'),
    windowSeconds: z.number().int().min(1).max(86_400).describe('Window length, seconds.'),
  })
  .strict();
/** A request rate (token bucket). */
export type RatePolicy = z.infer<typeof RatePolicySchema>;

/** What an operator may set per tenant; `null` = the deployment's default (rate, running) or no cap (quotas). */
export const TenantLimitsSchema = z
  .object({
    rateLimit: RatePolicySchema.nullable().describe(
      'Per-key request rate; null = the deployment default (RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS).',
    ),
    maxRunning: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .nullable()
      .describe(
        'Evaluations running at once (those at tier batch, asleep between their waves, not counted); beyond it they wait in the queue. Null = TENANT_MAX_RUNNING.',
      ),
    monthlySpendCapUsd: z
      .number()
      .min(0)
      .max(1e9)
      .nullable()
      .describe(
        'LLM spend per calendar month (UTC), USD; at the cap new submissions get 429 quota_exceeded. Null = no cap.',
      ),
    monthlyEvaluationCap: z
      .number()
      .int()
      .min(0)
      .max(1e9)
      .nullable()
      .describe('Evaluations created per calendar month (UTC); null = no cap.'),
    retentionDays: z
      .number()
      .int()
      .min(0)
      .max(36_500)
      .nullable()
      .describe(
        "Days an ended evaluation's task, transcript and verdict are kept, then erased as DELETE does (usage stays); a batch's items are counted from the batch's completion. 0 = until deleted. Null = RETENTION_DAYS (30).",
      ),
    storeContent: z
      .boolean()
      .nullable()
      .describe(
        'false: task texts and transcripts are never kept past the verdict (only their hashes, the verdict and usage), and logs carry no content. Null = true.',
      ),
    defaultTier: TierSchema.nullable().describe(
      "The service tier of the tenant's evaluations, batches and meta-evaluations that name none, where every provider of the judge offers it; null = the providers' default (else `standard`).",
    ),
    spread: z
      .number()
      .int()
      .min(1)
      .max(MAX_SPREAD)
      .refine((n) => (n & (n - 1)) === 0, 'must be a power of two (1, 2, 4, … 64)')
      .nullable()
      .describe(
        "D1 shards the tenant's new evaluations and batches are spread over (a power of two, 1-64; a batch's items stay with their batch); for a tenant whose verdicts one database cannot hold (docs/scale.md). Lowering it moves nothing: rows written under a larger spread stay listed and readable. The running cap is shared out between the shards. Null or absent = 1.",
      ),
  })
  .strict();
/** Per-tenant settings (null = default / no cap). */
export type TenantLimits = z.infer<typeof TenantLimitsSchema>;

/** No per-tenant setting: every default applies and there is no quota. */
export const NO_TENANT_LIMITS: TenantLimits = {
  rateLimit: null,
  maxRunning: null,
  monthlySpendCapUsd: null,
  monthlyEvaluationCap: null,
  retentionDays: null,
  storeContent: null,
  defaultTier: null,
  spread: null,
};

/** The limits that apply: the tenant's own where set, else the deployment's. */
export interface EffectiveLimits {
  rateLimit: RatePolicy;
  maxRunning: number;
  monthlySpendCapUsd: number | null;
  monthlyEvaluationCap: number | null;
  /** Days content is kept after an evaluation's end (a batch item's: its batch's completion); 0 = until deleted. */
  retentionDays: number;
  /** Whether task texts and transcripts are kept past the verdict. */
  storeContent: boolean;
  /** The tenant's default tier, or null (the providers' default applies). */
  defaultTier: Tier | null;
  /** D1 shards its new evaluations and batches hash over (1 = its home shard only). */
  spread: number;
  /** D1 shards its evaluations and batches may be in: the largest spread it ever had (tenant-wide reads visit them). */
  readSpread: number;
}

/**
 * The deployment's defaults (src/config/vars.ts): the per-key rate `RATE_LIMIT_REQUESTS` per
 * `RATE_LIMIT_WINDOW_SECONDS` (600 per 60 s), the running cap `TENANT_MAX_RUNNING` (100).
 * @param env the Worker's bindings (any object holding the variables).
 * @throws ConfigError when one of them is invalid.
 */
export function deploymentDefaults(env: object): { rateLimit: RatePolicy; maxRunning: number } {
  const c = configOf(env);
  return {
    rateLimit: { requests: c.RATE_LIMIT_REQUESTS, windowSeconds: c.RATE_LIMIT_WINDOW_SECONDS },
    maxRunning: c.TENANT_MAX_RUNNING,
  };
}

/**
 * The tenant's settings over the deployment's defaults.
 * @param spreadSeen the largest spread the tenant ever had (its row's `spread_seen`); null = its spread.
 */
export function effectiveLimits(own: TenantLimits, env: object, spreadSeen: number | null = null): EffectiveLimits {
  const d = deploymentDefaults(env);
  const spread = own.spread ?? 1;
  return {
    rateLimit: own.rateLimit ?? d.rateLimit,
    maxRunning: own.maxRunning ?? d.maxRunning,
    monthlySpendCapUsd: own.monthlySpendCapUsd,
    monthlyEvaluationCap: own.monthlyEvaluationCap,
    retentionDays: own.retentionDays ?? configOf(env).RETENTION_DAYS,
    storeContent: own.storeContent ?? true,
    defaultTier: own.defaultTier,
    spread,
    readSpread: Math.max(spread, spreadSeen ?? 1),
  };
}
