/** Certified agreement: the calibration size needed, the fixed-sequence threshold, held-out coverage, and the guarantee over resampled splits. */
import { describe, expect, it } from 'vitest';
import type { CalibrationItem } from '../../src/metrics/certify.js';
import { certify, heldOutCertified, isCertified, minCalibrationSize } from '../../src/metrics/certify.js';
import { createRng } from '../../src/metrics/bootstrap.js';

const item = (confidence: number, agrees: boolean): CalibrationItem => ({
  human: 'A',
  stages: [{ winner: agrees ? 'A' : 'B', confidence }],
});

describe('certify', () => {
  it('needs max(30, ceil(ln risk / ln agreement)) labels, and says how many more', () => {
    expect(minCalibrationSize({ agreement: 0.8, risk: 0.05 })).toBe(30);
    // 0.95^n ≤ 0.01 → n ≥ 89.8
    expect(minCalibrationSize({ agreement: 0.95, risk: 0.01 })).toBe(90);
    expect(() => certify([item(1, true)], { agreement: 0.8, risk: 0.05 })).toThrow(/29 more/);
  });

  it('keeps the strictest confidences while the binomial test passes, stops at the first failure', () => {
    // 60 sure and right; 40 unsure, half wrong: at 0.5 the 100 items have 20 errors, P(Bin(100, .2) ≤ 20) ≈ 0.56 > 0.05.
    const items = [
      ...Array.from({ length: 60 }, () => item(0.9, true)),
      ...Array.from({ length: 40 }, (_, i) => item(0.5, i % 2 === 0)),
    ];
    const c = certify(items, { agreement: 0.8, risk: 0.05 });
    expect(c.thresholds).toEqual([0.9]);
    expect(c.guarantee).toEqual({ agreement: 0.8, risk: 0.05, coverage: 0.6, calibrationSize: 100 });
    expect(isCertified(0, 0.9, c.thresholds)).toBe(true);
    expect(isCertified(0, 0.5, c.thresholds)).toBe(false);
    expect(heldOutCertified(items, c.thresholds)).toEqual({ n: 100, answered: 60, coverage: 0.6, agreement: 1 });
  });

  it('holds agreement ≥ 0.8 on held-out items in at least 95% of resampled splits', () => {
    // A judge whose confidence is informative: P(right) rises with confidence.
    const random = createRng(7);
    const population = Array.from({ length: 400 }, () => {
      const confidence = Math.round(random() * 20) / 20;
      return item(confidence, random() < 0.3 + 0.7 * confidence);
    });
    let held = 0;
    let answered = 0;
    const splits = 200;
    for (let s = 0; s < splits; s++) {
      const order = population.map((x) => ({ x, k: random() })).sort((a, b) => a.k - b.k);
      const cal = order.slice(0, 200).map((o) => o.x);
      const test = order.slice(200).map((o) => o.x);
      const { thresholds } = certify(cal, { agreement: 0.8, risk: 0.05 });
      const out = heldOutCertified(test, thresholds);
      if (out.agreement === null || out.agreement >= 0.8) held++;
      answered += out.coverage ?? 0;
    }
    expect(held / splits).toBeGreaterThanOrEqual(0.95);
    expect(answered / splits).toBeGreaterThan(0.1);
  });
});
