/**
 * @module
 * An estimate per service tier (`tiers` of `POST /v1/estimates`): what the same calls cost at each tier's
 * price and how long they take.
 *
 * - Cost: each model's tokens at the tier's price (`priceAtTier`: the price table's `flex` / `batch` price,
 *   else the standard one), every prompt token at the uncached input price, as the standard figure counts them.
 * - Time of one evaluation: its rounds of dependent calls (`waves`) times a round's time. A round takes
 *   {@link STANDARD_ROUND_SECONDS} typically at `standard`, {@link FLEX_ROUND_SECONDS} at `flex` (flex is slower
 *   and may queue), and at worst every attempt of the retry policy to its timeout (`LLM_TIMEOUT_MS`, flex
 *   `LLM_FLEX_TIMEOUT_MS`). Items of a batch run `BATCH_CONCURRENCY` at a time at these two tiers.
 * - `batch`: every item's ready calls go in the same provider batch, so a batch takes its deepest item's
 *   rounds, each the provider's turnaround (`batchTurnaroundSeconds`, the slowest of the judge's providers)
 *   typically and the 24 h completion window at worst.
 * A tier some provider of the judge does not offer is `available: false`, with why.
 */
import type { LlmSettings } from '../llm/settings.js';
import { priceAtTier } from '../llm/pricing.js';
import type { Tier } from '../llm/tiers.js';
import { BATCH_COMPLETION_WINDOW_SECONDS, supportsTier, TIERS } from '../llm/tiers.js';
import type { CallMeter } from '../budgets/meter.js';
import type { Estimate, Figures } from '../budgets/estimate.js';

/** Typical time of one round of calls at the standard tier, s. */
export const STANDARD_ROUND_SECONDS = 10;
/** Typical time of one round of calls at the flex tier, s. */
export const FLEX_ROUND_SECONDS = 60;

/** One tier's figures. */
export interface TierEstimate {
  /** Whether every provider of the judge offers the tier here. */
  available: boolean;
  /** Why not, when it is not. */
  unavailableReason?: string;
  /** USD at the tier's price. */
  costUsd: { min: number; expected: number; max: number };
  /** Seconds until every evaluation has its verdict. */
  seconds: { typical: number; worst: number };
}

/** What the tier figures are made from. */
export interface TierInputs {
  estimate: Estimate;
  settings: LlmSettings;
  meter: CallMeter;
  /** The providers of the judge. */
  providers: readonly string[];
  /** Items of a batch run at once at `standard` and `flex` (`BATCH_CONCURRENCY`). */
  concurrency: number;
}

function costAt(e: Estimate, meter: CallMeter, tier: Tier, level: 'min' | 'expected' | 'max'): number {
  let usd = 0;
  for (const m of e.models) {
    const price = priceAtTier(meter.price(m.model, m.provider), tier);
    if (!price) continue;
    const f: Figures = m[level];
    usd += (f.promptTokens * price.input + f.completionTokens * price.output) / 1_000_000;
  }
  return usd;
}

/** The estimate at every tier (module notes). */
export function tierEstimates(i: TierInputs): Record<Tier, TierEstimate> {
  const { estimate: e, settings } = i;
  const turnaround = Math.max(0, ...i.providers.map((p) => settings.providers[p]?.batchTurnaroundSeconds ?? 0));
  const attempts = settings.retry.maxAttempts;
  const rounds = (n: number) => Math.ceil(e.evaluations / Math.max(1, i.concurrency)) * n;
  const seconds: Record<Tier, TierEstimate['seconds']> = {
    standard: {
      typical: rounds(e.waves.max) * STANDARD_ROUND_SECONDS,
      worst: (rounds(e.waves.max) * attempts * settings.timeoutMs) / 1000,
    },
    flex: {
      typical: rounds(e.waves.max) * FLEX_ROUND_SECONDS,
      worst: (rounds(e.waves.max) * attempts * settings.flexTimeoutMs) / 1000,
    },
    batch: {
      typical: e.waves.max * turnaround,
      worst: e.waves.max * BATCH_COMPLETION_WINDOW_SECONDS,
    },
  };
  const out = {} as Record<Tier, TierEstimate>;
  for (const tier of TIERS) {
    const missing = i.providers.find((p) => !supportsTier(settings, p, tier));
    const reason = missing !== undefined ? `provider "${missing}" does not offer the ${tier} tier` : undefined;
    out[tier] = {
      available: reason === undefined,
      ...(reason !== undefined ? { unavailableReason: reason } : {}),
      // The standard figure is the estimate's own (the meter's); the others at their tier's price.
      costUsd:
        tier === 'standard'
          ? { min: e.min.costUsd, expected: e.expected.costUsd, max: e.max.costUsd }
          : {
              min: costAt(e, i.meter, tier, 'min'),
              expected: costAt(e, i.meter, tier, 'expected'),
              max: costAt(e, i.meter, tier, 'max'),
            },
      seconds: seconds[tier],
    };
  }
  return out;
}
