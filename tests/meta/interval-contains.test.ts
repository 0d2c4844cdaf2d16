import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/metrics/bootstrap.js';
import { comparisonStats } from '../../src/metrics/comparison.js';
import type { PairOutcome } from '../../src/metrics/pairs.js';

const WINNERS = ['A', 'B', 'tie', null] as const;

/**
 * Seeded random comparisons, a third of them degenerate (every item the same verdicts, so every resample
 * gives the same counts), over both models, both solvers and with or without a reference.
 */
function* comparisons(count: number) {
  const random = createRng(2024);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  for (let c = 0; c < count; c++) {
    const k = 2 + Math.floor(random() * 3);
    const candidates = Array.from({ length: k }, (_, i) => `v${i + 1}`);
    const items = 1 + Math.floor(random() * 25);
    const uniform = c % 3 === 0;
    const fixed = candidates.map(() => candidates.map(() => pick(WINNERS)));
    const outcomes: PairOutcome[] = [];
    for (let u = 0; u < items; u++) {
      for (let i = 0; i < k; i++) {
        for (let j = i + 1; j < k; j++) {
          const winner = uniform ? (fixed[i]?.[j] ?? 'A') : pick(WINNERS);
          outcomes.push({ item: `q${u}`, a: candidates[i] as string, b: candidates[j] as string, winner });
        }
      }
    }
    yield {
      candidates,
      outcomes,
      options: {
        resamples: 40,
        seed: c,
        model: pick(['bradley-terry', 'davidson'] as const),
        solver: pick(['newton', 'mm'] as const),
        prior: pick([0.5, 1, 2]),
        ...(random() < 0.3 ? { reference: 'v1' } : {}),
        level: pick([0.5, 0.9, 0.95, 0.99]),
      },
    };
  }
}

describe('an interval holds its own estimate', () => {
  it('every strength lies in its bootstrap interval and every win rate in its Wilson interval (300 comparisons)', () => {
    let checked = 0;
    for (const { candidates, outcomes, options } of comparisons(300)) {
      const stats = comparisonStats(candidates, outcomes, options);
      for (const entry of stats.ranking) {
        if (!entry.interval) continue;
        const [lo, hi] = entry.interval;
        expect(lo, `${entry.candidate} ${JSON.stringify(options)}`).toBeLessThanOrEqual(entry.strength);
        expect(hi, `${entry.candidate} ${JSON.stringify(options)}`).toBeGreaterThanOrEqual(entry.strength);
        checked++;
      }
      for (const pair of stats.pairs) {
        if (pair.winRate === null) continue;
        expect(pair.interval[0]).toBeLessThanOrEqual(pair.winRate);
        expect(pair.interval[1]).toBeGreaterThanOrEqual(pair.winRate);
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('when every resample agrees, the interval is the estimate (not 1e-16 beside it)', () => {
    const outcomes: PairOutcome[] = Array.from({ length: 5 }, (_, u) => [
      { item: `q${u}`, a: 'v1', b: 'v2', winner: 'A' as const },
      { item: `q${u}`, a: 'v1', b: 'v3', winner: 'A' as const },
    ]).flat();
    const stats = comparisonStats(['v1', 'v2', 'v3'], outcomes, { resamples: 50 });
    for (const entry of stats.ranking) {
      expect(entry.interval![0]).toBeLessThanOrEqual(entry.strength);
      expect(entry.interval![1]).toBeGreaterThanOrEqual(entry.strength);
    }
  });
});
