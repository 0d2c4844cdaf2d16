/**
 * @module
 * Usage of one call from a provider's `usage` block (or an estimate), and sums over many calls.
 * Sums reuse the engine's {@link addUsage}, so there is one definition of adding usages.
 */
import type { ChatMessage, LlmCallResult, Usage } from '../engine/call.js';
import { addUsage, ZERO_USAGE } from '../engine/call.js';
import type { ModelPrice } from './pricing.js';
import { costUsd } from './pricing.js';
import { estimatePromptTokens, estimateTokens } from './tokens.js';

/** The `usage` block of an OpenAI-compatible chat completion, as far as we read it. */
export interface ProviderUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}

function count(n: number | null | undefined): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

/**
 * Usage of one call. Reported counts are used when present; otherwise both counts are estimated
 * with the approximate tokenizer (see `tokens.ts`) and `estimated` is true. Cost from `price` (0 without).
 * @param content the reply, or every choice of a request with `n` (one prompt, the choices' completions summed).
 */
export function usageOf(
  reported: ProviderUsage | null | undefined,
  messages: readonly ChatMessage[],
  content: string | readonly string[],
  price: ModelPrice | undefined,
): Usage {
  const prompt = count(reported?.prompt_tokens);
  const completion = count(reported?.completion_tokens);
  const estimated = prompt === undefined || completion === undefined;
  const promptTokens = prompt ?? estimatePromptTokens(messages);
  const completionTokens =
    completion ?? (typeof content === 'string' ? [content] : content).reduce((n, c) => n + estimateTokens(c), 0);
  const cachedPromptTokens = Math.min(count(reported?.prompt_tokens_details?.cached_tokens) ?? 0, promptTokens);
  return {
    promptTokens,
    completionTokens,
    cachedPromptTokens,
    estimated,
    costUsd: costUsd({ promptTokens, completionTokens, cachedPromptTokens }, price),
  };
}

/** Summed usage of the successful results (failed calls carry no usage). Identity: {@link ZERO_USAGE}. */
export function sumUsage(results: Iterable<LlmCallResult>): Usage {
  let total = ZERO_USAGE;
  for (const r of results) if (r.ok) total = addUsage(total, r.usage);
  return total;
}
