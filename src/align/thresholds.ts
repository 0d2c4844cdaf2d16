/**
 * @module
 * The `thresholds` method for pointwise rubrics, pure: per score (the verdict's `score` and each aspect's) the
 * cut-offs on the judge's scores that put the most learning items in their human's band (src/engine/thresholds.ts
 * `learnCutoffs`), and the held-out κ of a version over those bands (the mean over the scores the humans labelled
 * of Cohen's κ across the scale's whole scores; the base version's raw score read at its nearest whole score).
 * No I/O.
 */
import type { RubricContent } from '../engine/rubric.js';
import type { RubricThresholds } from '../engine/thresholds.js';
import { bandOf, learnCutoffs, nearestLevel, scalesOf } from '../engine/thresholds.js';
import { cohenKappa } from '../metrics/stats.js';
import type { HeldOut } from './core.js';
import { heldOutOf } from './core.js';

/** The scores a pointwise item has, the humans' or the judge's; null: none given. */
export interface PointScores {
  score: number | null;
  aspects: Readonly<Record<string, number | null>> | null;
}

/** One score of a rubric: `score` (the verdict's) or an aspect, with its scale. */
interface Dimension {
  key: { kind: 'score' } | { kind: 'aspect'; name: string };
  scale: { min: number; max: number };
}

function dimensionsOf(content: RubricContent): Dimension[] {
  const s = scalesOf(content);
  return [
    { key: { kind: 'score' }, scale: s.score },
    ...s.aspects.map((a): Dimension => ({ key: { kind: 'aspect', name: a.name }, scale: a.scale })),
  ];
}

const valueOf = (p: PointScores | null, d: Dimension): number | null =>
  p === null ? null : d.key.kind === 'score' ? p.score : (p.aspects?.[d.key.name] ?? null);

const cutsOf = (t: RubricThresholds | null, d: Dimension): readonly number[] | undefined =>
  t === null ? undefined : d.key.kind === 'score' ? t.score : t.aspects?.[d.key.name];

/**
 * The thresholds learned from items with both a human's and the judge's scores: cut-offs for each score the
 * humans labelled on at least one of them; null when none has a pair to learn from.
 */
export function thresholdsCandidate(
  content: RubricContent,
  items: readonly { human: PointScores; judge: PointScores | null }[],
): RubricThresholds | null {
  const out: RubricThresholds = {};
  for (const d of dimensionsOf(content)) {
    const pairs = items.flatMap((it) => {
      const human = valueOf(it.human, d);
      const judge = valueOf(it.judge, d);
      return human === null || judge === null ? [] : [{ human, judge }];
    });
    if (pairs.length === 0) continue;
    const cuts = learnCutoffs(pairs, d.scale);
    if (d.key.kind === 'score') out.score = cuts;
    else out.aspects = { ...out.aspects, [d.key.name]: cuts };
  }
  return out.score === undefined && out.aspects === undefined ? null : out;
}

/**
 * κ of a version over items `ix` (indices into `humans` and `judged`): per score, the humans' whole scores
 * against the judge's bands (by `thresholds`' cut-offs where it has them, else the nearest whole score), over
 * the items where both are given; the mean over the scores with a κ; null when none has one.
 */
export function pointKappa(
  content: RubricContent,
  thresholds: RubricThresholds | null,
  humans: readonly PointScores[],
  judged: readonly (PointScores | null)[],
  ix: readonly number[],
): number | null {
  const kappas: number[] = [];
  for (const d of dimensionsOf(content)) {
    const h: number[] = [];
    const j: number[] = [];
    for (const i of ix) {
      const human = valueOf(humans[i] ?? null, d);
      const judge = valueOf(judged[i] ?? null, d);
      if (human === null || judge === null) continue;
      const cuts = cutsOf(thresholds, d);
      h.push(nearestLevel(human, d.scale));
      j.push(cuts ? bandOf(cuts, d.scale.min, judge) : nearestLevel(judge, d.scale));
    }
    if (h.length === 0) continue;
    const levels = Array.from({ length: d.scale.max - d.scale.min + 1 }, (_, k) => d.scale.min + k);
    const k = cohenKappa(h, j, levels);
    if (Number.isFinite(k)) kappas.push(k);
  }
  return kappas.length === 0 ? null : kappas.reduce((s, k) => s + k, 0) / kappas.length;
}

/** A labelled item's human side, as the job snapshots it (./rows.ts `AlignItem`). */
export interface PointItem {
  human: string | number | null;
  humanAspects?: Record<string, number> | null;
}

/** A pointwise item's human scores. */
function humanPoints(it: PointItem | undefined): PointScores {
  return { score: typeof it?.human === 'number' ? it.human : null, aspects: it?.humanAspects ?? null };
}

/**
 * The κ of cut-offs over items `ix` without judging again: the base version's scores there (`judged`, by item) read
 * through `thresholds`, against the humans' scores ({@link pointKappa}, as the held-out figure); null when no score
 * has a κ. What `auto` shows as the one pointwise candidate's κ on the validation items.
 */
export function thresholdsKappa(
  items: readonly PointItem[],
  content: RubricContent,
  thresholds: RubricThresholds | null,
  ix: readonly number[],
  judged: readonly (PointScores | null)[],
): number | null {
  return pointKappa(content, thresholds, items.map(humanPoints), judged, ix);
}

/** `thresholds`: the cut-offs learned from the base version's scores (`judged`, by item) on the items `learn`. */
export function learnThresholds(
  items: readonly PointItem[],
  content: RubricContent,
  learn: readonly number[],
  judged: readonly (PointScores | null)[],
): RubricThresholds | null {
  return thresholdsCandidate(
    content,
    learn.map((i) => ({ human: humanPoints(items[i]), judge: judged[i] ?? null })),
  );
}

/**
 * The held-out figures over the bands: the base version by its raw scores at their nearest whole score, the new
 * version by its cut-offs (`thresholds`); `judged`: both versions' scores by item.
 */
export function pointHeldOut(
  items: readonly PointItem[],
  content: RubricContent,
  thresholds: RubricThresholds | null,
  heldOut: readonly number[],
  judged: readonly [readonly (PointScores | null)[], readonly (PointScores | null)[]],
  seed: number,
): HeldOut {
  const humans = heldOut.map((i) => humanPoints(items[i]));
  const [base, aligned] = judged.map((byItem) => heldOut.map((i) => byItem[i] ?? null));
  return heldOutOf(
    heldOut.length,
    (ix) => pointKappa(content, null, humans, base ?? [], ix),
    (ix) => pointKappa(content, thresholds, humans, aligned ?? [], ix),
    seed,
  );
}
