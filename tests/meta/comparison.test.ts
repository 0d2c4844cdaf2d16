import { describe, expect, it } from 'vitest';
import { ComparisonStatsSchema, comparisonStats } from '../../src/metrics/comparison.js';
import { wilsonInterval } from '../../src/metrics/intervals.js';
import type { PairOutcome } from '../../src/metrics/pairs.js';
import { combineOrderWinners } from '../../src/metrics/pairs.js';
import { simulateTournament } from '../support/tournament.js';

describe('combineOrderWinners (agree-or-tie)', () => {
  it('keeps an agreed winner, turns a disagreement into a tie and a flip, passes one order through', () => {
    expect(combineOrderWinners('A', 'A')).toEqual({ winner: 'A', flip: false });
    expect(combineOrderWinners('A', 'B')).toEqual({ winner: 'tie', flip: true });
    expect(combineOrderWinners('A', 'tie')).toEqual({ winner: 'tie', flip: true });
    expect(combineOrderWinners(null, 'B')).toEqual({ winner: 'B', flip: null });
    expect(combineOrderWinners(null, null)).toEqual({ winner: null, flip: null });
  });
});

describe('pairs, matrix and judge rates on a hand-made comparison', () => {
  const outcomes: PairOutcome[] = [
    { item: 'q1', a: 'v1', b: 'v2', winner: 'A', flip: false },
    { item: 'q2', a: 'v1', b: 'v2', winner: 'B', flip: false },
    { item: 'q3', a: 'v1', b: 'v2', winner: 'tie', flip: true },
    { item: 'q4', a: 'v1', b: 'v2', winner: null },
    // Submitted the other way round: v3 as A. v2 wins q1 and q2, v3 wins q3.
    { item: 'q1', a: 'v3', b: 'v2', winner: 'B', flip: false },
    { item: 'q2', a: 'v3', b: 'v2', winner: 'B', flip: false },
    { item: 'q3', a: 'v3', b: 'v2', winner: 'A', flip: false },
    { item: 'q1', a: 'v1', b: 'v3', winner: 'A' },
  ];
  const stats = comparisonStats(['v1', 'v2', 'v3'], outcomes, { resamples: 50 });

  it('tallies each pair oriented by the candidate order, win rate with ties as half and a Wilson 95% interval', () => {
    expect(stats.pairs).toEqual([
      { a: 'v1', b: 'v2', wins: 1, ties: 1, losses: 1, missing: 1, winRate: 0.5, interval: wilsonInterval(1.5, 3) },
      { a: 'v1', b: 'v3', wins: 1, ties: 0, losses: 0, missing: 0, winRate: 1, interval: wilsonInterval(1, 1) },
      { a: 'v2', b: 'v3', wins: 2, ties: 0, losses: 1, missing: 0, winRate: 2 / 3, interval: wilsonInterval(2, 3) },
    ]);
    expect(stats.items).toBe(4);
  });

  it('fills the N × N win matrix both ways', () => {
    expect(stats.matrix).toEqual({
      candidates: ['v1', 'v2', 'v3'],
      wins: [
        [0, 1, 1],
        [1, 0, 2],
        [0, 1, 0],
      ],
      ties: [
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 0],
      ],
      winRate: [
        [null, 0.5, 1],
        [0.5, null, 2 / 3],
        [0, 1 / 3, null],
      ],
    });
  });

  it('gives the judge: 1 of 8 outcomes missing, 1 tie in 7 verdicts, 1 flip in 6 measured', () => {
    expect(stats.judge).toEqual({
      outcomes: 8,
      decided: 7,
      missingRate: 1 / 8,
      tieRate: 1 / 7,
      flipsMeasured: 6,
      flipRate: 1 / 6,
    });
  });

  it('is valid against its schema', () => {
    expect(ComparisonStatsSchema.parse(stats)).toEqual(stats);
  });

  it('refuses what it cannot count, naming it', () => {
    expect(() => comparisonStats(['v1'], [])).toThrow(/at least 2 candidates/);
    expect(() => comparisonStats(['v1', 'v1'], [])).toThrow(/distinct/);
    expect(() => comparisonStats(['v1', 'v2'], [{ item: 'q', a: 'v1', b: 'v9', winner: 'A' }])).toThrow(/"v9"/);
    expect(() =>
      comparisonStats(
        ['v1', 'v2'],
        [
          { item: 'q', a: 'v1', b: 'v2', winner: 'A' },
          { item: 'q', a: 'v2', b: 'v1', winner: 'A' },
        ],
      ),
    ).toThrow(/two outcomes/);
    expect(() => comparisonStats(['v1', 'v2'], [], { gate: { candidate: 'v3', baseline: 'v1' } })).toThrow(
      /gate.candidate/,
    );
    expect(() => comparisonStats(['v1', 'v2'], [], { reference: 'v3' })).toThrow(/reference/);
  });
});

describe('a simulated tournament with a known order (a judge preferring the higher hidden quality tag)', () => {
  const strengths = [1.2, 0.6, 0, -0.6];

  it('ranks the candidates in their true order, each interval containing its true strength', () => {
    const t = simulateTournament({ strengths, items: 600, seed: 1 });
    const stats = comparisonStats(t.candidates, t.outcomes);
    expect(stats.ranking.map((e) => [e.candidate, e.rank])).toEqual([
      ['c0', 1],
      ['c1', 2],
      ['c2', 3],
      ['c3', 4],
    ]);
    for (const e of stats.ranking) {
      const truth = t.truth[t.candidates.indexOf(e.candidate)]!;
      expect(e.interval![0]).toBeLessThanOrEqual(truth);
      expect(e.interval![1]).toBeGreaterThanOrEqual(truth);
    }
    expect(stats.strengths).toMatchObject({ model: 'bradley-terry', scale: 'log', centring: 'sum-zero', nu: null });
    expect(stats.judge.flipRate).toBe(0);
  });

  it('covers the truth at about the stated 95% over 40 seeded tournaments (at least 88% of 160 intervals)', () => {
    // Bin(160, 0.95) has mean 152 and sd 2.8: below 141 (88%) is 4 sd out, so this fails only if the
    // intervals are too narrow (e.g. resampling outcomes instead of items, or a wrong percentile).
    let covered = 0;
    let correctOrder = 0;
    for (let seed = 100; seed < 140; seed++) {
      const t = simulateTournament({ strengths, items: 300, seed });
      const stats = comparisonStats(t.candidates, t.outcomes, { resamples: 400, seed });
      for (const e of stats.ranking) {
        const truth = t.truth[t.candidates.indexOf(e.candidate)]!;
        if (e.interval![0] <= truth && truth <= e.interval![1]) covered++;
      }
      if (stats.ranking.map((e) => e.candidate).join() === 'c0,c1,c2,c3') correctOrder++;
    }
    expect(covered).toBeGreaterThanOrEqual(141);
    expect(correctOrder).toBeGreaterThanOrEqual(36);
  });

  it('measures a position-biased judge: each order goes to the first-shown answer 20% of the time, so 20% flip (and tie)', () => {
    const t = simulateTournament({ strengths, items: 600, seed: 2, positionBias: 0.2 });
    const stats = comparisonStats(t.candidates, t.outcomes, { resamples: 200 });
    expect(Math.abs(stats.judge.flipRate! - 0.2)).toBeLessThan(0.04);
    expect(Math.abs(stats.judge.tieRate! - 0.2)).toBeLessThan(0.04);
    expect(stats.ranking.map((e) => e.candidate)).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('fits Davidson ties (ν > 0) when close answers are judged ties, keeping the order', () => {
    const t = simulateTournament({ strengths, items: 400, seed: 3, tieMargin: 0.5 });
    const stats = comparisonStats(t.candidates, t.outcomes, { model: 'davidson', resamples: 200 });
    expect(stats.strengths.nu).toBeGreaterThan(0);
    expect(stats.ranking.map((e) => e.candidate)).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('with a baseline design: only candidate-vs-baseline pairs, a ranking, and gates that pass and fail', () => {
    const t = simulateTournament({ strengths, items: 300, seed: 4, baseline: 2 });
    const passed = comparisonStats(t.candidates, t.outcomes, {
      resamples: 200,
      gate: { candidate: 'c0', baseline: 'c2' },
    });
    expect(passed.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['c0-c2', 'c1-c2', 'c2-c3']);
    expect(passed.ranking.map((e) => e.candidate)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(passed.gate?.outcome).toBe('passed');
    const failed = comparisonStats(t.candidates, t.outcomes, {
      resamples: 200,
      gate: { candidate: 'c3', baseline: 'c2' },
    });
    expect(failed.gate?.outcome).toBe('failed');
  });

  it('leaves a near-tie inconclusive on few items, with a projection of the items that would decide it', () => {
    const t = simulateTournament({ strengths: [0.1, 0], items: 60, seed: 5 });
    const stats = comparisonStats(t.candidates, t.outcomes, {
      resamples: 100,
      gate: { candidate: 'c0', baseline: 'c1' },
    });
    expect(stats.gate?.outcome).toBe('inconclusive');
    expect(stats.gate?.moreItems).toBeGreaterThan(0);
  });
});
