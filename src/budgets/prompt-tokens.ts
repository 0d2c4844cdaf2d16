/**
 * @module
 * Prompt token counts for budgets and estimates, with a real BPE tokenizer (`gpt-tokenizer`, pure
 * JavaScript: runs in workerd and Node).
 *
 * - Encoding: `cl100k_base` only, loaded lazily ({@link loadTokenizer}: a dynamic import, evaluated on the
 *   first budget check or estimate, never for an evaluation without a budget). It is OpenAI's encoding of
 *   gpt-4, gpt-4-turbo and gpt-3.5-turbo: their count is exact (`cl100k_base`).
 * - gpt-4o, gpt-4.1, gpt-5 and the o-series use `o200k_base`, whose vocabulary adds 2.4 MB to the bundle
 *   (cl100k: 1.2 MB). Over every prompt of the 23 presets o200k counted 70,819 tokens and cl100k 70,912
 *   (per preset 0.992-1.008 of cl100k; English text; o200k is far denser on non-Latin scripts), so their
 *   count is cl100k's times {@link O200K_FACTOR} (1.02): within a token or two per hundred, on the safe side.
 * - Other models (Claude, Llama, Mistral, …) have tokenizers of their own: their count is cl100k's times
 *   {@link OTHER_MODEL_FACTOR} (1.25), a documented estimate with a margin for denser tokenizers.
 * - Chat overhead as OpenAI's cookbook counts it: 3 tokens per message, 1 per `name`, 3 to prime the reply.
 *
 * The engine never imports this module: drivers inject a {@link PromptCounter} (engine stays platform-free,
 * tests inject simple counters).
 */
import type { ChatMessage } from '../engine/call.js';
import { TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING } from '../llm/token-estimate.js';

/** Counts the tokens of a text; synchronous once loaded. */
export interface TextTokenizer {
  /** Encoding name, e.g. `cl100k_base`, for reports. */
  readonly encoding: string;
  count(text: string): number;
}

/** How a model's tokens are counted: `exact` (a cl100k model), `o200k-proxy` (cl100k × 1.02), `estimate` (cl100k × 1.25). */
export type CountKind = 'exact' | 'o200k-proxy' | 'estimate';

/** Counts a chat request's prompt tokens for its model. */
export interface PromptCounter {
  /** Prompt tokens of `messages` sent to `model`. */
  count(model: string, messages: readonly ChatMessage[]): number;
  /** Tokens of a completion text from `model` (no chat overhead). */
  countText(model: string, text: string): number;
  /** How `model`'s tokens are counted. */
  kindOf(model: string): CountKind;
}

/** Multiplier on cl100k's count for OpenAI's o200k models: 1.02 (see the module notes). */
export const O200K_FACTOR = 1.02;

/** Multiplier on cl100k's count for models outside OpenAI's families: 1.25 (an estimate with a margin). */
export const OTHER_MODEL_FACTOR = 1.25;

/** Distinct message texts a counter remembers before it starts over (prompts repeat within an evaluation). */
const MEMO_LIMIT = 4096;

/**
 * How `model` is counted. OpenAI's names (after an `openai/` vendor prefix, fine-tunes `ft:…` included):
 * `gpt-4`, `gpt-4-turbo…`, `gpt-4-0613…`, `gpt-3.5…` are cl100k models; every other `gpt-…`, `chatgpt-…`
 * and `o1`/`o3`/`o4…` an o200k one. Anything else (Azure deployment names too) is estimated.
 */
export function countKindOf(model: string): CountKind {
  const bare = (model.startsWith('openai/') ? model.slice('openai/'.length) : model).replace(/^ft:/, '').toLowerCase();
  if (/^gpt-(?:3\.5|4(?:$|-(?:turbo|\d{4}|32k|vision)))/.test(bare)) return 'exact';
  if (/^(?:gpt-|chatgpt-|o\d(?:$|-))/.test(bare)) return 'o200k-proxy';
  return 'estimate';
}

const FACTORS: Record<CountKind, number> = { exact: 1, 'o200k-proxy': O200K_FACTOR, estimate: OTHER_MODEL_FACTOR };

let loading: Promise<TextTokenizer> | null = null;

/**
 * The cl100k_base tokenizer, imported on first use (once per isolate). Why lazy: evaluating the
 * vocabulary takes ~100 ms, which only evaluations with a budget and estimates should pay.
 */
export function loadTokenizer(): Promise<TextTokenizer> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => ({
    encoding: 'cl100k_base',
    count: (text: string) => m.countTokens(text),
  }));
  return loading;
}

/** A {@link PromptCounter} over a text tokenizer (see the module notes for the rules). */
export function createPromptCounter(tokenizer: TextTokenizer): PromptCounter {
  const memo = new Map<string, number>();
  const text = (s: string): number => {
    const hit = memo.get(s);
    if (hit !== undefined) return hit;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    const n = tokenizer.count(s);
    memo.set(s, n);
    return n;
  };
  const scale = (model: string, n: number) => Math.ceil(n * FACTORS[countKindOf(model)]);
  return {
    count(model, messages) {
      let n = TOKENS_REPLY_PRIMING;
      for (const m of messages) n += TOKENS_PER_MESSAGE + text(m.content) + (m.name ? 1 : 0);
      return scale(model, n);
    },
    countText: (model, s) => scale(model, text(s)),
    kindOf: countKindOf,
  };
}
