/**
 * A comparison's layout (where each pair evaluation sits, what its order means) and its two ways to
 * statistics: from item outcomes (final, and small running comparisons) and from verdict counts per pair
 * (large running comparisons). Both must give the same tallies, matrix and gate on the same verdicts.
 */
import { describe, expect, it } from 'vitest';
import type { Layout } from '../../src/comparisons/layout.js';
import {
  mapBack,
  pairOutcome,
  pairsOf,
  positionOf,
  slotsOf,
  toPairOutcome,
  widthOf,
} from '../../src/comparisons/layout.js';
import type { PairTally } from '../../src/comparisons/statistics.js';
import { statisticsFromCounts, statisticsOf } from '../../src/comparisons/statistics.js';
import { StatisticsOptionsSchema } from '../../src/comparisons/schemas.js';
import type { PairOutcome } from '../../src/metrics/pairs.js';

const candidates = ['v1', 'v2', 'v3'];

describe('layout', () => {
  it('lists all pairs in order, or each candidate against the baseline (i < j)', () => {
    expect(pairsOf(candidates, 'all-pairs')).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(pairsOf(candidates, { baseline: 'v2' })).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('places item × width + pair × orders + order, and a BA verdict maps back', () => {
    const layout: Layout = { candidates, pairs: pairsOf(candidates, 'all-pairs'), orders: 2 };
    expect(widthOf(layout)).toBe(6);
    expect(positionOf(layout, 6 * 4 + 2 * 2 + 1)).toEqual({ item: 4, pair: 2, order: 1 });
    const slot = slotsOf(layout)[5];
    expect(slot).toMatchObject({ pair: 2, order: 'BA', a: 'v2', b: 'v3', shownA: 2, shownB: 1 });
    expect(mapBack('A')).toBe('B');
    // Agree-or-tie over the two orders: AB says A, BA (mapped back) says B → a tie, flipped.
    expect(
      pairOutcome(layout, [
        { winner: 'A', flip: null },
        { winner: 'A', flip: null },
      ]),
    ).toEqual({
      winner: 'tie',
      flip: true,
    });
  });
});

describe('statistics from items and from counts agree', () => {
  const layout: Layout = { candidates, pairs: pairsOf(candidates, 'all-pairs'), orders: 1 };
  const options = StatisticsOptionsSchema.parse({ resamples: 200 });
  const gate = { candidate: 'v3', baseline: 'v1', minWinRate: 0.5, confidence: 0.95 };
  // Per pair, per item: v3 beats v1 on 18 of 20, v2 beats v1 on 12, v3 beats v2 on 14, a few ties and one missing.
  const outcomes: PairOutcome[] = [];
  const tallies: PairTally[] = layout.pairs.map((_, pair) => ({
    pair,
    wins: 0,
    ties: 0,
    losses: 0,
    missing: 0,
    flipsMeasured: 0,
    flips: 0,
  }));
  for (let item = 0; item < 20; item++) {
    layout.pairs.forEach((_, pair) => {
      const bWins = [12, 18, 14][pair] ?? 0;
      const winner = item === 19 && pair === 0 ? null : item === 18 ? 'tie' : item < bWins ? 'B' : 'A';
      const flip = winner === null ? null : item % 5 === 0;
      outcomes.push(toPairOutcome(layout, item, pair, { winner, flip }));
      const t = tallies[pair]!;
      if (winner === 'A') t.wins += 1;
      else if (winner === 'B') t.losses += 1;
      else if (winner === 'tie') t.ties += 1;
      else t.missing += 1;
      if (flip !== null) {
        t.flipsMeasured += 1;
        if (flip) t.flips += 1;
      }
    });
  }
  const fromItems = statisticsOf(layout, outcomes, options, gate, 'final');
  const fromCounts = statisticsFromCounts(layout, tallies, options, gate);

  it('the same pairs, matrix, judge rates and gate', () => {
    expect(fromCounts.pairs).toEqual(fromItems.pairs);
    expect(fromCounts.matrix).toEqual(fromItems.matrix);
    expect(fromCounts.judge).toEqual(fromItems.judge);
    expect(fromCounts.gate).toEqual(fromItems.gate);
    expect(fromItems.gate?.outcome).toBe('passed');
    expect(fromItems.summary).toBe(fromItems.gate?.summary);
  });

  it('the same order by strength; counts claim no interval and no separation', () => {
    expect(fromCounts.ranking.map((r) => r.candidate)).toEqual(fromItems.ranking.map((r) => r.candidate));
    expect(fromCounts.ranking.every((r) => r.interval === null && r.rank === 1)).toBe(true);
    expect(fromItems.ranking.map((r) => r.candidate)).toEqual(['v3', 'v2', 'v1']);
    expect(fromItems.ranking.every((r) => r.interval !== null)).toBe(true);
    fromCounts.ranking.forEach((r, i) => {
      expect(r.strength).toBeCloseTo(fromItems.ranking[i]!.strength, 6);
    });
  });

  it('without a gate, the summary is the ranking', () => {
    const s = statisticsOf(layout, outcomes, options, null, 'final');
    expect(s.summary).toMatch(/^ranking \(Bradley–Terry θ, 95% CI\): 1\. v3 \+\d\.\d\d \[/);
    expect(statisticsFromCounts(layout, tallies, options, null).summary).toMatch(/intervals once it completes/);
  });
});
