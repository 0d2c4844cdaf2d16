/**
 * @module
 * The budget check before every LLM call, shared by the in-process runner (src/engine/runner.ts) and the
 * Durable Object's step (durable-objects/evaluation/step.ts), both through the call pool's `admit` hook.
 *
 * A call goes out when what was spent (the evaluation's recorded calls, their reported tokens and cost),
 * plus the worst case of every call in flight, plus this call's worst case (./meter.ts) fits every limit.
 * When it does not fit and calls are in flight, it waits: they usually cost less than their worst case.
 * When nothing is in flight it is refused: the driver records a `budget_exceeded` result for it (no LLM
 * call), which the protocol core hands to the method's `truncate` (src/engine/protocol.ts). So a budget is
 * never passed by a call that could have been known to pass it.
 */
import type { LlmCallRequest } from '../engine/call.js';
import type { Admission } from '../engine/pool.js';
import type { EngineState } from '../engine/state.js';
import { usageOf } from '../engine/ledger.js';
import type { CallBound, CallMeter, MeterSettings } from './meter.js';
import { createCallMeter } from './meter.js';
import type { Budget, BudgetLimit, Spend } from '../engine/budget.js';
import { addSpend, BUDGET_EXCEEDED, BUDGET_LIMITS, BudgetSchema, NO_SPEND } from '../engine/budget.js';
import { createPromptCounter, loadTokenizer } from './prompt-tokens.js';

/** The budget in a resolved config (`config.budget`), or undefined when it sets none. */
export function budgetOf(config: EngineState['config']): Budget | undefined {
  if (config.budget === undefined) return undefined;
  const parsed = BudgetSchema.safeParse(config.budget);
  return parsed.success ? parsed.data : undefined;
}

/** What an evaluation has spent: its recorded LLM requests (repairs included), their tokens and cost. */
export function spentOf(state: EngineState): Spend {
  const { calls, usage } = usageOf(state);
  return { calls, tokens: usage.promptTokens + usage.completionTokens, costUsd: usage.costUsd };
}

/** The outcome of a check: it fits, or the first limit it passes with a message naming the figures. */
export type BudgetCheck = { ok: true } | { ok: false; limit: BudgetLimit; message: string };

// Floating-point sums of costs must not refuse a call that fits to the last cent's fraction.
const EPSILON_USD = 1e-9;

const usd = (n: number) => `$${n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;

/**
 * Whether `next` fits the budget on top of `spent` and `reserved` (calls in flight). Limits are checked in
 * the order of {@link BUDGET_LIMITS}; the first one passed is reported.
 */
export function checkSpend(budget: Budget, spent: Spend, reserved: Spend, next: Spend): BudgetCheck {
  const total = addSpend(addSpend(spent, reserved), next);
  for (const limit of BUDGET_LIMITS) {
    const max = budget[limit];
    if (max === undefined) continue;
    const over =
      limit === 'maxCostUsd'
        ? total.costUsd > max + EPSILON_USD
        : (limit === 'maxCalls' ? total.calls : total.tokens) > max;
    if (!over) continue;
    const fmt = limit === 'maxCostUsd' ? usd : (n: number) => String(n);
    const key = limit === 'maxCostUsd' ? 'costUsd' : limit === 'maxCalls' ? 'calls' : 'tokens';
    const inFlight = reserved[key] > 0 ? `, ${fmt(reserved[key])} reserved by calls in flight` : '';
    return {
      ok: false,
      limit,
      message: `budget ${limit} ${fmt(max)}: this call needs up to ${fmt(next[key])} with ${fmt(spent[key])} spent${inFlight}`,
    };
  }
  return { ok: true };
}

/**
 * The pool's decision for one ready call under the evaluation's budget: `launch`, `wait` (it does not fit
 * while calls are in flight), or a `budget_exceeded` refusal (it does not fit and nothing is in flight).
 * @param inFlight every call of this evaluation in flight now (in a Durable Object, all invocations').
 * @param bounds worst cases of calls already measured, by id (reused for calls in flight).
 */
export function admitCall(
  budget: Budget,
  state: EngineState,
  request: LlmCallRequest,
  inFlight: readonly LlmCallRequest[],
  meter: CallMeter,
  bounds: Map<string, CallBound> = new Map(),
): Admission {
  const boundOf = (r: LlmCallRequest): CallBound => {
    const known = bounds.get(r.id);
    if (known) return known;
    const b = meter.bound(r);
    bounds.set(r.id, b);
    return b;
  };
  const reserved = inFlight
    .filter((r) => r.id !== request.id)
    .reduce<Spend>((s, r) => addSpend(s, boundOf(r)), NO_SPEND);
  const next = boundOf(request);
  const check = checkSpend(budget, spentOf(state), reserved, next);
  if (check.ok) return 'launch';
  if (reserved.calls > 0) return 'wait';
  const detail = `${next.promptTokens} prompt + ${next.completionTokens} completion tokens of ${next.model}`;
  return { refuse: { code: BUDGET_EXCEEDED, message: `call ${request.id} not made: ${check.message} (${detail})` } };
}

/**
 * The budget check of one evaluation's driver: `admit(state, request, inFlight)` launches everything when
 * the config sets no budget. Keeps each call's worst case by id, so use one per evaluation.
 */
export function budgetAdmission(
  meter: CallMeter,
): (request: LlmCallRequest, inFlight: readonly LlmCallRequest[], state: EngineState) => Admission {
  const bounds = new Map<string, CallBound>();
  return (request, inFlight, state) => {
    const budget = budgetOf(state.config);
    return budget ? admitCall(budget, state, request, inFlight, meter, bounds) : 'launch';
  };
}

/** A meter with the real tokenizer (loaded on first use; see ./prompt-tokens.ts) for a deployment's settings. */
export async function loadCallMeter(settings: MeterSettings): Promise<CallMeter> {
  return createCallMeter(settings, createPromptCounter(await loadTokenizer()));
}
