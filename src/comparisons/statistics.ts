/**
 * @module
 * A comparison's statistics as the API serves them, from the maths in src/metrics/ (pure):
 * - from item-level outcomes ({@link statisticsOf}): pair tallies with Wilson intervals, the win matrix,
 *   Bradley–Terry (or Davidson) strengths with item-bootstrap intervals and the ranking they give, the
 *   judge's rates and the gate (`comparisonStats`);
 * - from verdict counts per pair ({@link statisticsFromCounts}), for a large comparison while it runs: the
 *   same tallies, matrix, gate and point strengths, without the bootstrap (intervals null, every rank 1:
 *   a rank never claims a separation no interval shows). The final statistics always come from items.
 * And the one-line `summary` a CI log prints.
 */
import { comparisonStats } from '../metrics/comparison.js';
import { DEFAULT_PRIOR, fitStrengths } from '../metrics/bradley-terry.js';
import type { Gate } from '../metrics/gate.js';
import { evaluateGate } from '../metrics/gate.js';
import { wilsonInterval } from '../metrics/intervals.js';
import type { JudgeRates, PairOutcome, PairResult } from '../metrics/pairs.js';
import { winMatrix } from '../metrics/pairs.js';
import type { RankingEntry } from '../metrics/ranking.js';
import type { Layout } from './layout.js';
import type { StatisticsOptions } from './schemas.js';
import type { ComparisonStatistics } from './answer-schemas.js';

/** Evaluations up to which a running comparison's statistics come from its items (above: from counts). */
export const LIVE_ITEM_LEVEL_MAX = 5_000;

/** Statistics from item-level outcomes (every outcome of an ended evaluation; pending ones left out). */
export function statisticsOf(
  layout: Layout,
  outcomes: readonly PairOutcome[],
  options: StatisticsOptions,
  gate: Gate | null,
  basis: 'final' | 'live',
): ComparisonStatistics {
  const s = comparisonStats(layout.candidates, outcomes, {
    model: options.model,
    level: options.level,
    resamples: options.resamples,
    seed: options.seed,
    prior: DEFAULT_PRIOR,
    ...(gate ? { gate } : {}),
  });
  const stats: Omit<ComparisonStatistics, 'summary'> = {
    basis,
    pairs: s.pairs,
    matrix: s.matrix,
    ranking: s.ranking,
    strengths: { ...s.strengths, centring: 'sum-zero' },
    judge: s.judge,
    gate: s.gate ?? null,
  };
  return { ...stats, summary: summaryOf(stats, options.level) };
}

/** One pair's verdict counts (a/b oriented as in the layout). */
export interface PairTally {
  pair: number;
  wins: number;
  ties: number;
  losses: number;
  /** Ended without a verdict. */
  missing: number;
  /** Verdicts whose two orders were both measured, and how many of them disagreed. */
  flipsMeasured: number;
  flips: number;
}

/** Statistics from per-pair counts (see the module note). */
export function statisticsFromCounts(
  layout: Layout,
  tallies: readonly PairTally[],
  options: StatisticsOptions,
  gate: Gate | null,
): ComparisonStatistics {
  const k = layout.candidates.length;
  const judged = [...tallies].filter((t) => t.wins + t.ties + t.losses + t.missing > 0).sort((x, y) => x.pair - y.pair);
  const pairs: PairResult[] = judged.map((t) => {
    const [i, j] = layout.pairs[t.pair] ?? [0, 1];
    const n = t.wins + t.ties + t.losses;
    const score = t.wins + t.ties / 2;
    return {
      a: layout.candidates[i] as string,
      b: layout.candidates[j] as string,
      wins: t.wins,
      ties: t.ties,
      losses: t.losses,
      missing: t.missing,
      winRate: n === 0 ? null : score / n,
      interval: wilsonInterval(score, n, options.level),
    };
  });
  const fit = fitStrengths(
    k,
    judged.map((t) => {
      const [i, j] = layout.pairs[t.pair] ?? [0, 1];
      return { i, j, winsI: t.wins, winsJ: t.losses, ties: t.ties };
    }),
    { model: options.model, prior: DEFAULT_PRIOR },
  );
  const ranking: RankingEntry[] = layout.candidates
    .map((candidate, i) => ({ candidate, rank: 1, strength: fit.strengths[i] ?? 0, interval: null }))
    .sort((x, y) => y.strength - x.strength || (x.candidate < y.candidate ? -1 : 1));
  const sum = (f: (t: PairTally) => number) => judged.reduce((n, t) => n + f(t), 0);
  const decided = sum((t) => t.wins + t.ties + t.losses);
  const outcomes = decided + sum((t) => t.missing);
  const measured = sum((t) => t.flipsMeasured);
  const judge: JudgeRates = {
    outcomes,
    decided,
    missingRate: outcomes === 0 ? null : (outcomes - decided) / outcomes,
    tieRate: decided === 0 ? null : sum((t) => t.ties) / decided,
    flipsMeasured: measured,
    flipRate: measured === 0 ? null : sum((t) => t.flips) / measured,
  };
  const stats: Omit<ComparisonStatistics, 'summary'> = {
    basis: 'live-counts',
    pairs,
    matrix: winMatrix(layout.candidates, pairs),
    ranking,
    strengths: {
      model: fit.model,
      scale: 'log',
      centring: 'sum-zero',
      nu: fit.nu,
      prior: fit.prior,
      solver: fit.solver,
      converged: fit.converged,
      iterations: fit.iterations,
      logLikelihood: fit.logLikelihood,
      bootstrap: { resamples: 0, seed: options.seed, level: options.level, dropped: 0 },
    },
    judge,
    gate: gate ? evaluateGate(gate, pairs) : null,
  };
  return { ...stats, summary: summaryOf(stats, options.level) };
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;

/**
 * The line a CI log prints: the gate's own summary when there is a gate, else the ranking, e.g.
 * `ranking (Bradley–Terry θ, 95% CI): 1. v2 +0.41 [+0.22, +0.60]; 2. v1 −0.41 [−0.60, −0.22]`.
 */
export function summaryOf(s: Omit<ComparisonStatistics, 'summary'>, level: number): string {
  if (s.gate) return s.gate.summary;
  const model = s.strengths.model === 'davidson' ? 'Davidson' : 'Bradley–Terry';
  const rows = s.ranking.map(
    (r) =>
      `${r.rank}. ${r.candidate} ${signed(r.strength)}${r.interval ? ` [${signed(r.interval[0])}, ${signed(r.interval[1])}]` : ''}`,
  );
  const intervals = s.ranking.some((r) => r.interval !== null)
    ? `${+(level * 100).toFixed(2)}% CI`
    : 'intervals once it completes';
  return `ranking (${model} θ, ${intervals}): ${rows.join('; ')}; ${s.judge.decided} pair verdicts`;
}
