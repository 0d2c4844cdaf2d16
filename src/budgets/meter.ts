/**
 * @module
 * The worst case of one LLM call before it goes out: its prompt counted with the tokenizer
 * (./prompt-tokens.ts), its completion bounded by the call's `maxTokens` times the choices it may bring (a request
 * with `n` to a provider declared `supportsN`: n; else 1), its cost from the price table
 * (src/llm/pricing.ts) with every prompt token at the uncached input price. Pure given its inputs.
 */
import type { LlmCallRequest } from '../engine/call.js';
import type { ModelPrice, PriceTable } from '../llm/pricing.js';
import { costUsd, DEFAULT_PRICES, priceFor } from '../llm/pricing.js';
import { supportsNOf } from '../llm/settings.js';
import type { Spend } from '../engine/budget.js';
import type { PromptCounter } from './prompt-tokens.js';

/** Where a call goes when it names no model or provider, and the prices (the deployment's LLM settings). */
export interface MeterSettings {
  /** Model of requests without `model`. */
  defaultModel: string;
  /** Provider of requests without `provider`. */
  defaultProvider: string;
  /** Price overrides merged over {@link DEFAULT_PRICES}. Default none. */
  prices?: PriceTable;
  /** The providers, as far as the meter reads them: which honour OpenAI's `n`. Default: none does. */
  providers?: Record<string, { supportsN?: boolean }>;
}

/** A call's worst case and what it was computed from. */
export interface CallBound extends Spend {
  model: string;
  provider: string;
  promptTokens: number;
  /** The call's `maxTokens` times the choices it may bring ({@link CallMeter.choices}). */
  completionTokens: number;
  /** False when the price table has no price for the model (its cost then counts as 0). */
  priced: boolean;
}

/** Measures calls before they go out. */
export interface CallMeter {
  /** The model and provider a call goes to. */
  target(request: Pick<LlmCallRequest, 'model' | 'provider'>): { model: string; provider: string };
  /** The price of a model at a provider, if the table has one. */
  price(model: string, provider: string): ModelPrice | undefined;
  /**
   * Whether the call's provider is declared to honour OpenAI's `n` (`supportsN`): what a driver passes to
   * `readyCalls` so the requests it meters are the ones it sends.
   */
  supportsN(call: Pick<LlmCallRequest, 'provider'>): boolean;
  /** Choices a request brings back at its provider: its `n` where the provider is declared `supportsN`, else 1. */
  choices(request: Pick<LlmCallRequest, 'provider' | 'n'>): number;
  /** The call's worst case: 1 call, prompt + `maxTokens` tokens per choice, their cost at list price. */
  bound(request: Pick<LlmCallRequest, 'model' | 'provider' | 'messages' | 'maxTokens' | 'n'>): CallBound;
}

/** A {@link CallMeter} for a deployment's settings and a prompt counter. */
export function createCallMeter(settings: MeterSettings, counter: PromptCounter): CallMeter {
  const table: PriceTable = { ...DEFAULT_PRICES, ...settings.prices };
  const target = (r: Pick<LlmCallRequest, 'model' | 'provider'>) => ({
    model: r.model ?? settings.defaultModel,
    provider: r.provider ?? settings.defaultProvider,
  });
  const price = (model: string, provider: string) => priceFor(model, provider, table);
  const supportsN = supportsNOf(settings);
  const choices = (r: Pick<LlmCallRequest, 'provider' | 'n'>) =>
    r.n !== undefined && r.n > 1 && supportsN(r) ? r.n : 1;
  return {
    target,
    price,
    supportsN,
    choices,
    bound(request) {
      const { model, provider } = target(request);
      const p = price(model, provider);
      const promptTokens = counter.count(model, request.messages);
      // One prompt, a completion per choice.
      const completionTokens = request.maxTokens * choices(request);
      return {
        model,
        provider,
        promptTokens,
        completionTokens,
        priced: p !== undefined,
        calls: 1,
        tokens: promptTokens + completionTokens,
        costUsd: costUsd({ promptTokens, completionTokens, cachedPromptTokens: 0 }, p),
      };
    },
  };
}
