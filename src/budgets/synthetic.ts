/**
 * @module
 * A synthetic LLM for estimates: no network, no model. It answers each call with a reply that parses
 * under the call's own parser (./replies.ts), of a chosen length, leaning the way a {@link Strategy} says,
 * and reports usage counted with the prompt counter (src/budgets/prompt-tokens.ts) and priced from the table.
 *
 * Strategies steer adaptive protocols along their paths:
 * - `agree`: every judgement prefers Answer A (or the top score) and every critic says NO_ISSUE: the
 *   shortest path (DEBATE stops at the first critique, SAMRE's early stop after round 2);
 * - `dispute`: judgements alternate between A and B per agent and call, critics always object: the
 *   longest path (every round, every iteration, a tie-breaker);
 * - `tie`: every judgement is a tie and critics object (some rules treat ties apart).
 * Reply lengths: `short` (the format alone), `expected` ({@link EXPECTED_REPLY_TOKENS} tokens, or the
 * call's `maxTokens` when lower) and `max` (the call's `maxTokens`).
 * A request with `n` gets the choices its provider brings back ({@link CallMeter.choices}: `n` where declared
 * `supportsN`, else one, the rest then asked as separate calls): one prompt, a completion per choice.
 */
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../engine/call.js';
import type { CallMeter } from './meter.js';
import { costUsd } from '../llm/pricing.js';
import type { PromptCounter } from './prompt-tokens.js';
import type { Lean } from './replies.js';
import { syntheticReply } from './replies.js';

/** How the synthetic replies lean (see the module notes). */
export type Strategy = 'agree' | 'dispute' | 'tie';

/** The strategies, in the order estimates run them. */
export const STRATEGIES: readonly Strategy[] = ['agree', 'dispute', 'tie'];

/** How long the synthetic replies are (see the module notes). */
export type ReplyLength = 'short' | 'expected' | 'max';

/** Completion tokens of an `expected` reply: 256 (judges' replies in the papers' runs are mostly 100-400 tokens). */
export const EXPECTED_REPLY_TOKENS = 256;

/** Filler word: one token in cl100k and o200k, no digit or marker any parser reads. */
const FILLER = ' ok';

/** One call the synthetic LLM answered, as estimates add them up. */
export interface SyntheticCall {
  model: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** The synthetic LLM and the calls it answered. */
export interface SyntheticLlm {
  llm: LlmFunction;
  calls: SyntheticCall[];
}

/** How the answer to `request` leans under `strategy`, given how often its agent spoke before. */
function leanOf(strategy: Strategy, agentOrdinal: number, agentCalls: number): Lean {
  if (strategy === 'agree') return { side: 'A', noIssue: true };
  if (strategy === 'tie') return { side: 'tie', noIssue: false };
  // Alternate per call of an agent, and between agents: rounds and jurors disagree.
  return { side: (agentOrdinal + agentCalls) % 2 === 0 ? 'A' : 'B', noIssue: false };
}

/**
 * A synthetic LLM for one run.
 * @param counter counts prompts and replies per model (the estimate's tokenizer).
 * @param meter resolves each call's model, provider and price.
 */
export function createSyntheticLlm(
  strategy: Strategy,
  length: ReplyLength,
  counter: PromptCounter,
  meter: CallMeter,
): SyntheticLlm {
  const calls: SyntheticCall[] = [];
  const ordinals = new Map<string, number>();
  const spoken = new Map<string, number>();
  /** One reply of `request`'s agent (its next turn) and its completion tokens. */
  const reply = (request: LlmCallRequest, model: string): { content: string; tokens: number } => {
    // Repairs (`id#n`) never happen: every synthetic reply parses. The base agent keeps its turn count.
    const ordinal = ordinals.get(request.agent) ?? ordinals.size;
    ordinals.set(request.agent, ordinal);
    const turn = spoken.get(request.agent) ?? 0;
    spoken.set(request.agent, turn + 1);
    const lean = leanOf(strategy, ordinal, turn);
    const target =
      length === 'short'
        ? 0
        : length === 'max'
          ? request.maxTokens
          : Math.min(request.maxTokens, EXPECTED_REPLY_TOKENS);
    const bare = syntheticReply(request.parser, lean, '');
    // Filler words count one token each before the model's factor (src/budgets/prompt-tokens.ts).
    const perWord = counter.countText(model, FILLER.repeat(100)) / 100;
    const words = Math.max(0, Math.floor((target - counter.countText(model, bare)) / perWord));
    const content = syntheticReply(request.parser, lean, FILLER.repeat(words).trim());
    // A provider stops at maxTokens: `max` replies are billed exactly that.
    return {
      content,
      tokens: length === 'max' ? request.maxTokens : Math.min(request.maxTokens, counter.countText(model, content)),
    };
  };
  const answer = (request: LlmCallRequest): LlmCallResult => {
    const { model, provider } = meter.target(request);
    const replies = Array.from({ length: meter.choices(request) }, () => reply(request, model));
    const content = replies[0]?.content ?? '';
    const promptTokens = counter.count(model, request.messages);
    const completionTokens = replies.reduce((n, r) => n + r.tokens, 0);
    const cost = costUsd({ promptTokens, completionTokens, cachedPromptTokens: 0 }, meter.price(model, provider));
    calls.push({ model, provider, promptTokens, completionTokens, costUsd: cost });
    const usage = { promptTokens, completionTokens, cachedPromptTokens: 0, estimated: true, costUsd: cost };
    return {
      id: request.id,
      ok: true,
      content,
      ...(request.n !== undefined ? { choices: replies.map((r) => r.content) } : {}),
      model,
      usage,
    };
  };
  return { llm: (request) => Promise.resolve(answer(request)), calls };
}
