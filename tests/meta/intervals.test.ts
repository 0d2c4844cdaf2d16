import { describe, expect, it } from 'vitest';
import { normalQuantile, wilsonInterval, wilsonSampleSize, zFor } from '../../src/metrics/intervals.js';

describe('normalQuantile (AS241)', () => {
  // Reference values: Φ⁻¹ as tabulated (and as Python's statistics.NormalDist, scipy.stats.norm.ppf give them).
  it.each([
    [0.5, 0],
    [0.75, 0.6744897501960817],
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489004],
    [0.025, -1.959963984540054],
    [1e-10, -6.361340902404056],
  ])('Φ⁻¹(%d) = %d', (p, x) => {
    expect(normalQuantile(p)).toBeCloseTo(x, 12);
  });

  it('is ∓Infinity at 0 and 1 and refuses values outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.5)).toThrow(RangeError);
    expect(() => zFor(1)).toThrow(RangeError);
  });
});

describe('wilsonInterval', () => {
  const z = 1.959963984540054;
  it('8 of 10 at 95%: centre (p + z²/2n)/(1 + z²/n), half-width z/(1 + z²/n)·√(p(1−p)/n + z²/4n²)', () => {
    const z2n = (z * z) / 10;
    const centre = (0.8 + z2n / 2) / (1 + z2n);
    const half = (z / (1 + z2n)) * Math.sqrt(0.016 + z2n / 40);
    const [lo, hi] = wilsonInterval(8, 10);
    expect(lo).toBeCloseTo(centre - half, 12);
    expect(hi).toBeCloseTo(centre + half, 12);
    expect(lo).toBeCloseTo(0.4901624715366418, 12);
    expect(hi).toBeCloseTo(0.9433178485456248, 12);
  });

  it('behaves at 0 and n: [0, z²/(n + z²)] and [n/(n + z²), 1], never a zero-width interval', () => {
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 10)[1]).toBeCloseTo((z * z) / (10 + z * z), 12);
    expect(wilsonInterval(10, 10)[0]).toBeCloseTo(10 / (10 + z * z), 12);
    expect(wilsonInterval(10, 10)[1]).toBeCloseTo(1, 12);
  });

  it('takes fractional successes (ties as half) and is [0, 1] with no trial', () => {
    const [lo, hi] = wilsonInterval(7.5, 10);
    expect(lo).toBeLessThan(0.75);
    expect(hi).toBeGreaterThan(0.75);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
  });

  it('narrows as the level drops', () => {
    const wide = wilsonInterval(55, 100, 0.95);
    const narrow = wilsonInterval(55, 100, 0.5);
    expect(narrow[0]).toBeGreaterThan(wide[0]);
    expect(narrow[1]).toBeLessThan(wide[1]);
  });
});

describe('wilsonSampleSize', () => {
  it('p = 1 against 0.5: n/(n + z²) > 0.5 ⇔ n > z² = 3.84, so 4', () => {
    expect(wilsonSampleSize(1, 0.5)).toBe(4);
    expect(wilsonInterval(3, 3)[0]).toBeLessThan(0.5);
    expect(wilsonInterval(4, 4)[0]).toBeGreaterThan(0.5);
  });

  it('p = 0.6 against 0.5: the first n whose Wilson lower bound clears 0.5 (97; Wald says z²·0.24/0.01 ≈ 92)', () => {
    expect(wilsonSampleSize(0.6, 0.5)).toBe(97);
    expect(wilsonInterval(0.6 * 96, 96)[0]).toBeLessThanOrEqual(0.5);
    expect(wilsonInterval(0.6 * 97, 97)[0]).toBeGreaterThan(0.5);
  });

  it('works below the threshold and is null at it', () => {
    expect(wilsonSampleSize(0.4, 0.5)).toBe(97);
    expect(wilsonSampleSize(0.5, 0.5)).toBeNull();
  });
});
