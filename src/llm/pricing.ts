/**
 * @module
 * Model prices and the cost of one call.
 *
 * Prices are USD per 1 million tokens, list prices as published by the providers up to early 2025
 * (the date of our knowledge); they change, so deployments override them through
 * `LlmSettings.prices` (or the `LLM_PRICES` JSON variable). A model without a price costs 0, as
 * the Usage contract says.
 */
import { z } from 'zod';

/** One model's price, USD per 1M tokens. */
export const ModelPriceSchema = z
  .object({
    /** Uncached input (prompt) tokens, USD per 1M. */
    input: z.number().nonnegative(),
    /** Input tokens served from the provider's prompt cache, USD per 1M; default: the input price. */
    cachedInput: z.number().nonnegative().optional(),
    /** Output (completion) tokens, USD per 1M. */
    output: z.number().nonnegative(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/**
 * Price table keyed by model name, or by `provider:model` for a price that only holds at one
 * provider (looked up first). Keys are matched exactly, then as the longest prefix of the model name
 * after stripping an OpenRouter-style vendor prefix is tried both with and without it.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Default prices (USD per 1M tokens, early-2025 list prices). `mock` models are free. */
export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Anthropic through OpenRouter (vendor-prefixed names); cache reads at 10% of input.
  'anthropic/claude-3.5-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-3.7-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-3.5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  'anthropic/claude-3-haiku': { input: 0.25, cachedInput: 0.03, output: 1.25 },
  'anthropic/claude-opus-4': { input: 15, cachedInput: 1.5, output: 75 },
  // Cohere's Command R (PoLL's panel, preset poll-3); OpenRouter's `cohere/…` finds it too.
  'command-r-08-2024': { input: 0.15, output: 0.6 },
  // Llama 3.x 70B: Groq and Together names.
  'llama-3.3-70b-versatile': { input: 0.59, output: 0.79 },
  'llama-3.1-70b-versatile': { input: 0.59, output: 0.79 },
  'llama-3.1-8b-instant': { input: 0.05, output: 0.08 },
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': { input: 0.88, output: 0.88 },
  'meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo': { input: 0.88, output: 0.88 },
  'meta-llama/llama-3.3-70b-instruct': { input: 0.13, output: 0.4 },
  // Our mock server.
  mock: { input: 0, output: 0 },
};

function longestPrefix(table: PriceTable, name: string): ModelPrice | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (name.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The price of a model, or undefined when the table has none.
 * Lookup order: `provider:model` exact, `model` exact, then the longest key that prefixes the model
 * name (so dated snapshots like `gpt-4o-mini-2024-07-18` find `gpt-4o-mini`), then the same without an
 * OpenRouter vendor prefix (`openai/gpt-4o` finds `gpt-4o`). Case-sensitive, as providers are.
 */
export function priceFor(model: string, provider?: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | undefined {
  if (provider !== undefined) {
    const scoped = table[`${provider}:${model}`];
    if (scoped) return scoped;
  }
  const direct = table[model] ?? longestPrefix(table, model);
  if (direct) return direct;
  const slash = model.indexOf('/');
  if (slash > 0) {
    const bare = model.slice(slash + 1);
    return table[bare] ?? longestPrefix(table, bare);
  }
  return undefined;
}

/** Token counts a cost is computed from. */
export interface TokenCounts {
  /** All prompt tokens, cached ones included. */
  promptTokens: number;
  /** Of the prompt tokens, those served from the prompt cache. */
  cachedPromptTokens: number;
  completionTokens: number;
}

/**
 * Cost of one call in USD: uncached input at the input price, cached input at the cached price (the
 * input price when the table has none), output at the output price. 0 without a price.
 */
export function costUsd(tokens: TokenCounts, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const cached = Math.min(tokens.cachedPromptTokens, tokens.promptTokens);
  const uncached = tokens.promptTokens - cached;
  const usd =
    uncached * price.input + cached * (price.cachedInput ?? price.input) + tokens.completionTokens * price.output;
  return usd / 1_000_000;
}
