/**
 * @module
 * A pointwise rubric's thresholds: score cut-offs that put the judge's score (and each aspect's) into the bands
 * the humans label in, so a judge that is systematically generous or strict reads as the humans would. A band is
 * a whole score of the scale, `min + (the number of cut-offs at or below the judge's score)`; a 0-1 scale makes
 * it pass (1) or fail (0). The verdict of a version with thresholds carries that `label` beside its raw scores.
 *
 * {@link learnCutoffs} finds the cut-offs from labelled items (what `POST /v1/rubrics/{id}/align` with
 * `method: thresholds` stores); {@link labelOf} applies them. Pure: no I/O.
 */
import { z } from 'zod';

/** Most cut-offs one score takes: 100 (a scale of at most 101 levels). */
export const MAX_CUTOFFS = 100;

const cutoffs = z
  .array(z.number())
  .max(MAX_CUTOFFS)
  .refine((xs) => xs.every((x, i) => i === 0 || x >= (xs[i - 1] as number)), 'cut-offs must not decrease');

/**
 * Cut-offs per score of a pointwise rubric: `score` for the verdict's score (with aspects: the overall score on
 * its scale), `aspects` by aspect name. Each list has one cut-off per step of its scale (`max − min` of them), in
 * ascending order: a judge's score at or above the i-th (from 0) is in band `min + i + 1` at least.
 */
export const RubricThresholdsSchema = z
  .object({
    /** Cut-offs on the verdict's score. Default: none (the score gets no band). */
    score: cutoffs.optional(),
    /** Cut-offs per aspect, by name. Default: none. */
    aspects: z.record(z.string().min(1).max(64), cutoffs).optional(),
  })
  .strict();
/** A rubric's thresholds. */
export type RubricThresholds = z.infer<typeof RubricThresholdsSchema>;

/** The parts of a rubric's content its thresholds' scales follow from. */
export interface ScaledContent {
  scale?: { min: number; max: number } | undefined;
  aspects?: readonly { name: string; scale?: { min: number; max: number } | undefined }[] | undefined;
}

/**
 * The scale each score of a pointwise rubric is on: `score` (the verdict's: the rubric's scale, else the aspects'
 * common one, else 0-1, as the engine's overall score) and each aspect's (its own, else the rubric's).
 */
export function scalesOf(c: ScaledContent): {
  score: { min: number; max: number };
  aspects: { name: string; scale: { min: number; max: number } }[];
} {
  const aspects = (c.aspects ?? []).map((a) => ({ name: a.name, scale: a.scale ?? c.scale ?? { min: 0, max: 1 } }));
  const [first] = aspects;
  const common = first && aspects.every((a) => a.scale.min === first.scale.min && a.scale.max === first.scale.max);
  const score = c.scale ?? (common ? first.scale : { min: 0, max: 1 });
  return { score: { min: score.min, max: score.max }, aspects };
}

/** The bands a verdict's scores fall in by its rubric's thresholds (the form of a human's pointwise label). */
export interface ThresholdLabel {
  score?: number;
  aspects?: Record<string, number>;
}

/** The band of `x` on a scale starting at `min`: `min` plus the cut-offs at or below `x`. */
export function bandOf(cuts: readonly number[], min: number, x: number): number {
  let n = 0;
  for (const c of cuts) if (x >= c) n += 1;
  return min + n;
}

/**
 * The bands of a verdict's scores: `score` by `thresholds.score` on `scale`, each scored aspect by its own
 * cut-offs on its own scale; undefined when nothing has a band.
 */
export function labelOf(
  thresholds: RubricThresholds | undefined,
  scale: { min: number; max: number } | undefined,
  score: number | undefined,
  aspects: readonly { name: string; score?: number | undefined; scale: { min: number } }[] | undefined,
): ThresholdLabel | undefined {
  if (!thresholds) return undefined;
  const out: ThresholdLabel = {};
  if (thresholds.score && scale && score !== undefined) out.score = bandOf(thresholds.score, scale.min, score);
  const banded: Record<string, number> = {};
  for (const a of aspects ?? []) {
    const cuts = thresholds.aspects?.[a.name];
    if (cuts && a.score !== undefined) banded[a.name] = bandOf(cuts, a.scale.min, a.score);
  }
  if (Object.keys(banded).length > 0) out.aspects = banded;
  return out.score === undefined && out.aspects === undefined ? undefined : out;
}

/** The nearest whole score of the scale to `x` (how a raw score reads as a band without thresholds). */
export function nearestLevel(x: number, scale: { min: number; max: number }): number {
  return Math.min(scale.max, Math.max(scale.min, Math.round(x)));
}

/**
 * Cut-offs on `scale` that put the most judge scores in their human's band, learned from `pairs`: the best
 * non-decreasing map from the judge's scores to whole scores (a dynamic programme over the judge's distinct
 * scores), ties going to the nearest whole score, then each cut-off placed between the highest judge score below
 * its band and the lowest at or above it, as near the rounding point (`band − 0.5`) as that allows; where the
 * pairs say nothing, the cut-offs are the rounding points. A human score off the scale counts at its nearest band.
 * @returns `max − min` non-decreasing cut-offs.
 */
export function learnCutoffs(
  pairs: readonly { judge: number; human: number }[],
  scale: { min: number; max: number },
): number[] {
  const levels = scale.max - scale.min + 1;
  const values = [...new Set(pairs.map((p) => p.judge))].sort((a, b) => a - b);
  const counts = values.map(() => new Array<number>(levels).fill(0));
  for (const p of pairs) {
    const row = counts[values.indexOf(p.judge)] as number[];
    const l = nearestLevel(p.human, scale) - scale.min;
    row[l] = (row[l] ?? 0) + 1;
  }
  // Matches first; among equal matches, the judge's score kept where it is (a small bonus per item).
  const gain = (j: number, l: number) => {
    const row = counts[j] as number[];
    const n = row.reduce((s, c) => s + c, 0);
    return (row[l] ?? 0) * (pairs.length + 1) + (nearestLevel(values[j] as number, scale) - scale.min === l ? n : 0);
  };
  const best: number[][] = [];
  const from: number[][] = [];
  values.forEach((_, j) => {
    const row: number[] = [];
    const back: number[] = [];
    let prefixBest = -Infinity;
    let prefixAt = 0;
    for (let l = 0; l < levels; l++) {
      const prev = j === 0 ? 0 : (best[j - 1]?.[l] ?? -Infinity);
      if (prev > prefixBest) [prefixBest, prefixAt] = [prev, l];
      row.push(prefixBest + gain(j, l));
      back.push(prefixAt);
    }
    best.push(row);
    from.push(back);
  });
  const band = new Array<number>(values.length).fill(0);
  if (values.length > 0) {
    const last = best[values.length - 1] as number[];
    let l = last.indexOf(Math.max(...last));
    for (let j = values.length - 1; j >= 0; j--) {
      band[j] = l;
      l = from[j]?.[l] ?? 0;
    }
  }
  const cuts: number[] = [];
  for (let l = 1; l < levels; l++) {
    const below = values.filter((_, j) => (band[j] as number) < l);
    const above = values.filter((_, j) => (band[j] as number) >= l);
    const lo = below.length > 0 ? Math.max(...below) : -Infinity;
    const hi = above.length > 0 ? Math.min(...above) : Infinity;
    const rounding = scale.min + l - 0.5;
    let cut = rounding;
    if (rounding <= lo || rounding > hi)
      cut = Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : Number.isFinite(hi) ? hi : lo + 0.5;
    cuts.push(Math.max(cut, cuts.at(-1) ?? -Infinity));
  }
  return cuts;
}
