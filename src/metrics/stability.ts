/**
 * @module
 * Stability of a judge asked the same thing several times (`repeat: N`): per item and over a run.
 *
 * - **flipRate** of an item: the share of its pairs of repeats that disagree (pairwise: different winners;
 *   pointwise: different scores once rounded to the scale's unit, so 3.0 and 3.4 agree). 0 when every repeat
 *   agrees; 1 when no two do.
 * - **scoreStdDev** of an item: the sample standard deviation (n − 1) of its repeats' scores; pairwise, of the
 *   preference each repeat states, A = 1, tie = 0.5, B = 0 (so 0.5 between a repeat for A and one for B).
 * - **unstable**: flipRate above 0 (some two repeats disagree).
 * - **overall**: the mean of the items' flipRate and scoreStdDev over the items whose repeats all gave a
 *   verdict; items with an error (a provider error, a failed repeat) are counted apart, never as a verdict.
 *
 * Runtime-neutral: only `zod`.
 */
import { z } from 'zod';

/** One repeat's verdict: a pairwise winner or a pointwise score (an abstention has neither). */
export interface RepeatVerdict {
  winner?: 'A' | 'B' | 'tie';
  score?: number;
}

/** Stability of one item (or, with `items`, of a run). */
export const StabilitySchema = z
  .object({
    /** Share of pairs of repeats that disagree, 0-1; null with fewer than 2 verdicts. */
    flipRate: z.number().min(0).max(1).nullable(),
    /** Sample standard deviation of the repeats' scores (pairwise: A = 1, tie = 0.5, B = 0); null with fewer than 2. */
    scoreStdDev: z.number().nonnegative().nullable(),
    /** Repeats that gave a verdict. */
    repeats: z.number().int().nonnegative(),
    /** True when some two repeats disagree (flipRate > 0). */
    unstable: z.boolean(),
  })
  .strict()
  .meta({
    id: 'Stability',
    description:
      'How far repeats of one item agree: `flipRate` is the share of pairs of repeats that disagree (pairwise: winners; pointwise: rounded scores), ' +
      '`scoreStdDev` the sample standard deviation of their scores (pairwise: A = 1, tie = 0.5, B = 0), `unstable` when flipRate > 0.',
  });
/** See {@link StabilitySchema}. */
export type Stability = z.infer<typeof StabilitySchema>;

/** Stability over a run's items. */
export const StabilitySummarySchema = z
  .object({
    /** Mean of the items' flipRate over the items with at least 2 verdicts; null without any. */
    flipRate: z.number().min(0).max(1).nullable(),
    /** Mean of the items' scoreStdDev over the same items; null without any. */
    scoreStdDev: z.number().nonnegative().nullable(),
    /** Items measured (every repeat gave a verdict, at least 2 of them). */
    items: z.number().int().nonnegative(),
    /** Of them, items with some two repeats disagreeing. */
    unstable: z.number().int().nonnegative(),
    /** Items with an error (a repeat failed: a provider error is an error, never a verdict). */
    errors: z.number().int().nonnegative(),
  })
  .strict()
  .meta({ id: 'StabilitySummary', description: 'Stability over every item of a run (see Stability).' });
/** See {@link StabilitySummarySchema}. */
export type StabilitySummary = z.infer<typeof StabilitySummarySchema>;

const PREFERENCE = { A: 1, tie: 0.5, B: 0 } as const;

function stdDev(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

function pairDisagreement(xs: readonly (string | number)[]): number | null {
  if (xs.length < 2) return null;
  let pairs = 0;
  let differ = 0;
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++) {
      pairs++;
      if (xs[i] !== xs[j]) differ++;
    }
  return differ / pairs;
}

/**
 * The stability of one item from its repeats' verdicts, pairwise when any repeat has a winner, else pointwise.
 * A repeat with neither winner nor score (an abstention) is left out.
 */
export function itemStability(repeats: readonly RepeatVerdict[]): Stability {
  const winners = repeats.flatMap((r) => (r.winner === undefined ? [] : [r.winner]));
  if (winners.length > 0) {
    const flipRate = pairDisagreement(winners);
    return {
      flipRate,
      scoreStdDev: stdDev(winners.map((w) => PREFERENCE[w])),
      repeats: winners.length,
      unstable: (flipRate ?? 0) > 0,
    };
  }
  const scores = repeats.flatMap((r) => (r.score === undefined ? [] : [r.score]));
  const flipRate = pairDisagreement(scores.map((s) => Math.round(s)));
  return { flipRate, scoreStdDev: stdDev(scores), repeats: scores.length, unstable: (flipRate ?? 0) > 0 };
}

/** Stability over items: each item's stability, or `'error'` for an item whose repeats did not all end in a verdict. */
export function stabilitySummary(items: readonly (Stability | 'error')[]): StabilitySummary {
  const measured = items.filter((s): s is Stability => s !== 'error' && s.flipRate !== null);
  const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  return {
    flipRate: mean(measured.map((s) => s.flipRate ?? 0)),
    scoreStdDev: mean(measured.map((s) => s.scoreStdDev ?? 0)),
    items: measured.length,
    unstable: measured.filter((s) => s.unstable).length,
    errors: items.filter((s) => s === 'error').length,
  };
}

/** The runs a repeat verdict lists (`details.repeat.runs`), or null when the verdict is not a repeat's. */
export function repeatRunsOf(details: unknown): RepeatVerdict[] | null {
  if (typeof details !== 'object' || details === null) return null;
  const repeat = (details as { repeat?: unknown }).repeat;
  if (typeof repeat !== 'object' || repeat === null) return null;
  const runs = (repeat as { runs?: unknown }).runs;
  if (!Array.isArray(runs)) return null;
  return runs.map((r: unknown) => {
    const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    const w = o.winner;
    return {
      ...(w === 'A' || w === 'B' || w === 'tie' ? { winner: w } : {}),
      ...(typeof o.score === 'number' ? { score: o.score } : {}),
    };
  });
}

/** The stability of a repeat verdict from its `details` (`details.repeat.runs`); null for any other verdict. */
export function stabilityOfDetails(details: unknown): Stability | null {
  const runs = repeatRunsOf(details);
  return runs ? itemStability(runs) : null;
}
