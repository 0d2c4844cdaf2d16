/**
 * @module
 * Sums of estimates as the API reports them: an even sample of a large batch scaled to all its items, a
 * figure's min / expected / max, and a budget compared per limit. Pure.
 */
import type { Budget, BudgetLimit } from '../engine/budget.js';
import { BUDGET_LIMITS } from '../engine/budget.js';
import type { Estimate, Figures } from './estimate.js';

/** How a budget's limits compare with an estimate (the `BudgetFit` of the API). */
export type BudgetFits = Partial<Record<BudgetLimit, 'yes' | 'maybe' | 'no'>>;

/** Indices of an even sample of `k` out of `n` items (all of them when n ≤ k). */
export function sampleIndices(n: number, k: number): number[] {
  if (n <= k) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: k }, (_, i) => Math.floor((i * n) / k));
}

/** An estimate scaled by `factor` (a sample to its batch): counts rounded, costs not. */
export function scaleEstimate(e: Estimate, factor: number): Estimate {
  const f = (x: Figures): Figures => ({
    calls: Math.round(x.calls * factor),
    promptTokens: Math.round(x.promptTokens * factor),
    completionTokens: Math.round(x.completionTokens * factor),
    costUsd: x.costUsd * factor,
  });
  return {
    evaluations: Math.round(e.evaluations * factor),
    min: f(e.min),
    expected: f(e.expected),
    max: f(e.max),
    callsWithRepairs: Math.round(e.callsWithRepairs * factor),
    models: e.models.map((m) => ({ ...m, min: f(m.min), expected: f(m.expected), max: f(m.max) })),
    // Items run side by side: the sample's deepest item stands for the batch's.
    waves: e.waves,
  };
}

/** A figure's min / expected / max. */
export const range = (e: { min: Figures; expected: Figures; max: Figures }, key: keyof Figures) => ({
  min: e.min[key],
  expected: e.expected[key],
  max: e.max[key],
});

/** Per limit of the budget: `yes` when even the upper bound fits, `no` when not even the lower bound does, else `maybe`. */
export function budgetFit(budget: Budget, e: Estimate): BudgetFits {
  const out: BudgetFits = {};
  const figure = (x: Figures, limit: BudgetLimit) =>
    limit === 'maxCostUsd' ? x.costUsd : limit === 'maxCalls' ? x.calls : x.promptTokens + x.completionTokens;
  for (const limit of BUDGET_LIMITS) {
    const max = budget[limit];
    if (max === undefined) continue;
    out[limit] = figure(e.max, limit) <= max ? 'yes' : figure(e.min, limit) > max ? 'no' : 'maybe';
  }
  return out;
}
