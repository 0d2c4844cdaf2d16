/**
 * @module
 * A batch's budget (the same `BudgetSchema`, ../engine/budget.ts, on the batch body): it stops launching new items. For
 * the batch machinery, which knows what its items spent (their usage rows) and which items run:
 *
 * 1. before launching an item, {@link batchMayLaunch}: false once a limit is used up;
 * 2. the launched item gets {@link itemBudget} as its own `config.budget` (the Durable Object enforces it
 *    call by call; SAMRE, DEBATE and ChatEval then conclude early, others fail `budget_exceeded`), and
 *    that budget counts as reserved while the item runs;
 * 3. when the item ends, its reservation is released and its usage joins `spent`.
 * The sum of what running items may spend then never passes the batch's budget. `share` < 1 keeps room
 * for parallel items (e.g. `1 / concurrency`) instead of granting the first item everything left.
 */
import type { BudgetCheck } from './call-check.js';
import { checkSpend } from './call-check.js';
import type { Budget, Spend } from '../engine/budget.js';
import { addSpend, BUDGET_LIMITS, NO_SPEND } from '../engine/budget.js';

/** Usage sums as the API and D1 report them (calls, prompt and completion tokens, USD). */
export interface UsageSums {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** A {@link Spend} from usage sums (tokens = prompt + completion). */
export function spendOfUsage(u: UsageSums): Spend {
  return { calls: u.calls, tokens: u.promptTokens + u.completionTokens, costUsd: u.costUsd };
}

/** The smallest spend an item needs to be worth launching: one call, one token, any cost. */
const SMALLEST_ITEM: Spend = { calls: 1, tokens: 1, costUsd: 0 };

/**
 * Whether the batch may launch another item: something is left of every limit after what was spent
 * and what running items may still spend.
 * @param reserved the budgets granted to items still running (see {@link itemBudget}). Default none.
 */
export function batchMayLaunch(budget: Budget, spent: Spend, reserved: Spend = NO_SPEND): BudgetCheck {
  const check = checkSpend(budget, spent, reserved, SMALLEST_ITEM);
  if (budget.maxCostUsd !== undefined && check.ok && spent.costUsd + reserved.costUsd >= budget.maxCostUsd) {
    return { ok: false, limit: 'maxCostUsd', message: `batch budget maxCostUsd ${budget.maxCostUsd}: nothing left` };
  }
  return check.ok ? check : { ...check, message: `batch ${check.message}` };
}

/**
 * The budget of the next item: `share` (0-1, default 1) of what is left of each limit the batch sets,
 * whole calls and tokens rounded down; null when a limit leaves less than one call, one token or any USD.
 */
export function itemBudget(budget: Budget, spent: Spend, reserved: Spend = NO_SPEND, share = 1): Budget | null {
  const used = addSpend(spent, reserved);
  const out: Budget = {};
  for (const limit of BUDGET_LIMITS) {
    const max = budget[limit];
    if (max === undefined) continue;
    const left =
      (max - (limit === 'maxCostUsd' ? used.costUsd : limit === 'maxCalls' ? used.calls : used.tokens)) *
      Math.min(1, Math.max(0, share));
    const value = limit === 'maxCostUsd' ? left : Math.floor(left);
    if (limit === 'maxCostUsd' ? value <= 0 : value < 1) return null;
    out[limit] = value;
  }
  return out;
}

/** The reservation an item's budget makes while it runs (a limit it does not set reserves nothing of that kind). */
export function reservationOf(item: Budget): Spend {
  return { calls: item.maxCalls ?? 0, tokens: item.maxTokens ?? 0, costUsd: item.maxCostUsd ?? 0 };
}
