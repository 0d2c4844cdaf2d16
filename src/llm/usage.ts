/**
 * @module
 * Usage of one call from a provider's `usage` block (or an estimate), and sums over many calls.
 * Sums reuse the engine's {@link addUsage}, so there is one definition of adding usages.
 * Cached prompt tokens (`usage.prompt_tokens_details.cached_tokens`) are the engine's `cachedPromptTokens`;
 * {@link TierUsage} adds the tier that answered and the USD the prompt cache saved.
 */
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatMessage, LlmCallResult, Usage } from '../engine/call.js';
import { addUsage, ZERO_USAGE } from '../engine/call.js';
import type { ModelPrice } from './pricing.js';
import { costOf } from './pricing.js';
import type { Tier } from './tiers.js';
import { estimatePromptTokens, estimateTokens } from './token-estimate.js';

/** The `usage` block of an OpenAI-compatible chat completion, as far as we read it. */
export interface ProviderUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}
/** `Actual`, when it is assignable to `Expected`; a compile error otherwise. */
type Conforms<Actual extends Expected, Expected> = Actual;
/** The `openai` package's usage block is one {@link ProviderUsage} reads: a compile error when they drift. */
export type ProviderUsageConforms = Conforms<CompletionUsage, ProviderUsage>;

function count(n: number | null | undefined): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

/**
 * A call's usage with its tier: the engine's {@link Usage} (`cachedPromptTokens` are the provider's
 * `prompt_tokens_details.cached_tokens`; `costUsd` at the tier's price), the tier of the attempt that
 * answered, and the USD the prompt cache saved at that tier's prices.
 */
export interface TierUsage extends Usage {
  tier: Tier;
  cacheSavedUsd: number;
}

/** The engine's {@link Usage} out of a {@link TierUsage} (what a stored `LlmCallResult` holds, the USD saved included). */
export function plainUsage(u: TierUsage): Usage {
  const { tier: _tier, ...usage } = u;
  return usage;
}

/**
 * Usage of one call. Reported counts are used when present; otherwise both counts are estimated
 * with the approximate tokenizer (see `tokens.ts`) and `estimated` is true. Cost from `price` at `tier`
 * (0 without a price; see `costOf` in `pricing.ts`).
 * @param content the reply, or every choice of a request with `n` (one prompt, the choices' completions summed).
 * @param tier the tier that answered; default `standard`
 */
export function usageOf(
  reported: ProviderUsage | null | undefined,
  messages: readonly ChatMessage[],
  content: string | readonly string[],
  price: ModelPrice | undefined,
  tier: Tier = 'standard',
): TierUsage {
  const prompt = count(reported?.prompt_tokens);
  const completion = count(reported?.completion_tokens);
  const estimated = prompt === undefined || completion === undefined;
  const promptTokens = prompt ?? estimatePromptTokens(messages);
  const completionTokens =
    completion ?? (typeof content === 'string' ? [content] : content).reduce((n, c) => n + estimateTokens(c), 0);
  const cachedPromptTokens = Math.min(count(reported?.prompt_tokens_details?.cached_tokens) ?? 0, promptTokens);
  const cost = costOf({ promptTokens, completionTokens, cachedPromptTokens }, price, tier);
  return {
    promptTokens,
    completionTokens,
    cachedPromptTokens,
    estimated,
    costUsd: cost.costUsd,
    tier,
    cacheSavedUsd: cost.cacheSavedUsd,
  };
}

/** Summed usage of the successful results (failed calls carry no usage). Identity: {@link ZERO_USAGE}. */
export function sumUsage(results: Iterable<LlmCallResult>): Usage {
  let total = ZERO_USAGE;
  for (const r of results) if (r.ok) total = addUsage(total, r.usage);
  return total;
}
