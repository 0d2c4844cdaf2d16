/**
 * A seeded simulated tournament whose true order is known: every candidate's answer to an item carries a
 * hidden quality tag θ_c + G with G a standard Gumbel draw, and a scripted judge prefers the higher tag.
 * The difference of two Gumbels is logistic, so P(c beats d) = 1/(1 + e^(θ_d − θ_c)) exactly: the
 * Bradley–Terry truth is θ (centred), while the outcomes of one item stay correlated through its tags, as
 * real items are (an easy question is easy for every pair), which is what the item bootstrap must respect.
 */
import type { PairOutcome } from '../../src/metrics/pairs.js';
import { combineOrderWinners } from '../../src/metrics/pairs.js';
import { createRng } from '../../src/metrics/bootstrap.js';
import type { Winner } from '../../src/engine/verdict.js';

export interface TournamentSpec {
  /** True log strengths, one per candidate (named c0, c1, …). */
  strengths: readonly number[];
  items: number;
  seed: number;
  /** All pairs (default) or every candidate against this baseline index. */
  baseline?: number;
  /** Chance that one order's verdict goes to whichever answer is shown first, whatever the tags. Default 0. */
  positionBias?: number;
  /** Tags closer than this are judged a tie (in both orders). Default 0. */
  tieMargin?: number;
  /** Chance that an order gives no verdict. Default 0. */
  missing?: number;
}

export interface SimulatedTournament {
  candidates: string[];
  /** θ centred to Σθ = 0. */
  truth: number[];
  outcomes: PairOutcome[];
}

export function simulateTournament(spec: TournamentSpec): SimulatedTournament {
  const random = createRng(spec.seed);
  const k = spec.strengths.length;
  const candidates = spec.strengths.map((_, i) => `c${i}`);
  const mean = spec.strengths.reduce((s, x) => s + x, 0) / k;
  const gumbel = () => -Math.log(-Math.log(random() || Number.MIN_VALUE));
  const pairs: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      if (spec.baseline === undefined || i === spec.baseline || j === spec.baseline) pairs.push([i, j]);
    }
  }
  const outcomes: PairOutcome[] = [];
  for (let item = 0; item < spec.items; item++) {
    const tags = spec.strengths.map((s) => s + gumbel());
    for (const [i, j] of pairs) {
      const diff = tags[i]! - tags[j]!;
      const honest: Winner = Math.abs(diff) < (spec.tieMargin ?? 0) ? 'tie' : diff > 0 ? 'A' : 'B';
      // One order: `first` is the answer shown first, in the pair's own A/B terms.
      const order = (first: 'A' | 'B'): Winner | null => {
        if (random() < (spec.missing ?? 0)) return null;
        return random() < (spec.positionBias ?? 0) ? first : honest;
      };
      const { winner, flip } = combineOrderWinners(order('A'), order('B'));
      outcomes.push({ item: `q${item}`, a: candidates[i]!, b: candidates[j]!, winner, flip });
    }
  }
  return { candidates, truth: spec.strengths.map((s) => s - mean), outcomes };
}
