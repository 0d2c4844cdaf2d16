/**
 * @module
 * Strengths with intervals, and the ranking they give, from item-level data.
 *
 * **Intervals.** Percentile bootstrap resampling items: an item carries all its pairwise outcomes, so the
 * correlation between an item's games (an easy question is easy for every pair) is kept. Seeded with the
 * PRNG of `bootstrap.ts`; each resample is refitted by Newton from the full fit's estimate.
 *
 * The interval always holds the strength itself: it is widened to the estimate where the percentile
 * bounds fall beside it (rounding, when every resample agrees).
 *
 * **Ranks** follow the Chatbot Arena convention: rank = 1 + the number of candidates whose interval lies
 * entirely above this one's. Candidates whose intervals overlap can share a rank, and a rank never claims a
 * separation the intervals do not show. The list is ordered by strength, best first (ties by name); when
 * intervals differ much in width, a rank further down can be smaller than one above it.
 *
 * Runtime-neutral: only `zod`.
 */
import { z } from 'zod';
import type { BootstrapOptions } from './bootstrap.js';
import { createRng, DEFAULT_BOOTSTRAP, quantile } from './bootstrap.js';
import type { FitOptions, PairCounts, Settings, StrengthFit } from './bradley-terry.js';
import { centred, fitGames, fitWith, settingsOf, StrengthsUndefinedError, toGames } from './bradley-terry.js';
import type { Games, Solved } from './bt-solvers.js';

/** Result of one judged comparison of pair (i, j): 0 = i won, 1 = j won, 2 = tie. */
export type GameResult = 0 | 1 | 2;

/** Item-level data: which pairs were played and each item's outcomes (an item carries all of them). */
export interface Tournament {
  candidates: readonly string[];
  /** Candidate indices of each pair. */
  pairs: readonly { i: number; j: number }[];
  /** Per item, its outcomes: the pair's index in `pairs` and the result. */
  items: readonly (readonly { pair: number; result: GameResult }[])[];
}

/** One row of the ranking, best first. */
export const RankingEntrySchema = z
  .object({
    candidate: z.string(),
    /** 1 + the number of candidates whose interval lies entirely above this one's (ties share a rank). */
    rank: z.number().int().positive(),
    /** θ, natural log, Σθ = 0 (or 0 for the reference candidate). */
    strength: z.number(),
    /** Percentile bootstrap interval of θ at the bootstrap level, widened where need be so it always holds `strength`; null when no resample could be fitted (no item yet, or `prior: 0` without finite strengths). */
    interval: z.tuple([z.number(), z.number()]).nullable(),
  })
  .strict();
/** See {@link RankingEntrySchema}. */
export type RankingEntry = z.infer<typeof RankingEntrySchema>;

/** Ranking settings: the fit's, a reference candidate and the bootstrap's. */
export interface RankingOptions extends FitOptions {
  /** Index of a candidate pinned at θ = 0 (its interval is [0, 0]); default none (Σθ = 0). */
  reference?: number | null;
  /** Resamples (default 1000), seed (default 0), level (default 0.95). */
  bootstrap?: BootstrapOptions;
}

/** A ranking with its fit and what the bootstrap did. */
export interface Ranking {
  fit: StrengthFit;
  ranking: RankingEntry[];
  bootstrap: {
    resamples: number;
    seed: number;
    level: number;
    /** Resamples left out: no finite strengths (only with `prior: 0`) or no convergence. */
    dropped: number;
  };
}

/** Pair counts over the given items (all items when `indices` is omitted). */
export function countsOf(t: Tournament, indices?: readonly number[]): PairCounts[] {
  const counts = t.pairs.map(({ i, j }) => ({ i, j, winsI: 0, winsJ: 0, ties: 0 }));
  const add = (item: readonly { pair: number; result: GameResult }[] | undefined) => {
    for (const o of item ?? []) {
      const c = counts[o.pair];
      if (!c) throw new RangeError(`outcome names pair ${o.pair}, which is not in the tournament`);
      if (o.result === 0) c.winsI++;
      else if (o.result === 1) c.winsJ++;
      else c.ties++;
    }
  };
  if (indices) for (const u of indices) add(t.items[u]);
  else for (const item of t.items) add(item);
  return counts;
}

/**
 * Strengths, bootstrap intervals (resampling items) and the ranking. Every resample is fitted by Newton
 * from the full fit's estimate, whatever `solver` the full fit used.
 */
export function rankCandidates(t: Tournament, options: RankingOptions = {}): Ranking {
  const s = settingsOf(options);
  const k = t.candidates.length;
  const reference = options.reference ?? null;
  if (reference !== null && !(Number.isInteger(reference) && reference >= 0 && reference < k)) {
    throw new RangeError(`reference must be a candidate index in [0, ${k}), got ${reference}`);
  }
  const { resamples, seed, level } = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  const g = toGames(k, countsOf(t));
  const full = fitWith(g, s);
  const strengths = centred(full.beta, k, reference);

  // Items as flat codes 3·pair + result, so a resample only adds counts.
  const offsets = new Int32Array(t.items.length + 1);
  const codes: number[] = [];
  for (const [u, item] of t.items.entries()) {
    for (const o of item) codes.push(3 * o.pair + o.result);
    offsets[u + 1] = codes.length;
  }

  const draws: number[][] = Array.from({ length: k }, () => []);
  let dropped = 0;
  const random = createRng(seed);
  const n = t.items.length;
  const resampled: Games = { k, pi: g.pi, pj: g.pj, counts: new Float64Array(g.counts.length) };
  const newtonSettings: Settings = { ...s, solver: 'newton', maxIterations: 200 };
  for (let r = 0; r < resamples && n > 0; r++) {
    resampled.counts.fill(0);
    for (let d = 0; d < n; d++) {
      const u = Math.floor(random() * n);
      for (let x = offsets[u] as number; x < (offsets[u + 1] as number); x++) {
        const c = codes[x] as number;
        resampled.counts[c] = (resampled.counts[c] as number) + 1;
      }
    }
    let solved: Solved;
    try {
      solved = fitGames(resampled, newtonSettings, full.beta);
    } catch (e) {
      if (e instanceof StrengthsUndefinedError) {
        dropped++;
        continue;
      }
      throw e;
    }
    if (!solved.converged) {
      dropped++;
      continue;
    }
    centred(solved.beta, k, reference).forEach((x, i) => {
      draws[i]?.push(x);
    });
  }
  const intervals = draws.map((xs, i): [number, number] | null => {
    if (xs.length === 0) return null;
    xs.sort((a, b) => a - b);
    return containing(strengths[i] as number, [quantile(xs, (1 - level) / 2), quantile(xs, (1 + level) / 2)]);
  });
  const order = t.candidates
    .map((_, i) => i)
    .sort((a, b) => (strengths[b] as number) - (strengths[a] as number) || compare(t.candidates[a], t.candidates[b]));
  const ranking = order.map((i) => {
    const mine = intervals[i] ?? null;
    const above = mine ? intervals.filter((other, j) => j !== i && other !== null && other[0] > mine[1]).length : 0;
    return { candidate: t.candidates[i] as string, rank: 1 + above, strength: strengths[i] as number, interval: mine };
  });
  return { fit: full.fit, ranking, bootstrap: { resamples, seed, level, dropped } };
}

/**
 * The interval widened, if need be, to hold the estimate. When every resample agrees (an item set whose
 * resamples all give the same counts), each refit lands within rounding of the full fit, so a percentile
 * interval of width 0 can sit 1e-16 beside the estimate; a strength outside its own interval would read as
 * a contradiction (and a skewed bootstrap distribution can leave it just outside, too).
 */
function containing(estimate: number, [lo, hi]: [number, number]): [number, number] {
  return [Math.min(lo, estimate), Math.max(hi, estimate)];
}

function compare(a: string | undefined, b: string | undefined): number {
  return (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
}
