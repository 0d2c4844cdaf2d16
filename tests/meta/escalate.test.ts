import { describe, expect, it } from 'vitest';
import type { CascadeDetails, StageReport } from '../../src/engine/methods/cascade/index.js';
import { createRng } from '../../src/metrics/bootstrap.js';
import { binomialCdf } from '../../src/metrics/cascade-thresholds.js';
import type { EscalateItem } from '../../src/metrics/escalate.js';
import {
  CascadeCalibrationSchema,
  calibrateCascade,
  calibrationMarkdown,
  disagreementUpperBound,
  escalateItemsOf,
  evaluateThresholds,
  stageAction,
  trustOrEscalate,
} from '../../src/metrics/escalate.js';

/** `count` items whose stage verdicts are given; the first `wrong` of them disagree with the human label A. */
function group(count: number, wrong: number, stage0: number, stage1: number | null, wrong1 = 0): EscalateItem[] {
  return Array.from({ length: count }, (_, x) => ({
    human: 'A' as const,
    stages: [
      { winner: x < wrong ? ('B' as const) : ('A' as const), confidence: stage0 },
      stage1 === null ? null : { winner: x < wrong1 ? ('B' as const) : ('A' as const), confidence: stage1 },
    ],
  }));
}

/**
 * 60 items by hand. Stage 0: 20 at confidence 0.9, all right; 10 at 0.8, 1 wrong; 30 at 0.6, 20 wrong.
 * Stage 1 on the 30 that stage 0 will not trust: 25 at 0.95, 1 wrong; 5 at 0.5, 4 wrong.
 */
const handItems: EscalateItem[] = [
  ...group(20, 0, 0.9, 0.99),
  ...group(10, 1, 0.8, 0.99),
  ...group(25, 20, 0.6, 0.95, 1),
  ...group(5, 0, 0.6, 0.5, 4),
];

describe('calibrateCascade on a case worked by hand (α = 0.2, δ = 0.1)', () => {
  it('minTrusted 20: stage 0 passes 0.9 and 0.8 and fails 0.6; stage 1 passes 0.95 and fails 0.5', () => {
    // Stage 0: P(Bin(20, .2) ≤ 0) = .8²⁰ = 0.0115 ≤ .1; P(Bin(30, .2) ≤ 1) = 0.0105 ≤ .1;
    //          P(Bin(60, .2) ≤ 21) = 0.998 > .1: stop. Threshold 0.8, trusting 30 at 29/30.
    // Stage 1 (30 items left): P(Bin(25, .2) ≤ 1) = 0.0274; P(Bin(30, .2) ≤ 5) = 0.428: stop. 0.95, 24/25.
    expect(binomialCdf(1, 30, 0.2)).toBeCloseTo(0.010522490333925749, 12);
    expect(binomialCdf(1, 25, 0.2)).toBeCloseTo(0.027389725600643983, 12);
    const c = calibrateCascade(handItems, { minTrusted: 20 });
    expect(c.thresholds).toEqual([0.8, 0.95]);
    expect(c.stages[0]).toMatchObject({ reached: 60, tested: 3, trusted: 30, agreement: 29 / 30, unrecorded: 0 });
    expect(c.stages[1]).toMatchObject({ reached: 30, tested: 2, trusted: 25, agreement: 24 / 25 });
    expect(c.stages[0]!.disagreementBound).toBeCloseTo(0.12356999067525615, 9);
    expect(c.stages[1]!.disagreementBound).toBeCloseTo(0.146867196148564, 9);
    expect(c).toMatchObject({ n: 60, covered: 55, abstained: 5, coverage: 55 / 60, agreement: 53 / 55 });
    expect(CascadeCalibrationSchema.parse(c)).toEqual(c);
  });

  it('minTrusted 30 (the default): thresholds trusting fewer items are not tested, so stage 1 trusts nothing', () => {
    const c = calibrateCascade(handItems);
    expect(c.thresholds).toEqual([0.8, null]);
    expect(c.stages[1]).toMatchObject({ tested: 1, trusted: 0, agreement: null, disagreementBound: null });
    expect(c.covered).toBe(30);
  });

  it('bonferroni tests each of the 2 stages at δ/2: at δ = 0.04 stage 1 (p = 0.027) passes per stage but not at 0.02', () => {
    expect(calibrateCascade(handItems, { minTrusted: 20, delta: 0.04 }).thresholds).toEqual([0.8, 0.95]);
    const split = calibrateCascade(handItems, { minTrusted: 20, delta: 0.04, deltaSplit: 'bonferroni' });
    expect(split.thresholds).toEqual([0.8, null]);
    expect(split.stages[1]!.delta).toBe(0.02);
  });

  it('states the guarantee in words', () => {
    const c = calibrateCascade(handItems, { minTrusted: 20 });
    expect(c.guarantee).toBe(
      'For new items drawn like the 60 calibration items, with probability at least 90% the verdicts each stage trusts agree with the human label at least 80% of the time; all 2 stages at once, and so every verdict the cascade trusts, with probability at least 80% (union bound; δ was spent at each stage, as in the paper). On the calibration items it trusts 91.7% of them, at 96.4% agreement, and abstains on the rest.',
    );
  });

  it('leaves out items a stage never recorded, and says so', () => {
    const c = calibrateCascade([...handItems, ...group(3, 0, 0.1, null)], { minTrusted: 20 });
    expect(c.stages[1]).toMatchObject({ reached: 30, unrecorded: 3 });
    expect(c.abstained).toBe(8);
  });

  it('the Clopper–Pearson bound with no error is 1 − δ^(1/n)', () => {
    expect(disagreementUpperBound(0, 20, 0.1)).toBeCloseTo(1 - 0.1 ** (1 / 20), 10);
    expect(disagreementUpperBound(5, 5, 0.1)).toBe(1);
    expect(disagreementUpperBound(0, 0, 0.1)).toBeNull();
  });
});

describe('trust, escalate or abstain for one item', () => {
  const thresholds = [0.8, 0.95];

  it('trusts the first stage that reaches its threshold', () => {
    expect(trustOrEscalate([{ winner: 'B', confidence: 0.85 }], thresholds)).toEqual({
      action: 'trust',
      stage: 0,
      winner: 'B',
      confidence: 0.85,
      threshold: 0.8,
    });
    expect(
      trustOrEscalate(
        [
          { winner: 'A', confidence: 0.5 },
          { winner: 'B', confidence: 0.97 },
        ],
        thresholds,
      ),
    ).toMatchObject({ action: 'trust', stage: 1, winner: 'B' });
  });

  it('asks for the next stage when the current one is below its threshold', () => {
    expect(trustOrEscalate([{ winner: 'A', confidence: 0.5 }], thresholds)).toEqual({ action: 'run', stage: 1 });
    expect(trustOrEscalate([], thresholds)).toEqual({ action: 'run', stage: 0 });
  });

  it('abstains below every threshold, with the reason per stage and the stage that abstained', () => {
    expect(
      trustOrEscalate(
        [
          { winner: 'A', confidence: 0.5 },
          { winner: 'A', confidence: 0.9 },
        ],
        thresholds,
      ),
    ).toEqual({ action: 'abstain', stage: 1, reason: 'stage 0: confidence 0.5 < 0.8; stage 1: confidence 0.9 < 0.95' });
    expect(trustOrEscalate([null, { winner: 'A', confidence: 1 }], [0.8, null])).toEqual({
      action: 'abstain',
      stage: 1,
      reason: 'stage 0: no verdict; stage 1: trusts no verdict (no threshold passed calibration)',
    });
  });

  it('stageAction: trust at or above the threshold, escalate below, abstain below at the last stage', () => {
    expect(stageAction(0, 0.8, thresholds)).toBe('trust');
    expect(stageAction(0, 0.79, thresholds)).toBe('escalate');
    expect(stageAction(1, 0.9, thresholds)).toBe('abstain');
    expect(stageAction(1, null, thresholds)).toBe('abstain');
    expect(() => stageAction(2, 0.9, thresholds)).toThrow(RangeError);
  });

  it('evaluateThresholds gives coverage and agreement on labelled items', () => {
    expect(evaluateThresholds(handItems, [0.8, 0.95])).toEqual({
      n: 60,
      covered: 55,
      coverage: 55 / 60,
      agreement: 53 / 55,
      perStage: [
        { stage: 0, trusted: 30, agreement: 29 / 30 },
        { stage: 1, trusted: 25, agreement: 24 / 25 },
      ],
    });
  });
});

describe('the guarantee on held-out synthetic data', () => {
  /**
   * Two stages. Stage confidences are Uniform(0.5, 1), independent; stage 0 is over-confident (right with
   * probability c − 0.15), stage 1 calibrated (right with probability c). For thresholds λ₀, λ₁ the held-out
   * population's agreement on covered items is exact: stage 0 covers 2(1 − λ₀) with ∫ 2(c − 0.15) dc =
   * 0.7 − λ₀² + 0.3λ₀ right; of the rest, 2λ₀ − 1, stage 1 covers 2(1 − λ₁), right 1 − λ₁².
   */
  const alpha = 0.2;
  const delta = 0.1;

  function draw(n: number, seed: number): EscalateItem[] {
    const random = createRng(seed);
    return Array.from({ length: n }, () => {
      const c0 = 0.5 + random() / 2;
      const c1 = 0.5 + random() / 2;
      const right0 = random() < c0 - 0.15;
      const right1 = random() < c1;
      return {
        human: 'A' as const,
        stages: [
          { winner: right0 ? ('A' as const) : ('B' as const), confidence: c0 },
          { winner: right1 ? ('A' as const) : ('B' as const), confidence: c1 },
        ],
      };
    });
  }

  /** Held-out population: per stage covered mass and right mass, and the cascade's agreement. */
  function population(thresholds: readonly (number | null)[]) {
    const clamp = (t: number | null) => (t === null ? 1 : Math.max(0.5, t));
    const l0 = clamp(thresholds[0] ?? null);
    const l1 = clamp(thresholds[1] ?? null);
    const cover0 = 2 * (1 - l0);
    const right0 = cover0 === 0 ? 0 : 0.7 - l0 * l0 + 0.3 * l0;
    const rest = 1 - cover0;
    const cover1 = rest * 2 * (1 - l1);
    const right1 = rest * (1 - l1 * l1);
    const covered = cover0 + cover1;
    return {
      stage0: cover0 === 0 ? null : right0 / cover0,
      stage1: cover1 === 0 ? null : right1 / cover1,
      cascade: covered === 0 ? null : (right0 + right1) / covered,
      coverage: covered,
    };
  }

  /** The most failures among `splits` that a true failure rate of δ gives with probability ≥ 99.9%. */
  function allowedFailures(splits: number): number {
    let b = 0;
    while (1 - binomialCdf(b, splits, delta) > 0.001) b++;
    return b;
  }

  const splits = 300;
  const failed = (agreement: number | null) => agreement !== null && agreement < 1 - alpha;

  it(`fails on at most δ = ${delta} of ${splits} seeded calibration draws (slack: the 99.9% binomial bound)`, () => {
    // Abstaining on everything is no failure (no verdict is trusted); the coverage check below makes sure the
    // cascade does trust something most of the time.
    let cascadeFailures = 0;
    let stageFailures = 0;
    let coverage = 0;
    for (let s = 0; s < splits; s++) {
      const c = calibrateCascade(draw(600, 1000 + s), { alpha, delta });
      const p = population(c.thresholds);
      if (failed(p.cascade)) cascadeFailures++;
      if (failed(p.stage0) || failed(p.stage1)) stageFailures++;
      coverage += p.coverage;
    }
    const bound = allowedFailures(splits);
    expect(bound).toBeLessThan(splits * 0.16);
    expect(cascadeFailures).toBeLessThanOrEqual(bound);
    // Per-stage δ: all stages at once hold with probability ≥ 1 − 2δ.
    expect(stageFailures).toBeLessThanOrEqual(allowedFailures(splits) * 2);
    expect(coverage / splits).toBeGreaterThan(0.5);
  });

  it('bonferroni keeps every stage at once within δ', () => {
    let failures = 0;
    for (let s = 0; s < splits; s++) {
      const c = calibrateCascade(draw(600, 5000 + s), { alpha, delta, deltaSplit: 'bonferroni' });
      const p = population(c.thresholds);
      if (failed(p.stage0) || failed(p.stage1)) failures++;
    }
    expect(failures).toBeLessThanOrEqual(allowedFailures(splits));
  });

  it('the exact held-out agreement matches a sampled held-out set (the population formula is right)', () => {
    const c = calibrateCascade(draw(600, 42), { alpha, delta });
    const held = evaluateThresholds(draw(50_000, 43), c.thresholds);
    const p = population(c.thresholds);
    expect(Math.abs(held.agreement! - p.cascade!)).toBeLessThan(0.01);
    expect(Math.abs(held.coverage! - p.coverage)).toBeLessThan(0.01);
  });

  it('the test has teeth: thresholds chosen by calibration accuracy alone (no binomial test) fail far more often than δ', () => {
    // Per stage: the lowest threshold (trusting ≥ 30) whose trusted calibration items agree ≥ 1 − α.
    const naive = (items: EscalateItem[]) => {
      let pool = items;
      return [0, 1].map((stage) => {
        const sorted = [...pool].sort((x, y) => y.stages[stage]!.confidence - x.stages[stage]!.confidence);
        let t: number | null = null;
        let right = 0;
        for (const [n, it] of sorted.entries()) {
          if (it.stages[stage]!.winner === it.human) right++;
          if (n + 1 >= 30 && right / (n + 1) >= 1 - alpha) t = it.stages[stage]!.confidence;
        }
        pool = pool.filter((it) => t === null || it.stages[stage]!.confidence < t);
        return t;
      });
    };
    let failures = 0;
    for (let s = 0; s < splits; s++) {
      if (failed(population(naive(draw(600, 1000 + s))).cascade)) failures++;
    }
    expect(failures).toBeGreaterThan(allowedFailures(splits));
  });
});

describe('escalateItemsOf', () => {
  const usage = { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0, estimated: false, costUsd: 0 };
  const stage = (k: number, ran: boolean, winner?: 'A' | 'B', confidence?: number): StageReport => ({
    stage: k,
    label: `s${k}`,
    method: 'single',
    ran,
    ...(winner ? { winner } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    calls: ran ? 1 : 0,
    plannedCalls: 1,
    usage,
  });
  const details = (stages: StageReport[]): CascadeDetails => ({
    decidedBy: { stage: 0, label: 's0' },
    runAllStages: true,
    stages,
    savings: { basis: 'measured', calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 },
  });

  it('keeps pairwise labelled items, a stage verdict where the stage ran with a winner', () => {
    const out = escalateItemsOf([
      { human: 'A', cascade: details([stage(0, true, 'B', 0.7), stage(1, false)]) },
      { human: 4, cascade: details([stage(0, true, 'A', 0.9), stage(1, true, 'A', 1)]) },
    ]);
    expect(out).toEqual([{ human: 'A', stages: [{ winner: 'B', confidence: 0.7 }, null] }]);
  });
});

describe('calibrationMarkdown (the meta-eval report)', () => {
  it('states each threshold, the coverage, the agreement on the covered items and the guarantee', () => {
    const c = calibrateCascade(handItems, { minTrusted: 20 });
    const md = calibrationMarkdown(c);
    for (const s of c.stages)
      expect(md).toContain(`| ${s.stage} | ${s.threshold === null ? 'trusts none' : s.threshold.toFixed(3)} |`);
    expect(md).toContain(`(${c.covered} of ${c.n})`);
    expect(md).toContain(c.guarantee);
  });
});
