/**
 * @module
 * How far to trust a pairwise judge: each item judged k times (the verdict cache off), with or without a
 * human label. The report gives
 * - **test-retest**: the share of items whose repeats all agree, the share of agreeing repeat pairs, and
 *   Krippendorff's α (nominal, over A / B / tie; `krippendorff.ts` says why α);
 * - **position bias**: how often A wins when shown first (order AB) and when shown second (order BA), and
 *   the share of decisive single-order verdicts won by whichever answer was shown first (0.5 = no bias);
 * - **flip rate**: the share of repeats whose two orders disagreed;
 * - **rates** of A, B, tie, unparsed, inconclusive and failed over all repeats (they sum to 1);
 * - **with labels**: agreement with the human label per repeat and of the majority of the repeats, and
 *   Cohen's κ of that majority.
 *
 * Intervals: a share of independent items (all repeats agree) gets a Wilson interval (`intervals.ts`);
 * everything computed over repeats, whose repeats and orders are correlated within an item, gets a
 * percentile bootstrap resampling items (`bootstrap.ts`, seeded). Undefined figures are null.
 *
 * Runtime-neutral: only `zod`, the engine's verdict helpers and the meta statistics.
 */
import { z } from 'zod';
import type { Winner } from '../engine/verdict.js';
import { majority, WinnerSchema } from '../engine/verdict.js';
import type { BootstrapOptions } from './bootstrap.js';
import { bootstrapInterval, DEFAULT_BOOTSTRAP } from './bootstrap.js';
import { wilsonInterval } from './intervals.js';
import { alphaOf, alphaTable } from './krippendorff.js';
import type { Estimate } from './agreement.js';
import { EstimateSchema } from './agreement.js';
import { cohenKappa, PAIR_LABELS } from './stats.js';

/**
 * What one repeat came to. `A` / `B` / `tie`: a verdict. `unparsed`: the judge's replies never parsed (use it
 * also when the preset turned unreadable replies into a tie, so such ties are not counted as decisions).
 * `inconclusive`: a verdict without a decision (an abstention, a budget cut before any order concluded).
 * `failed`: the evaluation failed (LLM errors after retries).
 */
export const RepeatOutcomeSchema = z.enum(['A', 'B', 'tie', 'unparsed', 'inconclusive', 'failed']);
/** See {@link RepeatOutcomeSchema}. */
export type RepeatOutcome = z.infer<typeof RepeatOutcomeSchema>;

/** One repeat of one item. */
export const RepeatSchema = z
  .object({
    outcome: RepeatOutcomeSchema,
    /**
     * The winner of each presentation order in the item's own A/B terms (the swapped order mapped back),
     * when the judge ran both; null for an order that gave no verdict.
     */
    orders: z.object({ AB: WinnerSchema.nullable(), BA: WinnerSchema.nullable() }).partial().strict().optional(),
    /** Whether the two orders disagreed (the verdict's `positionFlip`); default: from `orders` when both are present. */
    flip: z.boolean().nullable().optional(),
  })
  .strict();
/** See {@link RepeatSchema}. */
export type Repeat = z.infer<typeof RepeatSchema>;

/** One item: its repeats and, when labelled, the human label. */
export const ReliabilityItemSchema = z
  .object({
    id: z.string().min(1),
    human: WinnerSchema.optional(),
    repeats: z.array(RepeatSchema).min(1),
  })
  .strict();
/** See {@link ReliabilityItemSchema}. */
export type ReliabilityItem = z.infer<typeof ReliabilityItemSchema>;

const share = z.number().min(0).max(1).nullable();

/** A judge's reliability report. */
export const ReliabilityReportSchema = z
  .object({
    items: z.number().int().nonnegative(),
    repeats: z.number().int().nonnegative(),
    repeatsPerItem: z.object({ min: z.number().int(), max: z.number().int() }).strict(),
    /** Shares of all repeats, summing to 1; null when there is no repeat. */
    rates: z.object({ A: share, B: share, tie: share, unparsed: share, inconclusive: share, failed: share }).strict(),
    testRetest: z
      .object({
        /** Items with at least 2 repeats that gave a verdict (A, B or tie): the ones compared. */
        itemsCompared: z.number().int().nonnegative(),
        /** Share of compared items whose verdicts all agree (Wilson CI). */
        allAgree: EstimateSchema,
        /** Share of agreeing pairs of verdicts within an item, pooled over items (bootstrap CI). */
        pairAgreement: EstimateSchema,
        /** Krippendorff's α, nominal A / B / tie (bootstrap CI); null when every verdict is the same. */
        alpha: EstimateSchema,
      })
      .strict(),
    positionBias: z
      .object({
        /** Single-order verdicts recorded (repeats with `orders`). */
        judgements: z.number().int().nonnegative(),
        /** Share of order-AB verdicts (A shown first) that A won, and of order-BA verdicts (A shown second). */
        aWinsWhenFirst: share,
        aWinsWhenSecond: share,
        /** Of the decisive (non-tie) single-order verdicts, the share the first-shown answer won (bootstrap CI); 0.5 is unbiased. */
        firstShownWins: EstimateSchema,
      })
      .strict(),
    flips: z
      .object({
        /** Repeats where both orders gave a verdict. */
        measured: z.number().int().nonnegative(),
        /** Share of them whose orders disagreed (bootstrap CI). */
        rate: EstimateSchema,
      })
      .strict(),
    /** Present when some item has a human label. */
    labelled: z
      .object({
        items: z.number().int().nonnegative(),
        /** Labelled items with at least one verdict: the ones scored. */
        scored: z.number().int().nonnegative(),
        /** Share of verdicts (every repeat) equal to the human label (bootstrap CI over items). */
        perRepeatAccuracy: EstimateSchema,
        /** The majority of an item's verdicts (a shared top count is a tie) against the label. */
        majorityAccuracy: EstimateSchema,
        majorityKappa: EstimateSchema,
      })
      .strict()
      .nullable(),
    bootstrap: z.object({ resamples: z.number().int().positive(), seed: z.number(), level: z.number() }).strict(),
  })
  .strict();
/** See {@link ReliabilityReportSchema}. */
export type ReliabilityReport = z.infer<typeof ReliabilityReportSchema>;

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
const isWinner = (o: RepeatOutcome): o is Winner => o === 'A' || o === 'B' || o === 'tie';

function flipOf(r: Repeat): boolean | null {
  if (typeof r.flip === 'boolean') return r.flip;
  const ab = r.orders?.AB ?? null;
  const ba = r.orders?.BA ?? null;
  return ab === null || ba === null ? null : ab !== ba;
}

/** Per-item sums the bootstrap adds up. */
interface ItemSums {
  verdicts: Winner[];
  agreeingPairs: number;
  pairs: number;
  firstShownWins: number;
  decisive: number;
  flips: number;
  measured: number;
}

function sumsOf(item: ReliabilityItem): ItemSums {
  const verdicts = item.repeats.map((r) => r.outcome).filter(isWinner);
  const counts = PAIR_LABELS.map((l) => verdicts.filter((v) => v === l).length);
  const m = verdicts.length;
  let firstShownWins = 0;
  let decisive = 0;
  let flips = 0;
  let measured = 0;
  for (const r of item.repeats) {
    const ab = r.orders?.AB ?? null;
    const ba = r.orders?.BA ?? null;
    if (ab === 'A' || ab === 'B') {
      decisive++;
      if (ab === 'A') firstShownWins++;
    }
    if (ba === 'A' || ba === 'B') {
      decisive++;
      if (ba === 'B') firstShownWins++;
    }
    const f = flipOf(r);
    if (f !== null) {
      measured++;
      if (f) flips++;
    }
  }
  return {
    verdicts,
    agreeingPairs: counts.reduce((s, c) => s + c * (c - 1), 0),
    pairs: m * (m - 1),
    firstShownWins,
    decisive,
    flips,
    measured,
  };
}

/** The numeric per-item sums. */
type SumKey = Exclude<keyof ItemSums, 'verdicts'>;

/** Σ num / Σ den of per-item sums over the picked items; NaN when the denominator is 0. */
function pooled(sums: readonly ItemSums[], num: SumKey, den: SumKey) {
  return (indices: readonly number[]) => {
    let a = 0;
    let b = 0;
    for (const i of indices) {
      const s = sums[i];
      if (!s) continue;
      a += s[num];
      b += s[den];
    }
    return b === 0 ? Number.NaN : a / b;
  };
}

/**
 * The reliability report of a judge's repeats.
 * @param options bootstrap resamples (default 1000), seed (default 0) and level (default 0.95).
 */
export function reliabilityReport(
  itemsInput: readonly ReliabilityItem[],
  options: BootstrapOptions = {},
): ReliabilityReport {
  const items = itemsInput.map((it) => ReliabilityItemSchema.parse(it));
  const boot = { ...DEFAULT_BOOTSTRAP, ...options };
  const all = items.map((_, i) => i);
  const estimate = (units: number, stat: (idx: readonly number[]) => number): Estimate => {
    const value = finite(stat(Array.from({ length: units }, (_, i) => i)));
    const ci = value === null ? null : bootstrapInterval(units, stat, boot);
    return { value, ci };
  };
  /** Σ num / Σ den over items, with a CI from resampling them. */
  const ratioEstimate = (list: readonly ItemSums[], num: SumKey, den: SumKey) =>
    estimate(list.length, pooled(list, num, den));
  const sums = items.map(sumsOf);

  // Rates over every repeat.
  const repeats = items.flatMap((it) => it.repeats);
  const rate = (o: RepeatOutcome) => ratio(repeats.filter((r) => r.outcome === o).length, repeats.length);

  // Test-retest over items with ≥ 2 verdicts.
  const compared = all.filter((i) => (sums[i]?.verdicts.length ?? 0) >= 2);
  const agreeing = compared.filter((i) => new Set(sums[i]?.verdicts).size === 1).length;
  const comparedSums = compared.map((i) => sums[i] as ItemSums);
  const table = alphaTable(comparedSums.map((s) => s.verdicts));
  const allAgree: Estimate =
    compared.length === 0
      ? { value: null, ci: null }
      : (() => {
          const [lo, hi] = wilsonInterval(agreeing, compared.length, boot.level);
          return { value: agreeing / compared.length, ci: { lo, hi } };
        })();

  // Position bias over single-order verdicts.
  const orderVerdicts = (key: 'AB' | 'BA') =>
    repeats.flatMap((r) => {
      const w = r.orders?.[key] ?? null;
      return w === null ? [] : [w];
    });
  const ab = orderVerdicts('AB');
  const ba = orderVerdicts('BA');

  // Labels: per-repeat accuracy and the majority's.
  const labelled = items.filter((it) => it.human !== undefined);
  const scoredLabelled = labelled.filter((it) => it.repeats.some((r) => isWinner(r.outcome)));
  const human = scoredLabelled.map((it) => it.human as Winner);
  const verdictsOf = (it: ReliabilityItem) => it.repeats.map((r) => r.outcome).filter(isWinner);
  const majorities = scoredLabelled.map((it) => majority(verdictsOf(it)).winner);
  const correct = scoredLabelled.map((it) => verdictsOf(it).filter((v) => v === it.human).length);
  const judged = scoredLabelled.map((it) => verdictsOf(it).length);
  const sumOver = (xs: readonly number[], idx: readonly number[]) => idx.reduce((s, i) => s + (xs[i] ?? 0), 0);

  return {
    items: items.length,
    repeats: repeats.length,
    repeatsPerItem: {
      min: items.length === 0 ? 0 : Math.min(...items.map((it) => it.repeats.length)),
      max: items.length === 0 ? 0 : Math.max(...items.map((it) => it.repeats.length)),
    },
    rates: {
      A: rate('A'),
      B: rate('B'),
      tie: rate('tie'),
      unparsed: rate('unparsed'),
      inconclusive: rate('inconclusive'),
      failed: rate('failed'),
    },
    testRetest: {
      itemsCompared: compared.length,
      allAgree,
      pairAgreement: ratioEstimate(comparedSums, 'agreeingPairs', 'pairs'),
      alpha: estimate(table.units.length, (idx) => alphaOf(table, idx)),
    },
    positionBias: {
      judgements: ab.length + ba.length,
      aWinsWhenFirst: ratio(ab.filter((w) => w === 'A').length, ab.length),
      aWinsWhenSecond: ratio(ba.filter((w) => w === 'A').length, ba.length),
      firstShownWins: ratioEstimate(sums, 'firstShownWins', 'decisive'),
    },
    flips: {
      measured: sums.reduce((s, x) => s + x.measured, 0),
      rate: ratioEstimate(sums, 'flips', 'measured'),
    },
    labelled:
      labelled.length === 0
        ? null
        : {
            items: labelled.length,
            scored: scoredLabelled.length,
            perRepeatAccuracy: estimate(scoredLabelled.length, (idx) => {
              const d = sumOver(judged, idx);
              return d === 0 ? Number.NaN : sumOver(correct, idx) / d;
            }),
            majorityAccuracy: estimate(scoredLabelled.length, (idx) =>
              idx.length === 0 ? Number.NaN : idx.filter((i) => majorities[i] === human[i]).length / idx.length,
            ),
            majorityKappa: estimate(scoredLabelled.length, (idx) =>
              cohenKappa(
                idx.map((i) => human[i] as Winner),
                idx.map((i) => majorities[i] as Winner),
                PAIR_LABELS,
              ),
            ),
          },
    bootstrap: { resamples: boot.resamples, seed: boot.seed, level: boot.level },
  };
}
