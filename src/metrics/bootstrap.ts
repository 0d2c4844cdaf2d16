/**
 * @module
 * Percentile bootstrap confidence intervals with a seeded PRNG (the same interval on every runtime).
 */

/**
 * Seeded PRNG (mulberry32): uniform floats in [0, 1), the same sequence for the same seed on every runtime.
 * @param seed any 32-bit integer (other numbers are truncated to one).
 */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bootstrap settings. */
export interface BootstrapOptions {
  /** Number of resamples; default 1000. */
  resamples?: number;
  /** PRNG seed; default 0. Same seed, same data → same interval. */
  seed?: number;
  /** Confidence level in (0, 1); default 0.95. */
  level?: number;
}

/** Default bootstrap settings: 1000 resamples, seed 0, 95 %. */
export const DEFAULT_BOOTSTRAP: Required<BootstrapOptions> = { resamples: 1000, seed: 0, level: 0.95 };

/** A confidence interval on the statistic's own scale. */
export interface Interval {
  lo: number;
  hi: number;
}

/**
 * Percentile bootstrap CI: draw `units` indices with replacement `resamples` times, evaluate `statistic`
 * on each draw, take the (1−level)/2 and (1+level)/2 quantiles (linear interpolation, as numpy). Draws where
 * the statistic is undefined (`NaN`, e.g. a constant resample) are dropped. `null` when no draw is defined.
 * @param units number of resampling units (items, or groups for group-level statistics).
 * @param statistic evaluated on the drawn unit indices (duplicates included).
 */
export function bootstrapInterval(
  units: number,
  statistic: (indices: readonly number[]) => number,
  options: BootstrapOptions = {},
): Interval | null {
  const { resamples, seed, level } = { ...DEFAULT_BOOTSTRAP, ...options };
  if (units === 0 || resamples < 1) return null;
  const random = createRng(seed);
  const draws: number[] = [];
  const indices = new Array<number>(units);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < units; i++) indices[i] = Math.floor(random() * units);
    const value = statistic(indices);
    if (!Number.isNaN(value)) draws.push(value);
  }
  if (draws.length === 0) return null;
  draws.sort((a, b) => a - b);
  return { lo: quantile(draws, (1 - level) / 2), hi: quantile(draws, (1 + level) / 2) };
}

/** Quantile of sorted values at probability p (0-1), linear interpolation between order statistics (numpy's default). */
export function quantile(sorted: readonly number[], p: number): number {
  const pos = (sorted.length - 1) * p;
  const below = Math.floor(pos);
  const above = Math.min(sorted.length - 1, below + 1);
  // Indices are in range: 0 ≤ below ≤ above < length (callers pass a non-empty array).
  const lo = sorted[below] as number;
  const hi = sorted[above] as number;
  return lo + (hi - lo) * (pos - below);
}
