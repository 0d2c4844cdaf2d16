import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PairLabel } from '../../src/metrics/stats.js';
import { AgreementReportSchema, pairwiseReport, pointwiseReport } from '../../src/metrics/agreement.js';
import { toMarkdown } from '../../src/metrics/agreement-markdown.js';
import {
  accuracy,
  averageRanks,
  cohenKappa,
  confusionMatrix,
  flipRate,
  groupCorrelation,
  kappaFromConfusion,
  kendallTauB,
  pearson,
  spearman,
  tieRate,
} from '../../src/metrics/stats.js';
import { bootstrapInterval, createRng } from '../../src/metrics/bootstrap.js';

/** Expands a confusion table (rows: human, columns: judge) into paired label arrays. */
function fromTable<L>(labels: readonly L[], table: number[][]): { human: L[]; judge: L[] } {
  const human: L[] = [];
  const judge: L[] = [];
  table.forEach((row, r) => {
    row.forEach((count, c) => {
      for (let k = 0; k < count; k++) {
        human.push(labels[r]!);
        judge.push(labels[c]!);
      }
    });
  });
  return { human, judge };
}

describe('UniEval test vector (Topical-Chat, 360 items, turn level)', () => {
  const rows = JSON.parse(
    readFileSync(new URL('../../datasets/topical_chat/unieval_predictions_360.json', import.meta.url), 'utf8'),
  ) as { scores: Record<string, number>; predict_scores: Record<string, number> }[];
  // Published in the UniEval README; the shared datasets README that came with the data recomputed them with scipy.
  const expected: Record<string, [number, number, number]> = {
    naturalness: [0.443666, 0.513986, 0.373973],
    coherence: [0.595143, 0.612942, 0.465915],
    engagingness: [0.55651, 0.604739, 0.455941],
    groundedness: [0.536209, 0.574954, 0.451533],
    understandability: [0.380038, 0.467807, 0.360741],
    overall: [0.632796, 0.662583, 0.487272],
  };
  it('has 360 items', () => {
    expect(rows).toHaveLength(360);
  });
  for (const [dimension, [r, rho, tau]] of Object.entries(expected)) {
    it(`${dimension}: Pearson, Spearman, Kendall τ-b to 1e-6`, () => {
      const predicted = rows.map((row) => row.predict_scores[dimension]!);
      const human = rows.map((row) => row.scores[dimension]!);
      expect(Math.abs(pearson(predicted, human) - r)).toBeLessThan(1e-6);
      expect(Math.abs(spearman(predicted, human) - rho)).toBeLessThan(1e-6);
      expect(Math.abs(kendallTauB(predicted, human) - tau)).toBeLessThan(1e-6);
    });
  }

  // Dialogue level (per dialogue of 6, constant dialogues skipped, mean), recomputed with scipy 1.17.
  const dialogueLevel: Record<string, { used: number; values: [number, number, number] }> = {
    coherence: { used: 60, values: [0.506709808, 0.559931363, 0.466797732] },
    groundedness: { used: 54, values: [0.571388728, 0.613822521, 0.539317517] },
  };
  for (const [dimension, { used, values }] of Object.entries(dialogueLevel)) {
    it(`${dimension}: dialogue-level correlations match scipy`, () => {
      const groups = rows.map((_, i) => String(Math.floor(i / 6)));
      const predicted = rows.map((row) => row.predict_scores[dimension]!);
      const human = rows.map((row) => row.scores[dimension]!);
      [pearson, spearman, kendallTauB].forEach((correlation, k) => {
        const result = groupCorrelation(groups, predicted, human, correlation);
        expect(result.groupsUsed).toBe(used);
        expect(Math.abs(result.value - values[k]!)).toBeLessThan(1e-8);
      });
    });
  }
});

describe('classification agreement', () => {
  it('accuracy counts exact matches', () => {
    expect(accuracy(['A', 'B', 'tie', 'A'], ['A', 'tie', 'tie', 'B'])).toBe(0.5);
    expect(accuracy([], [])).toBeNaN();
    expect(() => accuracy(['A'], [])).toThrow(/length/);
  });

  it('κ on a 2×2 table', () => {
    // human\judge  yes  no
    //   yes         20    5   (25)
    //   no          10   15   (25)
    //              (30) (20)  n = 50
    // p_o = 35/50 = 0.7; p_e = (25·30 + 25·20)/50² = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4
    const { human, judge } = fromTable(
      ['yes', 'no'],
      [
        [20, 5],
        [10, 15],
      ],
    );
    expect(cohenKappa(human, judge)).toBeCloseTo(0.4, 12);
    expect(
      kappaFromConfusion([
        [20, 5],
        [10, 15],
      ]),
    ).toBeCloseTo(0.4, 12);
  });

  it('κ on a 3×3 A/B/tie table', () => {
    // human\judge  A   B  tie
    //   A         10   2   3   (15)
    //   B          1   8   1   (10)
    //   tie        2   1   2   (5)
    //            (13) (11) (6)  n = 30
    // p_o = 20/30; p_e = (15·13 + 10·11 + 5·6)/900 = 335/900; κ = (600 − 335)/(900 − 335) = 265/565
    const { human, judge } = fromTable<PairLabel>(
      ['A', 'B', 'tie'],
      [
        [10, 2, 3],
        [1, 8, 1],
        [2, 1, 2],
      ],
    );
    expect(cohenKappa(human, judge, ['A', 'B', 'tie'])).toBeCloseTo(265 / 565, 12);
    expect(confusionMatrix(human, judge, ['A', 'B', 'tie']).counts).toEqual([
      [10, 2, 3],
      [1, 8, 1],
      [2, 1, 2],
    ]);
  });

  it('binary human labels with judge ties: 3-class κ, ties count as disagreement', () => {
    // human A,A,B,B; judge A,tie,B,A → rows A:[1,0,1] B:[1,1,0] tie:[0,0,0]
    // p_o = 2/4; p_e = (2·2 + 2·1 + 0·1)/16 = 6/16; κ = (0.5 − 0.375)/0.625 = 0.2
    const human: PairLabel[] = ['A', 'A', 'B', 'B'];
    const judge: PairLabel[] = ['A', 'tie', 'B', 'A'];
    expect(cohenKappa(human, judge, ['A', 'B', 'tie'])).toBeCloseTo(0.2, 12);
    const report = pairwiseReport(
      human.map((h, i) => ({ human: h, judge: judge[i] })),
      { bootstrap: false },
    );
    expect(report.accuracy.value).toBe(0.5);
    expect(report.accuracyDecided).toBeCloseTo(2 / 3, 12);
    expect(report.kappa.value).toBeCloseTo(0.2, 12);
    expect(report.tieRate).toBe(0.25);
  });

  it('κ is undefined when both raters use one label', () => {
    expect(cohenKappa(['A', 'A'], ['A', 'A'])).toBeNaN();
  });

  it('tie and flip rates', () => {
    expect(tieRate(['A', 'tie', 'B', 'tie'])).toBe(0.5);
    expect(flipRate([true, false, null, undefined, false, true])).toEqual({ rate: 0.5, measured: 4 });
    expect(flipRate([null]).rate).toBeNaN();
  });
});

describe('correlation', () => {
  it('average ranks for ties', () => {
    expect(averageRanks([10, 20, 20, 30, 20])).toEqual([1, 3, 3, 5, 3]);
  });

  it('Spearman with ties', () => {
    // ranks x = [1, 2.5, 2.5, 4], y = [1, 3, 2, 4]; deviations x (−1.5, 0, 0, 1.5), y (−1.5, .5, −.5, 1.5)
    // Σdxdy = 4.5, Σdx² = 4.5, Σdy² = 5 → ρ = 4.5/√22.5 = 3/√10
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(3 / Math.sqrt(10), 12);
  });

  it('Kendall τ-b with ties in both variables', () => {
    // x = [1,2,2,3,4], y = [2,1,3,3,1]; of 10 pairs: concordant (0,2)(0,3)(1,3) = 3,
    // discordant (0,1)(0,4)(2,4)(3,4) = 4; tied in x: (1,2) → n1 = 1; tied in y: (1,4)(2,3) → n2 = 2
    // τ-b = (3 − 4)/√((10 − 1)(10 − 2)) = −1/√72
    expect(kendallTauB([1, 2, 2, 3, 4], [2, 1, 3, 3, 1])).toBeCloseTo(-1 / Math.sqrt(72), 12);
    // x = [1,2,2,3], y = [1,3,2,4]: C = 5, D = 0, n1 = 1 → 5/√(5·6)
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(5 / Math.sqrt(30), 12);
  });

  it('Kendall τ-b matches the O(n²) definition on random data with many ties', () => {
    const random = createRng(7);
    const x = Array.from({ length: 200 }, () => Math.floor(random() * 5));
    const y = Array.from({ length: 200 }, () => Math.floor(random() * 4));
    let c = 0;
    let d = 0;
    let tx = 0;
    let ty = 0;
    for (let i = 0; i < x.length; i++) {
      for (let j = i + 1; j < x.length; j++) {
        const s = Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
        if (s > 0) c++;
        if (s < 0) d++;
        if (x[i] === x[j]) tx++;
        if (y[i] === y[j]) ty++;
      }
    }
    const n0 = (x.length * (x.length - 1)) / 2;
    expect(kendallTauB(x, y)).toBeCloseTo((c - d) / Math.sqrt((n0 - tx) * (n0 - ty)), 12);
  });

  it('undefined on constant input', () => {
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(spearman([1, 2, 3], [2, 2, 2])).toBeNaN();
    expect(kendallTauB([1, 1], [1, 2])).toBeNaN();
    expect(pearson([1], [1])).toBeNaN();
  });

  it('group level skips groups where either side is constant and averages the rest', () => {
    const groups = ['g1', 'g1', 'g1', 'g2', 'g2', 'g2', 'g3', 'g3', 'g3', 'g4', 'g4', 'g4'];
    const x = [1, 2, 3, 1, 1, 1, 1, 2, 3, 1, 2, 3];
    const y = [1, 2, 3, 1, 2, 3, 1, 3, 2, 5, 5, 5];
    // g1: r = 1; g2: x constant → skipped; g3: Σdxdy = 1, Σdx² = Σdy² = 2 → r = 0.5; g4: y constant → skipped
    const result = groupCorrelation(groups, x, y, pearson);
    expect(result.perGroup).toEqual([1, 0.5]);
    expect(result.value).toBeCloseTo(0.75, 12);
    expect(result.groupsUsed).toBe(2);
    expect(result.groupsSkipped).toBe(2);
  });
});

describe('bootstrap', () => {
  const random = createRng(42);
  const human = Array.from({ length: 120 }, () => Math.round(random() * 4) + 1);
  const judge = human.map((h) => h + (random() - 0.5) * 3);

  it('the PRNG is deterministic per seed', () => {
    const a = createRng(1);
    const b = createRng(1);
    const c = createRng(2);
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    expect([c(), c(), c()]).not.toEqual(seqA);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it('same seed → same interval; interval contains the point estimate', () => {
    const stat = (idx: readonly number[]) =>
      pearson(
        idx.map((i) => judge[i]!),
        idx.map((i) => human[i]!),
      );
    const first = bootstrapInterval(human.length, stat, { seed: 3, resamples: 500 });
    const second = bootstrapInterval(human.length, stat, { seed: 3, resamples: 500 });
    const other = bootstrapInterval(human.length, stat, { seed: 4, resamples: 500 });
    expect(first).toEqual(second);
    expect(other).not.toEqual(first);
    const point = pearson(judge, human);
    expect(first!.lo).toBeLessThanOrEqual(point);
    expect(first!.hi).toBeGreaterThanOrEqual(point);
    expect(first!.lo).toBeLessThan(first!.hi);
  });

  it('narrower at a lower level', () => {
    const stat = (idx: readonly number[]) =>
      spearman(
        idx.map((i) => judge[i]!),
        idx.map((i) => human[i]!),
      );
    const wide = bootstrapInterval(human.length, stat, { level: 0.95 })!;
    const narrow = bootstrapInterval(human.length, stat, { level: 0.5 })!;
    expect(narrow.hi - narrow.lo).toBeLessThan(wide.hi - wide.lo);
  });
});

describe('reports', () => {
  it('pairwise report counts missing judges, flips and labels', () => {
    const items = [
      { human: 'A', judge: 'A', flip: false },
      { human: 'A', judge: 'B', flip: true },
      { human: 'B', judge: 'B', flip: null },
      { human: 'tie', judge: 'tie' },
      { human: 'B' }, // unparsed
      { human: 'A', judge: 'A', flip: false },
    ] as const;
    const report = pairwiseReport(items, { bootstrap: { resamples: 200, seed: 9 } });
    expect(AgreementReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ n: 6, nScored: 5, nMissing: 1, nFlipMeasured: 3, tieRate: 0.2 });
    expect(report.accuracy.value).toBe(0.8);
    expect(report.flipRate).toBeCloseTo(1 / 3, 12);
    expect(report.humanLabels).toEqual({ A: 3, B: 1, tie: 1 });
    expect(report.judgeLabels).toEqual({ A: 2, B: 2, tie: 1 });
    expect(report.confusion).toEqual([
      [2, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(report.bootstrap).toEqual({ resamples: 200, seed: 9, level: 0.95 });
    expect(report.accuracy.ci!.lo).toBeLessThanOrEqual(0.8);
    expect(report.accuracy.ci!.hi).toBeGreaterThanOrEqual(0.8);
    expect(pairwiseReport(items, { bootstrap: { resamples: 200, seed: 9 } })).toEqual(report);
    const md = toMarkdown(report);
    expect(md).toContain('n = 6, scored = 5, missing = 1');
    expect(md).toContain('| accuracy | 0.800 |');
  });

  it('pointwise report: item and group level, constant groups skipped', () => {
    const items = [
      { group: 'a', human: 1, judge: 1 },
      { group: 'a', human: 2, judge: 2 },
      { group: 'a', human: 3, judge: 3 },
      { group: 'b', human: 1, judge: 2 },
      { group: 'b', human: 2, judge: 2 },
      { group: 'b', human: 3, judge: 2 },
      { group: 'c', human: 1, judge: 1 },
      { group: 'c', human: 2, judge: 3 },
      { group: 'c', human: 3, judge: 2 },
      { group: 'c', human: 3 }, // unparsed
    ];
    const report = pointwiseReport(items);
    expect(AgreementReportSchema.parse(report)).toEqual(report);
    expect(report).toMatchObject({ n: 10, nScored: 9, nMissing: 1, nGroups: 3 });
    expect(report.group.pearson).toMatchObject({ groupsUsed: 2, groupsSkipped: 1 });
    expect(report.group.pearson.value).toBeCloseTo(0.75, 12);
    for (const e of [report.item.pearson, report.item.spearman, report.group.spearman]) {
      expect(e.ci!.lo).toBeLessThanOrEqual(e.value!);
      expect(e.ci!.hi).toBeGreaterThanOrEqual(e.value!);
    }
    expect(toMarkdown(report)).toContain('2 groups, 1 skipped');
  });

  it('empty or all-missing input gives nulls, not NaN', () => {
    const report = pointwiseReport([{ group: 'a', human: 1 }]);
    expect(report.item.pearson).toEqual({ value: null, ci: null });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(toMarkdown(pairwiseReport([], { bootstrap: false }))).toContain('| accuracy | n/a | – |');
  });
});
