/**
 * @module
 * The statistics of meta-evaluation, the way the papers compute them: accuracy and Cohen's κ for pairwise
 * verdicts; Pearson r, Spearman ρ and Kendall τ-b for pointwise scores, at item level and at group level
 * (SummEval summary-level per article, Topical-Chat dialogue-level per dialogue); percentile bootstrap CIs
 * (`bootstrap.ts`); position-flip and tie rates. Reports over these are in `metrics.ts`.
 *
 * Runtime-neutral (Node, workerd, browser): only `zod` and engine schemas, no platform imports.
 *
 * Undefined statistics (no items, a constant side, κ with chance agreement 1) are `NaN`.
 *
 * Pairwise κ when human labels are binary but the judge may say tie (MT-Bench binary):
 * κ is computed over the 3-class A/B/tie confusion. The human `tie` row is empty, so a judge tie always
 * counts as a disagreement in p_o, and it adds nothing to p_e (the human tie marginal is 0). This is plain
 * Cohen's κ on the categories either rater used; it is neither inflated by dropping ties nor by forcing them
 * to A or B.
 */
import { z } from 'zod';
import { WinnerSchema } from '../engine/verdict.js';

/** A pairwise outcome: answer A, answer B, or a tie. */
export type PairLabel = z.infer<typeof WinnerSchema>;

/** Order in which pairwise labels appear in confusion matrices. */
export const PAIR_LABELS: readonly PairLabel[] = ['A', 'B', 'tie'];

// ---------------------------------------------------------------------------------------------
// Classification agreement

/**
 * Fraction of positions where `judge` equals `human` (0-1). `NaN` when empty.
 * @throws when the arrays differ in length.
 */
export function accuracy<L>(human: readonly L[], judge: readonly L[]): number {
  sameLength(human, judge);
  if (human.length === 0) return Number.NaN;
  let hits = 0;
  for (let i = 0; i < human.length; i++) if (human[i] === judge[i]) hits++;
  return hits / human.length;
}

/** A confusion matrix: `counts[h][j]` = items with human label `labels[h]` and judge label `labels[j]`. */
export interface Confusion<L> {
  labels: L[];
  counts: number[][];
}

/**
 * Confusion matrix of human (rows) against judge (columns).
 * @param labels category order; default: every label seen, human's first, in order of first appearance.
 * @throws when a value is not in `labels` or the arrays differ in length.
 */
export function confusionMatrix<L>(human: readonly L[], judge: readonly L[], labels?: readonly L[]): Confusion<L> {
  sameLength(human, judge);
  const order = labels ? [...labels] : [...new Set([...human, ...judge])];
  const index = new Map(order.map((label, i) => [label, i] as const));
  const counts = order.map(() => order.map(() => 0));
  for (let i = 0; i < human.length; i++) {
    const h = index.get(human[i] as L);
    const j = index.get(judge[i] as L);
    if (h === undefined || j === undefined) throw new Error(`label not in [${order.join(', ')}] at item ${i}`);
    const row = at(counts, h);
    row[j] = at(row, j) + 1;
  }
  return { labels: order, counts };
}

/**
 * Cohen's κ = (p_o − p_e) / (1 − p_e) over any label set (binary, 3-class A/B/tie, …), unweighted.
 * `NaN` when empty or when p_e = 1 (both raters used one and the same label: agreement is undefined).
 * @param labels category order; default: every label seen. Labels nobody used do not change κ.
 */
export function cohenKappa<L>(human: readonly L[], judge: readonly L[], labels?: readonly L[]): number {
  return kappaFromConfusion(confusionMatrix(human, judge, labels).counts);
}

/** Cohen's κ from a square confusion matrix of counts (rows: rater 1, columns: rater 2). */
export function kappaFromConfusion(counts: readonly (readonly number[])[]): number {
  const k = counts.length;
  let total = 0;
  let agree = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let r = 0; r < k; r++) {
    for (let c = 0; c < k; c++) {
      const v = counts[r]?.[c] ?? 0;
      total += v;
      rows[r] = at(rows, r) + v;
      cols[c] = at(cols, c) + v;
      if (r === c) agree += v;
    }
  }
  if (total === 0) return Number.NaN;
  let expected = 0;
  for (let i = 0; i < k; i++) expected += (at(rows, i) / total) * (at(cols, i) / total);
  // p_e = 1 only when both raters used one single label: κ is 0/0 there, as in scikit-learn.
  if (expected >= 1 - 1e-12) return Number.NaN;
  return (agree / total - expected) / (1 - expected);
}

/**
 * Share of judge verdicts that are `tie` (0-1). `NaN` when empty.
 */
export function tieRate(judge: readonly PairLabel[]): number {
  if (judge.length === 0) return Number.NaN;
  return judge.filter((j) => j === 'tie').length / judge.length;
}

/**
 * Position-flip rate (0-1): of the items judged in both orders (`flip` is a boolean), the share where
 * swapping the answers changed the outcome. `null`/`undefined` = not measured, skipped. `rate` is `NaN` when
 * nothing was measured.
 */
export function flipRate(flips: readonly (boolean | null | undefined)[]): { rate: number; measured: number } {
  let measured = 0;
  let flipped = 0;
  for (const f of flips) {
    if (typeof f !== 'boolean') continue;
    measured++;
    if (f) flipped++;
  }
  return { rate: measured === 0 ? Number.NaN : flipped / measured, measured };
}

// ---------------------------------------------------------------------------------------------
// Correlation

/**
 * Pearson's r. `NaN` when fewer than 2 items or either side is constant.
 * @throws when the arrays differ in length.
 */
export function pearson(x: readonly number[], y: readonly number[]): number {
  sameLength(x, y);
  const n = x.length;
  if (n < 2) return Number.NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += at(x, i);
    my += at(y, i);
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = at(x, i) - mx;
    const dy = at(y, i) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  // Clamp: rounding can push |r| a hair past 1 for perfectly linear data.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** 1-based ranks, ties given the mean of the ranks they span (as scipy's `rankdata(method='average')`). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => at(values, a) - at(values, b));
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[at(order, end)] === values[at(order, start)]) end++;
    const rank = (start + 1 + end) / 2; // mean of ranks start+1 … end
    for (let k = start; k < end; k++) ranks[at(order, k)] = rank;
    start = end;
  }
  return ranks;
}

/** Spearman's ρ: Pearson's r of average ranks (ties averaged). `NaN` when undefined (see {@link pearson}). */
export function spearman(x: readonly number[], y: readonly number[]): number {
  sameLength(x, y);
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Kendall's τ-b with tie correction, O(n log n) (Knight's algorithm, as scipy):
 * τ-b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁/n₂ = pairs tied in x/y.
 * `NaN` when fewer than 2 items or either side is constant.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  sameLength(x, y);
  const n = x.length;
  if (n < 2) return Number.NaN;
  // Sort by (x, y): then a discordant pair is exactly an inversion (strictly greater y earlier, strictly
  // smaller x), since equal x values are ordered by y and contribute no inversion.
  const order = x.map((_, i) => i).sort((a, b) => at(x, a) - at(x, b) || at(y, a) - at(y, b));
  const { ranks: yRank, size } = denseRanks(y);
  const tree = new Array<number>(size + 1).fill(0); // Fenwick tree over dense y ranks
  let discordant = 0;
  for (let seen = 0; seen < n; seen++) {
    const r = at(yRank, at(order, seen));
    let notGreater = 0;
    for (let i = r + 1; i > 0; i -= i & -i) notGreater += at(tree, i);
    discordant += seen - notGreater;
    for (let i = r + 1; i <= size; i += i & -i) tree[i] = at(tree, i) + 1;
  }
  const tiedX = tiedPairs(order.map((i) => at(x, i)));
  const tiedY = tiedPairs([...y].sort((a, b) => a - b));
  let tiedBoth = 0;
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && x[at(order, end)] === x[at(order, start)] && y[at(order, end)] === y[at(order, start)]) end++;
    tiedBoth += ((end - start) * (end - start - 1)) / 2;
    start = end;
  }
  const pairs = (n * (n - 1)) / 2;
  if (tiedX === pairs || tiedY === pairs) return Number.NaN;
  // Concordant − discordant = pairs untied in both minus 2·discordant.
  const numerator = pairs - tiedX - tiedY + tiedBoth - 2 * discordant;
  return Math.max(-1, Math.min(1, numerator / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY)));
}

/** 0-based dense ranks (equal values share one) and the number of distinct values. */
function denseRanks(values: readonly number[]): { ranks: number[]; size: number } {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  const index = new Map(distinct.map((v, i) => [v, i] as const));
  return { ranks: values.map((v) => index.get(v) as number), size: distinct.length };
}

/** Σ c(c−1)/2 over runs of equal values in a sorted array. */
function tiedPairs(sorted: readonly number[]): number {
  let total = 0;
  for (let start = 0; start < sorted.length;) {
    let end = start + 1;
    while (end < sorted.length && sorted[end] === sorted[start]) end++;
    total += ((end - start) * (end - start - 1)) / 2;
    start = end;
  }
  return total;
}

/** A correlation function: Pearson, Spearman or Kendall τ-b. */
export type Correlation = (x: readonly number[], y: readonly number[]) => number;

/** Per-group values of a group-level correlation. */
export interface GroupCorrelation {
  /** Mean over the groups used; `NaN` when no group could be used. */
  value: number;
  /** Each usable group's correlation, in order of the group's first appearance. */
  perGroup: number[];
  /** Groups where both sides vary (and with ≥ 2 items). */
  groupsUsed: number;
  /** Groups skipped because either side is constant there (or with a single item). */
  groupsSkipped: number;
}

/**
 * Group-level correlation (summary-level / dialogue-level): the correlation within each group, skipping
 * groups where either side is constant, averaged over groups with equal weight.
 */
export function groupCorrelation(
  groups: readonly string[],
  x: readonly number[],
  y: readonly number[],
  correlation: Correlation,
): GroupCorrelation {
  sameLength(groups, x);
  sameLength(x, y);
  const members = new Map<string, number[]>();
  groups.forEach((g, i) => {
    const list = members.get(g);
    if (list) list.push(i);
    else members.set(g, [i]);
  });
  const perGroup: number[] = [];
  for (const idx of members.values()) {
    const gx = idx.map((i) => at(x, i));
    const gy = idx.map((i) => at(y, i));
    if (isConstant(gx) || isConstant(gy)) continue;
    const value = correlation(gx, gy);
    if (!Number.isNaN(value)) perGroup.push(value);
  }
  return {
    value: mean(perGroup),
    perGroup,
    groupsUsed: perGroup.length,
    groupsSkipped: members.size - perGroup.length,
  };
}

function isConstant(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

// ---------------------------------------------------------------------------------------------
// Helpers (shared with the reports)

function sameLength(a: readonly unknown[], b: readonly unknown[]): void {
  if (a.length !== b.length) throw new Error(`length mismatch: ${a.length} vs ${b.length}`);
}

/** Mean of the values; `NaN` for none. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** `values[i]` for an index known to be in range (a loop bound or an index taken from the same data). */
function at<T>(values: readonly T[], i: number): T {
  return values[i] as T;
}

/** The values at the given indices. */
export function pick<T>(values: readonly T[], indices: readonly number[]): T[] {
  return indices.map((i) => at(values, i));
}
