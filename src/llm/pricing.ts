/**
 * @module
 * Model prices per service tier, and the cost of one call.
 *
 * Prices are USD per 1 million tokens: list prices as the providers published them on their pricing pages
 * (OpenAI: platform.openai.com/docs/pricing, its Standard, Flex and Batch tabs; Together: its batch
 * inference announcement), as we knew them in mid-2025. They change, so deployments override them through
 * `LlmSettings.prices` (or the `LLM_PRICES` JSON variable). A model without a price costs 0, as the Usage
 * contract says.
 *
 * Tiers: OpenAI prices flex and batch at half the standard price ("Tokens are priced at Batch API rates",
 * flex guide; "50% cost discount", batch guide) and lists flex for o3, o4-mini and the gpt-5 family only;
 * Together's batch inference is half price too. Where a provider publishes no price for a tier, that tier
 * is billed at the standard price (never below what the provider may charge); where it publishes no cached
 * price for a tier (OpenAI's batch prices of older models), cached tokens cost that tier's input price.
 */
import { z } from 'zod';
import type { Tier } from './tiers.js';

/** A price at one tier, USD per 1M tokens. */
export const TierPriceSchema = z
  .object({
    /** Uncached input (prompt) tokens, USD per 1M. */
    input: z.number().nonnegative(),
    /** Input tokens served from the provider's prompt cache, USD per 1M; default: the input price. */
    cachedInput: z.number().nonnegative().optional(),
    /** Output (completion) tokens, USD per 1M. */
    output: z.number().nonnegative(),
  })
  .strict();
export type TierPrice = z.infer<typeof TierPriceSchema>;

/** One model's price, USD per 1M tokens: the standard tier's fields, and the flex and batch tiers' where published. */
export const ModelPriceSchema = TierPriceSchema.extend({
  /** Price with `service_tier: "flex"`; absent: flex is billed at the standard price. */
  flex: TierPriceSchema.optional(),
  /** Price through the Batch API; absent: batch is billed at the standard price. */
  batch: TierPriceSchema.optional(),
}).strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/**
 * Price table keyed by model name, or by `provider:model` for a price that only holds at one
 * provider (looked up first). Keys are matched exactly, then as the longest prefix of the model name
 * after stripping an OpenRouter-style vendor prefix is tried both with and without it.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Half of a price (flex and batch where the provider publishes 50% off). */
function half(p: TierPrice): TierPrice {
  return {
    input: p.input / 2,
    ...(p.cachedInput !== undefined ? { cachedInput: p.cachedInput / 2 } : {}),
    output: p.output / 2,
  };
}

/** A model whose batch price is half its standard price, without a cached batch price (older OpenAI models). */
function withBatch(p: TierPrice): ModelPrice {
  return { ...p, batch: { input: p.input / 2, output: p.output / 2 } };
}

/** A model whose flex and batch prices are both half its standard price, cached input included. */
function withFlexAndBatch(p: TierPrice): ModelPrice {
  return { ...p, flex: half(p), batch: half(p) };
}

/** Default prices (USD per 1M tokens, mid-2025 list prices, module notes). `mock` models are free. */
export const DEFAULT_PRICES: PriceTable = {
  // OpenAI: batch at 50% everywhere; flex (and a cached batch price) for o3, o4-mini and gpt-5 only.
  'gpt-5': withFlexAndBatch({ input: 1.25, cachedInput: 0.125, output: 10 }),
  'gpt-5-mini': withFlexAndBatch({ input: 0.25, cachedInput: 0.025, output: 2 }),
  'gpt-5-nano': withFlexAndBatch({ input: 0.05, cachedInput: 0.005, output: 0.4 }),
  o3: withFlexAndBatch({ input: 2, cachedInput: 0.5, output: 8 }),
  'o4-mini': withFlexAndBatch({ input: 1.1, cachedInput: 0.275, output: 4.4 }),
  'gpt-4o': withBatch({ input: 2.5, cachedInput: 1.25, output: 10 }),
  'gpt-4o-mini': withBatch({ input: 0.15, cachedInput: 0.075, output: 0.6 }),
  'gpt-4.1': withBatch({ input: 2, cachedInput: 0.5, output: 8 }),
  'gpt-4.1-mini': withBatch({ input: 0.4, cachedInput: 0.1, output: 1.6 }),
  'gpt-4.1-nano': withBatch({ input: 0.1, cachedInput: 0.025, output: 0.4 }),
  'gpt-4-turbo': withBatch({ input: 10, output: 30 }),
  'gpt-4': withBatch({ input: 30, output: 60 }),
  'gpt-3.5-turbo': withBatch({ input: 0.5, output: 1.5 }),
  'o1-mini': withBatch({ input: 1.1, cachedInput: 0.55, output: 4.4 }),
  'o3-mini': withBatch({ input: 1.1, cachedInput: 0.55, output: 4.4 }),
  // Anthropic through OpenRouter (vendor-prefixed names); cache reads at 10% of input. OpenRouter has no
  // batch or flex tier.
  'anthropic/claude-3.5-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-3.7-sonnet': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'anthropic/claude-3.5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  'anthropic/claude-3-haiku': { input: 0.25, cachedInput: 0.03, output: 1.25 },
  'anthropic/claude-opus-4': { input: 15, cachedInput: 1.5, output: 75 },
  // Cohere's Command R (PoLL's panel, preset poll-3); OpenRouter's `cohere/…` finds it too.
  'command-r-08-2024': { input: 0.15, output: 0.6 },
  // Llama 3.x 70B: Groq names (Groq's flex tier costs the on-demand price; no batch price assumed) and
  // Together names (batch inference at 50%).
  'llama-3.3-70b-versatile': { input: 0.59, output: 0.79 },
  'llama-3.1-70b-versatile': { input: 0.59, output: 0.79 },
  'llama-3.1-8b-instant': { input: 0.05, output: 0.08 },
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': withBatch({ input: 0.88, output: 0.88 }),
  'meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo': withBatch({ input: 0.88, output: 0.88 }),
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
 * Cost of one call in USD at the standard tier: uncached input at the input price, cached input at the
 * cached price (the input price when the table has none), output at the output price. 0 without a price.
 * Same as `costOf(tokens, price, 'standard').costUsd`.
 */
export function costUsd(tokens: TokenCounts, price: TierPrice | undefined): number {
  if (!price) return 0;
  const cached = Math.min(tokens.cachedPromptTokens, tokens.promptTokens);
  const uncached = tokens.promptTokens - cached;
  const usd =
    uncached * price.input + cached * (price.cachedInput ?? price.input) + tokens.completionTokens * price.output;
  return usd / 1_000_000;
}

/**
 * The price that applies at `tier`: the standard fields for `standard`, else the tier's own price, else
 * (unpublished) the standard price. Undefined without a price.
 */
export function priceAtTier(price: ModelPrice | undefined, tier: Tier): TierPrice | undefined {
  if (!price) return undefined;
  const own = tier === 'flex' ? price.flex : tier === 'batch' ? price.batch : undefined;
  return (
    own ?? {
      input: price.input,
      ...(price.cachedInput !== undefined ? { cachedInput: price.cachedInput } : {}),
      output: price.output,
    }
  );
}

/** What a call cost at its tier. */
export interface TierCost {
  tier: Tier;
  /** USD billed: cached prompt tokens at the tier's cached price, the rest at its input and output prices. */
  costUsd: number;
  /** USD the prompt cache saved: cached tokens × (the tier's input price − its cached price). */
  cacheSavedUsd: number;
}

/**
 * The cost of one call's tokens at `tier` (price lookup: {@link priceAtTier}), and what the provider's prompt
 * cache saved. Both 0 without a price.
 */
export function costOf(tokens: TokenCounts, price: ModelPrice | undefined, tier: Tier): TierCost {
  const p = priceAtTier(price, tier);
  if (!p) return { tier, costUsd: 0, cacheSavedUsd: 0 };
  const cached = Math.min(tokens.cachedPromptTokens, tokens.promptTokens);
  return {
    tier,
    costUsd: costUsd(tokens, p),
    cacheSavedUsd: (cached * (p.input - (p.cachedInput ?? p.input))) / 1_000_000,
  };
}
