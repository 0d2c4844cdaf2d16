/**
 * @module
 * A comparison's pairwise outcomes tallied: per pair wins / ties / losses and the win rate with a Wilson
 * interval (`intervals.ts` says why Wilson), the N × N win matrix, and the judge's position-flip and tie
 * rates over the comparison.
 *
 * One outcome is one item's verdict on one pair of candidates. When the judge runs both presentation
 * orders, the engine's position calibration has already combined them into that verdict (`winner`) and
 * said whether the orders disagreed (`flip`, the verdict's `positionFlip`); {@link combineOrderWinners} does the
 * same for two single-order verdicts, by FastChat's agree-or-tie rule.
 *
 * Runtime-neutral: only `zod` and the engine's verdict schema.
 */
import { z } from 'zod';
import type { Winner } from '../engine/verdict.js';
import { WinnerSchema } from '../engine/verdict.js';
import { wilsonInterval } from './intervals.js';

/** One item's verdict on one pair of candidates. */
export const PairOutcomeSchema = z
  .object({
    /** The item's id. */
    item: z.string().min(1),
    /** The candidate submitted as answer A, and as answer B. */
    a: z.string().min(1),
    b: z.string().min(1),
    /** `A` (a is better), `B`, `tie`; null when there is no verdict (the evaluation failed, or no reply parsed). */
    winner: WinnerSchema.nullable(),
    /** Whether swapping the presentation order changed the outcome; null (default) when one order ran. */
    flip: z.boolean().nullable().default(null),
  })
  .strict()
  .refine((o) => o.a !== o.b, { message: 'a and b must be different candidates', path: ['b'] });
/** See {@link PairOutcomeSchema}. */
export type PairOutcome = z.input<typeof PairOutcomeSchema>;

/**
 * One verdict from two single-order verdicts on the same pair (both in a/b terms, the swapped order mapped
 * back): FastChat's agree-or-tie. Both present: their winner when they agree, else a tie, `flip` = they
 * differ. One present: that one, `flip` null. None: null.
 */
export function combineOrderWinners(
  ab: Winner | null,
  ba: Winner | null,
): { winner: Winner | null; flip: boolean | null } {
  if (ab === null || ba === null) return { winner: ab ?? ba, flip: null };
  return { winner: ab === ba ? ab : 'tie', flip: ab !== ba };
}

/** A closed interval `[lo, hi]`. */
export const IntervalSchema = z.tuple([z.number(), z.number()]);

/** The tally of one pair, oriented as `a` versus `b` (a comes first in the comparison's candidate list). */
export const PairResultSchema = z
  .object({
    a: z.string(),
    b: z.string(),
    /** Items where a won, tied, lost (verdicts present). */
    wins: z.number().int().nonnegative(),
    ties: z.number().int().nonnegative(),
    losses: z.number().int().nonnegative(),
    /** Outcomes of this pair without a verdict: left out of everything else. */
    missing: z.number().int().nonnegative(),
    /** (wins + ties/2) / (wins + ties + losses), 0-1; null when no verdict. */
    winRate: z.number().min(0).max(1).nullable(),
    /** Wilson interval of `winRate` at the comparison's level (default 95%); [0, 1] when no verdict. */
    interval: IntervalSchema,
  })
  .strict();
/** See {@link PairResultSchema}. */
export type PairResult = z.infer<typeof PairResultSchema>;

/** The N × N win matrix, rows and columns in `candidates` order. */
export const WinMatrixSchema = z
  .object({
    candidates: z.array(z.string()),
    /** `wins[r][c]`: items where candidate r beat candidate c (0 on the diagonal). */
    wins: z.array(z.array(z.number().int().nonnegative())),
    /** `ties[r][c]`: items where r and c tied (symmetric). */
    ties: z.array(z.array(z.number().int().nonnegative())),
    /** `winRate[r][c]`: r over c, ties as half; null on the diagonal and for pairs never judged. */
    winRate: z.array(z.array(z.number().min(0).max(1).nullable())),
  })
  .strict();
/** See {@link WinMatrixSchema}. */
export type WinMatrix = z.infer<typeof WinMatrixSchema>;

/** The judge over the whole comparison. */
export const JudgeRatesSchema = z
  .object({
    /** Pair outcomes submitted, and those with a verdict. */
    outcomes: z.number().int().nonnegative(),
    decided: z.number().int().nonnegative(),
    /** Share of outcomes without a verdict (0-1); null when there is none. */
    missingRate: z.number().min(0).max(1).nullable(),
    /** Share of verdicts that are ties (0-1); null without a verdict. */
    tieRate: z.number().min(0).max(1).nullable(),
    /** Verdicts where both orders ran (a boolean `flip`), and the share where they disagreed; null when none. */
    flipsMeasured: z.number().int().nonnegative(),
    flipRate: z.number().min(0).max(1).nullable(),
  })
  .strict();
/** See {@link JudgeRatesSchema}. */
export type JudgeRates = z.infer<typeof JudgeRatesSchema>;

/** Outcomes checked against the candidates: a pair key per outcome, oriented to the candidate order. */
export interface Oriented {
  item: string;
  /** Candidate indices, i < j. */
  i: number;
  j: number;
  /** Result for i: 0 = i won, 1 = j won, 2 = tie; null = no verdict. */
  result: 0 | 1 | 2 | null;
  flip: boolean | null;
}

/**
 * Checks outcomes against the candidate list and orients each to (i, j) with i before j in it.
 * @throws Error naming the first outcome with an unknown candidate, and the first repeated (item, pair).
 */
export function orientOutcomes(candidates: readonly string[], outcomes: readonly PairOutcome[]): Oriented[] {
  const index = new Map(candidates.map((c, i) => [c, i] as const));
  const seen = new Set<string>();
  return outcomes.map((o, n) => {
    const x = index.get(o.a);
    const y = index.get(o.b);
    if (x === undefined || y === undefined) {
      throw new Error(
        `outcome ${n}: candidate ${JSON.stringify(x === undefined ? o.a : o.b)} is not in the comparison`,
      );
    }
    if (x === y) throw new Error(`outcome ${n}: a and b are the same candidate`);
    const [i, j] = x < y ? [x, y] : [y, x];
    const key = JSON.stringify([o.item, i, j]);
    if (seen.has(key))
      throw new Error(`outcome ${n}: item ${JSON.stringify(o.item)} has two outcomes for ${o.a} vs ${o.b}`);
    seen.add(key);
    const w = o.winner;
    const aWon = x < y ? 0 : 1;
    const result = w === null ? null : w === 'tie' ? 2 : w === 'A' ? aWon : ((1 - aWon) as 0 | 1);
    return { item: o.item, i, j, result, flip: o.flip ?? null };
  });
}

/** Counts per pair (i < j) that has at least one outcome, in candidate order. */
export function tallyPairs(candidates: readonly string[], oriented: readonly Oriented[], level = 0.95): PairResult[] {
  const k = candidates.length;
  const cells = new Map<number, { wins: number; ties: number; losses: number; missing: number }>();
  for (const o of oriented) {
    const key = o.i * k + o.j;
    const cell = cells.get(key) ?? { wins: 0, ties: 0, losses: 0, missing: 0 };
    if (o.result === null) cell.missing++;
    else if (o.result === 0) cell.wins++;
    else if (o.result === 1) cell.losses++;
    else cell.ties++;
    cells.set(key, cell);
  }
  return [...cells.entries()]
    .sort(([x], [y]) => x - y)
    .map(([key, c]) => {
      const n = c.wins + c.ties + c.losses;
      const score = c.wins + c.ties / 2;
      return {
        a: candidates[Math.floor(key / k)] as string,
        b: candidates[key % k] as string,
        ...c,
        winRate: n === 0 ? null : score / n,
        interval: wilsonInterval(score, n, level),
      };
    });
}

/** The N × N win matrix from the pair tallies. */
export function winMatrix(candidates: readonly string[], pairs: readonly PairResult[]): WinMatrix {
  const k = candidates.length;
  const index = new Map(candidates.map((c, i) => [c, i] as const));
  const wins = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const ties = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const winRate = Array.from({ length: k }, () => new Array<number | null>(k).fill(null));
  for (const p of pairs) {
    const r = index.get(p.a);
    const c = index.get(p.b);
    if (r === undefined || c === undefined) continue;
    (wins[r] as number[])[c] = p.wins;
    (wins[c] as number[])[r] = p.losses;
    (ties[r] as number[])[c] = p.ties;
    (ties[c] as number[])[r] = p.ties;
    const n = p.wins + p.ties + p.losses;
    (winRate[r] as (number | null)[])[c] = p.winRate;
    // From the counts rather than 1 − winRate, so r over c and c over r are computed alike.
    (winRate[c] as (number | null)[])[r] = n === 0 ? null : (p.losses + p.ties / 2) / n;
  }
  return { candidates: [...candidates], wins, ties, winRate };
}

/** The judge's missing, tie and position-flip rates over all outcomes. */
export function judgeRates(oriented: readonly Oriented[]): JudgeRates {
  let decided = 0;
  let ties = 0;
  let measured = 0;
  let flips = 0;
  for (const o of oriented) {
    if (o.result !== null) decided++;
    if (o.result === 2) ties++;
    if (o.flip !== null) {
      measured++;
      if (o.flip) flips++;
    }
  }
  const total = oriented.length;
  return {
    outcomes: total,
    decided,
    missingRate: total === 0 ? null : (total - decided) / total,
    tieRate: decided === 0 ? null : ties / decided,
    flipsMeasured: measured,
    flipRate: measured === 0 ? null : flips / measured,
  };
}
