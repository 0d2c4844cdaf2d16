import { describe, expect, it } from 'vitest';
import { alphaOf, alphaTable, krippendorffAlpha } from '../../src/metrics/krippendorff.js';
import type { ReliabilityItem } from '../../src/metrics/reliability.js';
import { ReliabilityReportSchema, reliabilityReport } from '../../src/metrics/reliability.js';

describe("Krippendorff's α", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the worked example: 4 observers,
  // 12 units, missing values; published α = 0.743 (nominal) and 0.849 (interval).
  const observers: (number | null)[][] = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  ];
  const units = observers[0]!.map((_, u) => observers.map((o) => o[u]).filter((v): v is number => v !== null));

  it('reproduces the published worked example: nominal 0.743, interval 0.849', () => {
    expect(krippendorffAlpha(units, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, 'interval')).toBeCloseTo(0.849, 3);
  });

  it('drops units with a single value (unit 12 has one) and is undefined when every value is the same', () => {
    expect(alphaTable(units).units).toHaveLength(11);
    expect(krippendorffAlpha([['A', 'A'], ['A']])).toBeNaN();
  });

  it('is 1 for perfect agreement and a resample is a sum over picked units', () => {
    const table = alphaTable([
      ['A', 'A'],
      ['B', 'B'],
      ['A', 'B'],
    ]);
    expect(alphaOf(table, [0, 1])).toBe(1);
    // Units 2 and 2 again: every pair disagrees, n = 4, n_A = n_B = 2: α = 1 − 3·4/(16 − 8) = −0.5.
    expect(alphaOf(table, [2, 2])).toBeCloseTo(-0.5, 12);
  });
});

/**
 * Four items judged three times each, by hand:
 * - q1 (human A): A, A, A; both orders A every time.
 * - q2 (human B): B; tie (AB says A, BA says B: a flip); B.
 * - q3 (human A): A; B; unparsed.
 * - q4 (no label): tie (a flip); failed; inconclusive.
 */
const items: ReliabilityItem[] = [
  {
    id: 'q1',
    human: 'A',
    repeats: [
      { outcome: 'A', orders: { AB: 'A', BA: 'A' } },
      { outcome: 'A', orders: { AB: 'A', BA: 'A' } },
      { outcome: 'A', orders: { AB: 'A', BA: 'A' } },
    ],
  },
  {
    id: 'q2',
    human: 'B',
    repeats: [
      { outcome: 'B', orders: { AB: 'B', BA: 'B' } },
      { outcome: 'tie', orders: { AB: 'A', BA: 'B' } },
      { outcome: 'B', orders: { AB: 'B', BA: 'B' } },
    ],
  },
  {
    id: 'q3',
    human: 'A',
    repeats: [
      { outcome: 'A', orders: { AB: 'A', BA: 'A' } },
      { outcome: 'B', orders: { AB: 'B', BA: 'B' } },
      { outcome: 'unparsed' },
    ],
  },
  {
    id: 'q4',
    repeats: [{ outcome: 'tie', orders: { AB: 'A', BA: 'B' } }, { outcome: 'failed' }, { outcome: 'inconclusive' }],
  },
];

describe('reliability report on a hand-made set', () => {
  const r = reliabilityReport(items, { resamples: 200 });

  it('counts outcomes over all 12 repeats: A 4, B 3, tie 2, unparsed, failed, inconclusive 1 each', () => {
    expect(r.items).toBe(4);
    expect(r.repeats).toBe(12);
    expect(r.repeatsPerItem).toEqual({ min: 3, max: 3 });
    expect(r.rates).toEqual({
      A: 4 / 12,
      B: 3 / 12,
      tie: 2 / 12,
      unparsed: 1 / 12,
      inconclusive: 1 / 12,
      failed: 1 / 12,
    });
  });

  it('test-retest: 1 of 3 compared items agrees throughout; 8 of 14 ordered verdict pairs agree; α = 10/38', () => {
    // Verdicts: q1 [A, A, A], q2 [B, tie, B], q3 [A, B]; q4 has one verdict and is not compared.
    // Agreeing ordered pairs: q1 6 of 6, q2 2 of 6, q3 0 of 2 → 8/14.
    // α: n_A = 4, n_B = 3, n_tie = 1, n = 8; observed Σ (m² − Σn²)/(m − 1) = 0 + (9 − 5)/2 + (4 − 2)/1 = 4;
    // expected n² − Σn_c² = 64 − 26 = 38; α = 1 − 7·4/38 = 10/38.
    expect(r.testRetest.itemsCompared).toBe(3);
    expect(r.testRetest.allAgree.value).toBeCloseTo(1 / 3, 12);
    expect(r.testRetest.pairAgreement.value).toBeCloseTo(8 / 14, 12);
    expect(r.testRetest.alpha.value).toBeCloseTo(10 / 38, 12);
  });

  it('position bias: A wins 6 of 9 order-AB verdicts and 4 of 9 order-BA ones; the first-shown answer 11 of 18', () => {
    expect(r.positionBias.judgements).toBe(18);
    expect(r.positionBias.aWinsWhenFirst).toBeCloseTo(6 / 9, 12);
    expect(r.positionBias.aWinsWhenSecond).toBeCloseTo(4 / 9, 12);
    expect(r.positionBias.firstShownWins.value).toBeCloseTo(11 / 18, 12);
  });

  it('flip rate: 2 of the 9 repeats with both orders', () => {
    expect(r.flips.measured).toBe(9);
    expect(r.flips.rate.value).toBeCloseTo(2 / 9, 12);
  });

  it('with labels: 6 of 8 verdicts right; the majority right on 2 of 3 (q3 splits A/B: a tie); κ = 0.5', () => {
    // κ of human [A, B, A] vs majority [A, B, tie]: p_o = 2/3, p_e = (2/3)(1/3) + (1/3)(1/3) = 1/3, κ = 0.5.
    expect(r.labelled).not.toBeNull();
    expect(r.labelled!.items).toBe(3);
    expect(r.labelled!.scored).toBe(3);
    expect(r.labelled!.perRepeatAccuracy.value).toBeCloseTo(0.75, 12);
    expect(r.labelled!.majorityAccuracy.value).toBeCloseTo(2 / 3, 12);
    expect(r.labelled!.majorityKappa.value).toBeCloseTo(0.5, 12);
  });

  it('gives every figure an interval that holds it, and is valid against its schema', () => {
    const estimates = [
      r.testRetest.allAgree,
      r.testRetest.pairAgreement,
      r.testRetest.alpha,
      r.positionBias.firstShownWins,
      r.flips.rate,
      r.labelled!.perRepeatAccuracy,
      r.labelled!.majorityAccuracy,
    ];
    for (const e of estimates) {
      expect(e.ci).not.toBeNull();
      expect(e.ci!.lo).toBeLessThanOrEqual(e.value!);
      expect(e.ci!.hi).toBeGreaterThanOrEqual(e.value!);
    }
    expect(ReliabilityReportSchema.parse(r)).toEqual(r);
  });

  it('reads a flip from the verdict when orders are not given, and has no labelled block without labels', () => {
    const unlabelled = reliabilityReport(
      [
        {
          id: 'x',
          repeats: [
            { outcome: 'A', flip: true },
            { outcome: 'A', flip: false },
          ],
        },
      ],
      { resamples: 20 },
    );
    expect(unlabelled.flips).toMatchObject({ measured: 2, rate: { value: 0.5 } });
    expect(unlabelled.labelled).toBeNull();
    expect(unlabelled.positionBias.aWinsWhenFirst).toBeNull();
    expect(unlabelled.testRetest.alpha.value).toBeNull();
  });
});
