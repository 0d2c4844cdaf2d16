/** Stability of repeats: flip rate over pairs, the preference's and scores' sample standard deviation, the summary. */
import { describe, expect, it } from 'vitest';
import { itemStability, repeatRunsOf, stabilitySummary } from '../../src/metrics/stability.js';

describe('itemStability', () => {
  it('pairwise: share of disagreeing pairs, preference A = 1, tie = 0.5, B = 0', () => {
    // A, A, B: pairs (A,A) agree, (A,B) ×2 differ → 2/3; preferences 1, 1, 0: mean 2/3, var = (1/9+1/9+4/9)/2 = 1/3.
    const s = itemStability([{ winner: 'A' }, { winner: 'A' }, { winner: 'B' }]);
    expect(s.flipRate).toBeCloseTo(2 / 3);
    expect(s.scoreStdDev).toBeCloseTo(Math.sqrt(1 / 3));
    expect(s).toMatchObject({ repeats: 3, unstable: true });
    expect(itemStability([{ winner: 'tie' }, { winner: 'tie' }])).toEqual({
      flipRate: 0,
      scoreStdDev: 0,
      repeats: 2,
      unstable: false,
    });
  });

  it('pointwise: rounded scores compared, raw scores spread', () => {
    const s = itemStability([{ score: 3 }, { score: 3.4 }, { score: 5 }]);
    // rounded 3, 3, 5: one agreeing pair of three.
    expect(s.flipRate).toBeCloseTo(2 / 3);
    const m = (3 + 3.4 + 5) / 3;
    expect(s.scoreStdDev).toBeCloseTo(Math.sqrt(((3 - m) ** 2 + (3.4 - m) ** 2 + (5 - m) ** 2) / 2));
    expect(itemStability([{ score: 4 }])).toMatchObject({ flipRate: null, scoreStdDev: null, unstable: false });
  });
});

describe('stabilitySummary', () => {
  it('averages measured items and counts errors apart, never as verdicts', () => {
    const a = itemStability([{ winner: 'A' }, { winner: 'B' }]);
    const b = itemStability([{ winner: 'A' }, { winner: 'A' }]);
    expect(stabilitySummary([a, b, 'error'])).toEqual({
      flipRate: 0.5,
      scoreStdDev: (Math.SQRT1_2 + 0) / 2,
      items: 2,
      unstable: 1,
      errors: 1,
    });
    expect(stabilitySummary([])).toEqual({ flipRate: null, scoreStdDev: null, items: 0, unstable: 0, errors: 0 });
  });

  it('reads the runs of a repeat verdict', () => {
    expect(repeatRunsOf({ repeat: { n: 2, runs: [{ winner: 'A', confidence: 1 }, { score: 3 }] } })).toEqual([
      { winner: 'A' },
      { score: 3 },
    ]);
    expect(repeatRunsOf({ cascade: {} })).toBeNull();
  });
});
