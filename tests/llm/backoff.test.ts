/**
 * The one backoff (src/backoff/backoff.ts): its curve, its cap, and each jitter, with a fixed random source.
 */
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/backoff/backoff.js';

describe('backoffDelay', () => {
  it('doubles from base on each retry, up to max, without jitter by default', () => {
    const curve = { base: 5, max: 300 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, curve))).toEqual([5, 10, 20, 40, 80, 160, 300, 300]);
    // Below 1 counts as the first retry; a very long run stays at the cap (no overflow to NaN).
    expect(backoffDelay(0, curve)).toBe(5);
    expect(backoffDelay(10_000, curve)).toBe(300);
    expect(backoffDelay(10_000, { base: 0, max: 300 })).toBe(0);
  });

  it('full jitter draws in [0, wait]; a spread draws around it', () => {
    const curve = { base: 100, max: 1_000, jitter: 'full' } as const;
    expect(backoffDelay(3, curve, () => 0)).toBe(0);
    expect(backoffDelay(3, curve, () => 0.5)).toBe(200);
    const spread = { base: 2, max: 30, jitter: { spread: 0.25 } } as const;
    expect(backoffDelay(2, spread, () => 0)).toBe(3);
    expect(backoffDelay(2, spread, () => 0.5)).toBe(4);
    expect(backoffDelay(2, spread, () => 1)).toBe(5);
  });
});
