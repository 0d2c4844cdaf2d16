/**
 * Accuracy on a pass/fail (two-point) scale (src/metrics/pass-fail.ts): which scales count as two points, how
 * a judge's score between the points is read, which examples are left out, and its bootstrap interval.
 */
import { describe, expect, it } from 'vitest';
import { isTwoPoint, twoPointAccuracy } from '../../src/metrics/pass-fail.js';

describe('isTwoPoint', () => {
  it('is true only for two adjacent integer points', () => {
    expect(
      [
        { min: 0, max: 1 },
        { min: 1, max: 2 },
        { min: 0, max: 2 },
        { min: 1, max: 5 },
        { min: 0.5, max: 1.5 },
      ].map(isTwoPoint),
    ).toEqual([true, true, false, false, false]);
    expect([isTwoPoint(undefined), isTwoPoint(null)]).toEqual([false, false]);
  });
});

describe('twoPointAccuracy', () => {
  const scale = { min: 0, max: 1 };

  it('reads a score as the nearer point, the midpoint as the upper one', () => {
    const items = [
      { human: 1, judge: 0.5 }, // midpoint → 1: agrees
      { human: 0, judge: 0.49 }, // → 0: agrees
      { human: 0, judge: 0.75 }, // → 1: differs
      { human: 1, judge: 1 }, // agrees
    ];
    expect(twoPointAccuracy(items, scale, false)).toEqual({ value: 0.75, ci: null });
    // On another two-point scale the midpoint is that scale's.
    expect(twoPointAccuracy([{ human: 2, judge: 1.5 }], { min: 1, max: 2 }, false).value).toBe(1);
  });

  it('leaves out examples without a finite judge score; none scored is null, with no interval', () => {
    const items = [{ human: 1, judge: 1 }, { human: 0, judge: null }, { human: 1 }, { human: 0, judge: Number.NaN }];
    expect(twoPointAccuracy(items, scale, false).value).toBe(1);
    expect(twoPointAccuracy([{ human: 1, judge: null }], scale)).toEqual({ value: null, ci: null });
  });

  it('bootstraps over examples: an interval around the value, the same for the same seed', () => {
    const items = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1].map((human, i) => ({ human, judge: i % 3 === 0 ? 1 - human : human }));
    const a = twoPointAccuracy(items, scale, { resamples: 200, seed: 7 });
    expect(a.value).toBe(0.6);
    expect(a.ci).not.toBeNull();
    expect(a.ci?.lo).toBeLessThanOrEqual(0.6);
    expect(a.ci?.hi).toBeGreaterThanOrEqual(0.6);
    expect(a.ci?.lo).toBeLessThan(a.ci?.hi ?? 0);
    expect(twoPointAccuracy(items, scale, { resamples: 200, seed: 7 })).toEqual(a);
  });
});
