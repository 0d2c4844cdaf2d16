/**
 * `meta-eval --compare`'s pure parts: the models of MT-Bench's human file told apart by its row order,
 * the comparison built from it, the humans' own ranking (which must be the paper's order), the agreement
 * between two rankings against hand computations, the request body and the exit codes.
 */
import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/client/index.js';
import { GATE_EXIT_CODES } from '../../src/client/index.js';
import {
  checkModeOptions,
  compareOptionsOf,
  compareOutcome,
  comparisonBodyOf,
  humanStatsOf,
} from '../../src/cli/meta-eval-compare.js';
import { UsageError } from '../../src/cli/args.js';
import type { AnswerPairRow } from '../../src/datasets/mt-bench-comparison.js';
import { inferModelRanks, loadMtBenchComparison, MT_BENCH_MODELS } from '../../src/datasets/mt-bench-comparison.js';
import { rankingAgreement } from '../../src/metrics/ranking-agreement.js';

const dataset = loadMtBenchComparison();

const row = (a: string, b: string): AnswerPairRow => ({ question: 'q', answerA: a, answerB: b });

describe('inferModelRanks', () => {
  it('finds the one naming under which the rows are sorted by (model_a, model_b)', () => {
    // Rows (y,z) (y,x) (z,x) are sorted only when rank(y) < rank(z) < rank(x): answers in first-appearance
    // order (y, z, x) get ranks 0, 1, 2.
    expect(inferModelRanks([row('y', 'z'), row('y', 'x'), row('z', 'x')], 3)).toEqual([0, 1, 2]);
    // Three answers among four names: their order is fixed, not which name each has.
    expect(inferModelRanks([row('a', 'b'), row('a', 'c'), row('b', 'c')], 4)).toBeNull();
  });

  it('gives null when no naming fits or more than one does', () => {
    // (x,y) then (y,x): rank(x) < rank(y) and rank(y) < rank(x) cannot both hold.
    expect(inferModelRanks([row('x', 'y'), row('y', 'x'), row('x', 'y')], 3)).toBeNull();
    // One row of two answers among three names: several namings fit.
    expect(inferModelRanks([row('x', 'y')], 3)).toBeNull();
  });
});

describe('MT-Bench human judgments as a comparison', () => {
  it('has the six models on every kept question, and every vote on a kept question', () => {
    expect(dataset.candidates).toEqual([...MT_BENCH_MODELS]);
    expect(dataset.items.length + dataset.skipped.length).toBe(80);
    expect(dataset.items.length).toBe(71);
    for (const item of dataset.items) {
      expect(Object.keys(item.outputs).sort()).toEqual([...MT_BENCH_MODELS]);
      expect(new Set(Object.values(item.outputs)).size).toBe(6);
    }
    expect(dataset.items.find((i) => i.id === 'mt-bench-q111')?.reference).toBeTruthy();
    expect(dataset.votes).toHaveLength(3031);
    expect(new Set(dataset.votes.map((v) => v.item)).size).toBe(3031);
  });

  it("gives the humans' ranking of the MT-Bench paper: GPT-4 first, then Claude, GPT-3.5, Vicuna, Alpaca, LLaMA", () => {
    const body = comparisonBodyOf(dataset, { dataset: 'mt-bench-human', preset: 'fastchat-pair' });
    const human = humanStatsOf(dataset, body);
    expect(human.ranking.map((r) => r.candidate)).toEqual([
      'gpt-4',
      'claude-v1',
      'gpt-3.5-turbo',
      'vicuna-13b-v1.2',
      'alpaca-13b',
      'llama-13b',
    ]);
    expect(human.judge.decided).toBe(3031);
  });

  it('builds the body: chosen candidates only, the baseline design and its gate, the first N items', () => {
    const body = comparisonBodyOf(dataset, {
      dataset: 'mt-bench-human',
      preset: 'fastchat-pair',
      candidates: ['gpt-4', 'llama-13b', 'vicuna-13b-v1.2'],
      baseline: 'vicuna-13b-v1.2',
      minWinRate: 0.6,
      limit: 2,
      model: 'mock-judge',
    });
    expect(body.items).toHaveLength(2);
    expect(Object.keys(body.items[0]?.outputs ?? {})).toEqual(['gpt-4', 'llama-13b', 'vicuna-13b-v1.2']);
    expect(body.design).toEqual({ baseline: 'vicuna-13b-v1.2' });
    expect(body.gate).toEqual({ candidate: 'gpt-4', baseline: 'vicuna-13b-v1.2', minWinRate: 0.6, confidence: 0.95 });
    expect(body.config).toEqual({ defaults: { model: 'mock-judge' } });
    // The humans' votes on the same two items and three models only.
    expect(humanStatsOf(dataset, body).candidates).toEqual(['gpt-4', 'llama-13b', 'vicuna-13b-v1.2']);
  });

  it('refuses a candidate or baseline the dataset does not have, naming the option', () => {
    const base = { dataset: 'mt-bench-human', preset: 'fastchat-pair' };
    expect(() => comparisonBodyOf(dataset, { ...base, candidates: ['gpt-4', 'gpt-5'] })).toThrow(
      new UsageError('--candidates: "gpt-5" is not in mt-bench-human (' + MT_BENCH_MODELS.join(', ') + ')'),
    );
    expect(() =>
      comparisonBodyOf(dataset, { ...base, candidates: ['gpt-4', 'llama-13b'], baseline: 'alpaca-13b' }),
    ).toThrow(/--baseline: "alpaca-13b" is not among the candidates/);
  });
});

describe('rankingAgreement', () => {
  const side = (strengths: Record<string, number>, pairs: [string, string, number | null][]) => ({
    ranking: Object.entries(strengths)
      .sort((x, y) => y[1] - x[1])
      .map(([candidate, strength]) => ({ candidate, strength })),
    pairs: pairs.map(([a, b, winRate]) => ({
      a,
      b,
      winRate,
      interval: [(winRate ?? 0.5) - 0.1, (winRate ?? 0.5) + 0.1] as [number, number],
      wins: 0,
      ties: 0,
      losses: 0,
    })),
  });

  it('computes Kendall τ-b and per-pair agreement by hand', () => {
    // Judge order a > b > c; humans b > a > c: of the 3 pairs one is discordant (a, b): τ = (2 − 1) / 3.
    const judge = side({ a: 1, b: 0, c: -1 }, [
      ['a', 'b', 0.7],
      ['a', 'c', 0.8],
      ['b', 'c', 0.5],
    ]);
    const human = side({ b: 1, a: 0.5, c: -1 }, [
      ['b', 'a', 0.65],
      ['a', 'c', 0.85],
      ['b', 'c', 0.9],
    ]);
    const r = rankingAgreement(['a', 'b', 'c'], judge, human);
    expect(r.kendallTau).toBeCloseTo(1 / 3, 12);
    expect(r.judgeOrder).toEqual(['a', 'b', 'c']);
    expect(r.humanOrder).toEqual(['b', 'a', 'c']);
    // (a, b): the humans' (b, a) at 0.65 turned round is 0.35 for a, interval [0.25, 0.45]: another winner.
    expect(r.pairs[0]).toMatchObject({ humanWinRate: 0.35, sameWinner: false, withinHumanInterval: false });
    expect(r.pairs[0]?.humanInterval?.[0]).toBeCloseTo(0.25, 12);
    expect(r.pairs[0]?.humanInterval?.[1]).toBeCloseTo(0.45, 12);
    expect(r.pairs[1]).toMatchObject({ humanWinRate: 0.85, sameWinner: true, withinHumanInterval: true });
    // (b, c) at exactly 0.5 for the judge names no winner: left out of the rate.
    expect(r.pairs[2]?.sameWinner).toBeNull();
    expect(r.decidedPairs).toBe(2);
    expect(r.sameWinnerRate).toBe(0.5);
  });
});

describe('compareOutcome', () => {
  const base = { id: 'cp_1', counts: { total: 4, failed: 0, cancelled: 0 }, gate: null } as unknown as Comparison;
  const gate = (outcome: string) => ({ outcome, summary: `gate ${outcome}` });

  it('exits by the gate rule: 0 passed (or no gate), 3 inconclusive (with a note), 1 a failed gate or evaluation', () => {
    expect(compareOutcome(base)).toEqual({ exitCode: 0, notes: [] });
    expect(compareOutcome({ ...base, gate: gate('passed') } as Comparison).exitCode).toBe(GATE_EXIT_CODES.passed);
    const inconclusive = compareOutcome({ ...base, gate: gate('inconclusive') } as Comparison);
    expect(inconclusive.exitCode).toBe(3);
    expect(inconclusive.exitCode).toBe(GATE_EXIT_CODES.inconclusive);
    expect(inconclusive.notes[0]).toMatch(/^note: the gate is inconclusive/);
    expect(compareOutcome({ ...base, gate: gate('failed') } as Comparison)).toEqual({
      exitCode: 1,
      notes: ['gate failed: gate failed'],
    });
    const failed = compareOutcome({ ...base, counts: { ...base.counts, failed: 1 } });
    expect(failed.exitCode).toBe(1);
    expect(failed.notes[0]).toMatch(/^1 evaluations failed and 0 were cancelled of 4/);
  });
});

describe('meta-eval --compare options', () => {
  it('parses the gate and the candidates, refusing a gate figure out of range or without a baseline', () => {
    const base = { dataset: 'mt-bench-human', preset: 'fastchat-pair' };
    expect(
      compareOptionsOf({ ...base, candidates: 'gpt-4, llama-13b', baseline: 'llama-13b', 'min-win-rate': '0.6' }, {}),
    ).toEqual({ ...base, candidates: ['gpt-4', 'llama-13b'], baseline: 'llama-13b', minWinRate: 0.6 });
    expect(() => compareOptionsOf({ ...base, baseline: 'x', 'min-win-rate': '1' }, {})).toThrow(
      new UsageError('--min-win-rate must be a number in (0, 1)'),
    );
    expect(() => compareOptionsOf({ ...base, baseline: 'x', confidence: '0.4' }, {})).toThrow(
      new UsageError('--confidence must be a number in [0.5, 1)'),
    );
    expect(() => compareOptionsOf({ ...base, confidence: '0.9' }, {})).toThrow(/give --baseline too/);
    expect(() => compareOptionsOf({ dataset: 'mt-bench-human' }, {})).toThrow(new UsageError('--preset is required'));
  });

  it('refuses an option the chosen mode would ignore, never dropping it silently', () => {
    expect(() => {
      checkModeOptions({ compare: true, concurrency: '4' });
    }).toThrow(new UsageError('--concurrency does not go with --compare'));
    expect(() => {
      checkModeOptions({ baseline: 'v1' });
    }).toThrow(new UsageError('--baseline goes with --compare'));
    expect(() => {
      checkModeOptions({ compare: true, baseline: 'v1', limit: '3' });
    }).not.toThrow();
  });
});
