/**
 * @module
 * How far a judge's comparison agrees with the humans' on the same candidates: Kendall's τ-b between the
 * two sets of strengths, the share of pairs where both name the same winner, and each pair's two win
 * rates side by side (the judge's inside the humans' interval or not). Pure; both sides are the output of
 * the same statistics (`comparisonStats`), so they are measured the same way.
 */
import type { PairResult } from './pairs.js';
import type { RankingEntry } from './ranking.js';
import { kendallTauB } from './stats.js';

/** One side of the agreement: a ranking and its pairs (what `comparisonStats` and the API return). */
export interface RankedSide {
  ranking: readonly Pick<RankingEntry, 'candidate' | 'strength'>[];
  pairs: readonly Pick<PairResult, 'a' | 'b' | 'winRate' | 'interval' | 'wins' | 'ties' | 'losses'>[];
}

/** One pair as both sides see it (oriented `a` versus `b` as the judge's pairs are). */
export interface PairAgreement {
  a: string;
  b: string;
  judgeWinRate: number | null;
  humanWinRate: number | null;
  humanInterval: [number, number] | null;
  /** Both name the same winner (a win rate above or below 0.5); null when either has none (exactly 0.5 or no verdict). */
  sameWinner: boolean | null;
  /** The judge's win rate lies inside the humans' interval; null when either is missing. */
  withinHumanInterval: boolean | null;
}

/** The agreement of a judge's comparison with the humans'. */
export interface RankingAgreement {
  /** Kendall's τ-b between the two strength vectors (−1 to 1); null when it is undefined (a side constant). */
  kendallTau: number | null;
  /** Candidates in the judge's order and in the humans' order, best first. */
  judgeOrder: string[];
  humanOrder: string[];
  pairs: PairAgreement[];
  /** Pairs where both name a winner, and the share of them where it is the same one. */
  decidedPairs: number;
  sameWinnerRate: number | null;
}

const side = (rate: number | null): 1 | -1 | 0 | null => (rate === null ? null : rate > 0.5 ? 1 : rate < 0.5 ? -1 : 0);

/** The agreement of `judge` with `human` over `candidates` (see the module note). */
export function rankingAgreement(
  candidates: readonly string[],
  judge: RankedSide,
  human: RankedSide,
): RankingAgreement {
  const strengthOf = (s: RankedSide, c: string) => s.ranking.find((r) => r.candidate === c)?.strength ?? 0;
  const tau = kendallTauB(
    candidates.map((c) => strengthOf(judge, c)),
    candidates.map((c) => strengthOf(human, c)),
  );
  const pairs = judge.pairs.map((p): PairAgreement => {
    const same = human.pairs.find((h) => h.a === p.a && h.b === p.b);
    const swapped = same ? undefined : human.pairs.find((h) => h.a === p.b && h.b === p.a);
    const humanWinRate = same ? same.winRate : swapped && swapped.winRate !== null ? 1 - swapped.winRate : null;
    const hi =
      same?.interval ?? (swapped?.interval ? ([1 - swapped.interval[1], 1 - swapped.interval[0]] as const) : null);
    const humanInterval: [number, number] | null = hi ? [hi[0], hi[1]] : null;
    const j = side(p.winRate);
    const h = side(humanWinRate);
    return {
      a: p.a,
      b: p.b,
      judgeWinRate: p.winRate,
      humanWinRate,
      humanInterval,
      sameWinner: j === null || h === null || j === 0 || h === 0 ? null : j === h,
      withinHumanInterval:
        p.winRate === null || humanInterval === null
          ? null
          : p.winRate >= humanInterval[0] && p.winRate <= humanInterval[1],
    };
  });
  const decided = pairs.filter((p) => p.sameWinner !== null);
  return {
    kendallTau: Number.isFinite(tau) ? tau : null,
    judgeOrder: judge.ranking.map((r) => r.candidate),
    humanOrder: human.ranking.map((r) => r.candidate),
    pairs,
    decidedPairs: decided.length,
    sameWinnerRate: decided.length === 0 ? null : decided.filter((p) => p.sameWinner).length / decided.length,
  };
}
