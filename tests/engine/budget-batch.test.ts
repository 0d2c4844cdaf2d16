/** A batch's budget (src/budgets/batch-shares.ts), with hand-computed figures. */
import { describe, expect, it } from 'vitest';
import { batchMayLaunch, itemBudget, reservationOf, spendOfUsage } from '../../src/budgets/batch-shares.js';
import { BudgetSchema } from '../../src/engine/budget.js';

describe('a batch budget', () => {
  const budget = { maxCostUsd: 1, maxCalls: 100 };

  it("launches while something is left of every limit, counting the running items' reservations", () => {
    const spent = spendOfUsage({ calls: 60, promptTokens: 9_000, completionTokens: 1_000, costUsd: 0.7 });
    expect(spent).toEqual({ calls: 60, tokens: 10_000, costUsd: 0.7 });
    expect(batchMayLaunch(budget, spent)).toEqual({ ok: true });
    // A running item holds $0.3: nothing is left of maxCostUsd.
    const held = batchMayLaunch(budget, spent, { calls: 10, tokens: 0, costUsd: 0.3 });
    expect(held).toMatchObject({ ok: false, limit: 'maxCostUsd' });
    // 100 calls spent and reserved: the next item's first call would be the 101st.
    expect(
      batchMayLaunch(budget, { calls: 90, tokens: 0, costUsd: 0 }, { calls: 10, tokens: 0, costUsd: 0 }),
    ).toMatchObject({ ok: false, limit: 'maxCalls' });
  });

  it('grants the next item a share of what is left, whole calls rounded down', () => {
    const spent = { calls: 60, tokens: 10_000, costUsd: 0.7 };
    expect(itemBudget(budget, spent)).toEqual({ maxCostUsd: 1 - 0.7, maxCalls: 40 });
    // A quarter each for four parallel items, with one of them running already (reserving 10 calls, $0.1).
    const item = itemBudget(budget, spent, { calls: 10, tokens: 0, costUsd: 0.1 }, 0.25);
    expect(item?.maxCalls).toBe(7);
    expect(item?.maxCostUsd).toBeCloseTo(0.05, 12);
    expect(BudgetSchema.safeParse(item).success).toBe(true);
    expect(reservationOf(item ?? {})).toEqual({ calls: 7, tokens: 0, costUsd: item?.maxCostUsd });
    // Less than one call left: no item.
    expect(itemBudget({ maxCalls: 10 }, { calls: 9, tokens: 0, costUsd: 0 }, undefined, 0.5)).toBeNull();
  });
});
