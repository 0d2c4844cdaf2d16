/**
 * @module
 * Krippendorff's α, the test-retest statistic of the reliability report: units (items) each carry the
 * values their repeats gave; α = 1 − D_o / D_e, observed over expected disagreement (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability"):
 *
 *   α = 1 − (n − 1) · Σᵤ [Σ_ck nᵤc nᵤk δ²(c, k) / (mᵤ − 1)] / Σ_ck n_c n_k δ²(c, k)
 *
 * over pairable units only (mᵤ ≥ 2 values), n_c the count of value c over them, n = Σ n_c; δ² is 0/1 for
 * `nominal` data (A / B / tie) and (c − k)² for `interval` data (scores).
 *
 * Why α and not Fleiss' κ: a repeat that failed or never parsed leaves its item with fewer values, and α
 * takes units with any number of values ≥ 2 while Fleiss' κ needs the same count everywhere (we would have
 * to drop every item with one failed repeat); α corrects for small samples (the n − 1); and the same
 * statistic serves pointwise scores with the interval metric. With k equal repeats per item and nominal
 * data α differs from Fleiss' κ only by that small-sample term.
 *
 * The per-unit sums are kept apart so a bootstrap over units is a sum per resample ({@link alphaOf}).
 *
 * Runtime-neutral: no platform imports.
 */

/** `nominal` (categories: δ² = 0 if equal, else 1) or `interval` (numbers: δ² = (c − k)²). */
export type AlphaMetric = 'nominal' | 'interval';

/** Per-unit pieces of α, so resamples of units are sums. */
export interface AlphaTable {
  metric: AlphaMetric;
  /** Distinct values (nominal: in order of first appearance). */
  values: (string | number)[];
  /** Per pairable unit: its index among the input units, its observed-disagreement term, and its value counts (nominal) or Σv, Σv² and m (interval). */
  units: { unit: number; disagreement: number; counts: number[]; sum: number; sumSquares: number; m: number }[];
}

/**
 * The per-unit pieces of α. Units with fewer than 2 values are not pairable and are left out.
 * @param units each unit's values (its repeats' outcomes; missing repeats simply absent).
 */
export function alphaTable(
  units: readonly (readonly (string | number)[])[],
  metric: AlphaMetric = 'nominal',
): AlphaTable {
  const index = new Map<string | number, number>();
  if (metric === 'nominal') {
    for (const u of units) for (const v of u) if (!index.has(v)) index.set(v, index.size);
  }
  const out: AlphaTable['units'] = [];
  units.forEach((values, unit) => {
    const m = values.length;
    if (m < 2) return;
    if (metric === 'interval') {
      let sum = 0;
      let sumSquares = 0;
      for (const v of values) {
        if (typeof v !== 'number') throw new TypeError('interval α needs numbers');
        sum += v;
        sumSquares += v * v;
      }
      // Σ over ordered pairs (c − k)² = 2(m Σv² − (Σv)²).
      out.push({ unit, disagreement: (2 * (m * sumSquares - sum * sum)) / (m - 1), counts: [], sum, sumSquares, m });
      return;
    }
    const counts = new Array<number>(index.size).fill(0);
    for (const v of values) {
      const c = index.get(v) as number;
      counts[c] = (counts[c] ?? 0) + 1;
    }
    // Ordered pairs with different values: m² − Σ n_c².
    const same = counts.reduce((s, x) => s + x * x, 0);
    out.push({ unit, disagreement: (m * m - same) / (m - 1), counts, sum: 0, sumSquares: 0, m });
  });
  return { metric, values: [...index.keys()], units: out };
}

/**
 * α from the table over the given pairable units (indices into `table.units`, repeats allowed; default
 * all). `NaN` when undefined: no pairable unit, or no disagreement expected (every value the same).
 */
export function alphaOf(table: AlphaTable, picks?: readonly number[]): number {
  const chosen = picks ?? table.units.map((_, i) => i);
  let observed = 0;
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  const counts = new Array<number>(table.values.length).fill(0);
  for (const p of chosen) {
    const u = table.units[p];
    if (!u) continue;
    observed += u.disagreement;
    n += u.m;
    sum += u.sum;
    sumSquares += u.sumSquares;
    u.counts.forEach((c, i) => (counts[i] = (counts[i] ?? 0) + c));
  }
  const expected =
    table.metric === 'interval' ? 2 * (n * sumSquares - sum * sum) : n * n - counts.reduce((s, x) => s + x * x, 0);
  if (n < 2 || expected <= 0) return Number.NaN;
  return 1 - ((n - 1) * observed) / expected;
}

/** Krippendorff's α of the units' values; `NaN` when undefined (see {@link alphaOf}). */
export function krippendorffAlpha(
  units: readonly (readonly (string | number)[])[],
  metric: AlphaMetric = 'nominal',
): number {
  return alphaOf(alphaTable(units, metric));
}
