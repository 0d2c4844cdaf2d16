/**
 * @module
 * The cacheable share of an evaluation's prompt tokens, as `POST /v1/estimates` reports it: the protocol is
 * driven along its longest path with `expected` replies (src/budgets/synthetic.ts), and each call's prompt is compared
 * with the prompts of the calls that had ENDED before it was sent (same model): calls sent together, as a
 * wave is, cannot warm the provider's cache for each other. The shared prefix counts as cached by OpenAI's
 * rule: prompts of at least {@link MIN_CACHED_TOKENS} tokens, the prefix in {@link CACHE_STEP_TOKENS}-token
 * steps. The prefix's tokens are its share of the prompt's characters times the prompt's tokens (the
 * tokenizer counts whole prompts), so the figure is an estimate, as `npm run bench:prefix` is the measure.
 */
import type { AnyMethod } from '../engine/method.js';
import type { EngineState } from '../engine/state.js';
import { createEvaluation } from '../engine/protocol.js';
import { runEvaluation } from '../engine/runner.js';
import type { LlmCallRequest, LlmFunction } from '../engine/call.js';
import type { Task } from '../engine/task.js';
import type { RubricContent } from '../engine/rubric.js';
import type { EstimateDeps } from '../budgets/estimate.js';
import { createSyntheticLlm, STRATEGIES } from '../budgets/synthetic.js';

/** Shortest prompt a provider caches (OpenAI): 1,024 tokens. */
export const MIN_CACHED_TOKENS = 1024;
/** Granularity of a cached prefix (OpenAI): 128 tokens. */
export const CACHE_STEP_TOKENS = 128;

/** Prompt tokens of one evaluation's longest path, and how many of them a prompt cache could bill as cached. */
export interface PromptCacheShare {
  promptTokens: number;
  cacheableTokens: number;
}

/** A request's prompt as one string (role and content of each message, in order). */
function promptText(request: LlmCallRequest): string {
  return request.messages.map((m) => `\u0000${m.role}\u0001${m.content}`).join('');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Cached tokens of a prompt of `tokens` tokens whose first `prefixTokens` were seen before (OpenAI's rule). */
export function cachedTokensOf(tokens: number, prefixTokens: number): number {
  if (tokens < MIN_CACHED_TOKENS || prefixTokens < MIN_CACHED_TOKENS) return 0;
  return Math.floor(Math.min(prefixTokens, tokens) / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS;
}

/** Runs one strategy with `expected` replies, measuring each call's cacheable prefix (see the module note). */
async function measure(
  method: AnyMethod,
  initial: EngineState,
  strategy: (typeof STRATEGIES)[number],
  deps: EstimateDeps,
): Promise<PromptCacheShare & { calls: number }> {
  const synthetic = createSyntheticLlm(strategy, 'expected', deps.counter, deps.meter);
  const ended: { model: string; text: string }[] = [];
  const share = { promptTokens: 0, cacheableTokens: 0, calls: 0 };
  const llm: LlmFunction = async (request) => {
    const { model } = deps.meter.target(request);
    const text = promptText(request);
    const seen = ended
      .filter((e) => e.model === model)
      .reduce((best, e) => Math.max(best, commonPrefix(e.text, text)), 0);
    const tokens = deps.counter.count(model, request.messages);
    share.promptTokens += tokens;
    share.cacheableTokens += cachedTokensOf(tokens, text.length === 0 ? 0 : Math.floor((tokens * seen) / text.length));
    share.calls += 1;
    // The pool launches a wave's calls before any of them ends: a call joins `ended` only once answered.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    const result = await synthetic.llm(request);
    ended.push({ model, text });
    return result;
  };
  // Every ready call at once, as the object launches a wave.
  await runEvaluation(method, initial, llm, { concurrency: 1000, supportsN: (call) => deps.meter.supportsN(call) });
  return share;
}

/**
 * The cacheable share of one evaluation of `task` (judged by `rubric`, if any): along the strategy with the most calls (the estimate's
 * longest path), prompt tokens and those a provider's prompt cache could bill as cached.
 */
export async function promptCacheShare(
  method: AnyMethod,
  config: EngineState['config'],
  task: Task,
  deps: EstimateDeps,
  rubric?: RubricContent,
): Promise<PromptCacheShare> {
  const { budget: _budget, ...unbudgeted } = config;
  const initial = createEvaluation(method, unbudgeted, task, rubric);
  let best: (PromptCacheShare & { calls: number }) | undefined;
  for (const strategy of STRATEGIES) {
    const run = await measure(method, initial, strategy, deps);
    if (!best || run.calls > best.calls || (run.calls === best.calls && run.promptTokens > best.promptTokens))
      best = run;
  }
  return { promptTokens: best?.promptTokens ?? 0, cacheableTokens: best?.cacheableTokens ?? 0 };
}
