/**
 * @module
 * The alignment's decisions, pure so that the job (./process.ts) and `npm run bench:align` run the same code:
 * which labelled items a version learns from and which are held out, the few-shot candidate, the prompt the
 * LLM rewrites criteria from, the held-out agreement of the base and the aligned version with their intervals,
 * and whether the tag moves. No I/O.
 */
import { bootstrapInterval, createRng } from '../metrics/bootstrap.js';
import { cohenKappa } from '../metrics/stats.js';
import type { JudgedLabel } from './few-shot.js';
import { chooseCorrections, fewShotCriteria } from './few-shot.js';

/** Share of the learning items that `auto` keeps apart to choose its method on: 0.3. */
export const VALIDATION_SHARE = 0.3;
/** Few-shot examples a version gets at most: 4 (the judge's most confident mistakes). */
export const FEW_SHOT_EXAMPLES = 4;
/** Disagreements the criteria rewrite is shown at most: 12 (most confident first). */
export const REWRITE_CASES = 12;
/** Bootstrap resamples of every held-out interval: 2,000. */
export const RESAMPLES = 2_000;

/** A pairwise label or verdict; null: the judge gave none. */
export type Winner = 'A' | 'B' | 'tie';

/** A 32-bit seed from a text (FNV-1a), so a job's splits follow from its id. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Item indices `0..n-1` split in two: `share` of them (rounded, at least one each side) in `apart`, seeded. */
export function splitIndices(n: number, share: number, seed: number): { keep: number[]; apart: number[] } {
  const random = createRng(seed);
  const order = Array.from({ length: n }, (_, i) => ({ i, k: random() })).sort((a, b) => a.k - b.k || a.i - b.i);
  const count = Math.min(n - 1, Math.max(1, Math.round(n * share)));
  const byIndex = (a: number, b: number) => a - b;
  return {
    apart: order
      .slice(0, count)
      .map((o) => o.i)
      .sort(byIndex),
    keep: order
      .slice(count)
      .map((o) => o.i)
      .sort(byIndex),
  };
}

/**
 * The items' split: `heldOut` (share `holdout`) is judged by both versions and learned from by neither;
 * `learn` is what the method learns from; `auto` splits `learn` again into `train` and `validation`
 * ({@link VALIDATION_SHARE}), chooses its method on `validation`, never on `heldOut`.
 */
export interface Split {
  heldOut: number[];
  learn: number[];
  train: number[];
  validation: number[];
}

/** The split of `n` items for a job seeded by `seed`. */
export function splitOf(n: number, holdout: number, seed: number): Split {
  const { keep: learn, apart: heldOut } = splitIndices(n, holdout, seed);
  const inner = splitIndices(learn.length, VALIDATION_SHARE, seed ^ 0x9e3779b9);
  return {
    heldOut,
    learn,
    train: inner.keep.map((i) => learn[i] as number),
    validation: inner.apart.map((i) => learn[i] as number),
  };
}

/** Few-shot: the criteria with the judge's most confident corrections as examples; null with no correction. */
export function fewShotCandidate(criteria: string, judged: readonly JudgedLabel[]): string | null {
  const corrections = chooseCorrections(judged, FEW_SHOT_EXAMPLES);
  return corrections.length === 0 ? null : fewShotCriteria(criteria, corrections);
}

/**
 * Instructions: what the criteria rewrite is shown (the criteria slot of its prompt): the criteria, then the
 * judge's disagreements with the humans in the few-shot form; null with no disagreement.
 */
export function rewriteInput(criteria: string, judged: readonly JudgedLabel[]): string | null {
  const cases = chooseCorrections(judged, REWRITE_CASES);
  return cases.length === 0 ? null : fewShotCriteria(criteria, cases);
}

/** The criteria of the instructions candidate: the criteria, then the rules the LLM wrote from the disagreements. */
export function instructionsCriteria(criteria: string, rules: string): string {
  return `${criteria.trimEnd()}\n\nRules learned from human reviewers' corrections:\n${rules.trim()}`;
}

/** Cohen's κ over A/B/tie (a missing verdict counts as `tie`); null when it is not a number. */
export function kappaOf(human: readonly Winner[], judge: readonly (Winner | null)[]): number | null {
  if (human.length === 0) return null;
  const k = cohenKappa(
    human,
    judge.map((j) => j ?? 'tie'),
    ['A', 'B', 'tie'],
  );
  return Number.isFinite(k) ? k : null;
}

/** A figure with its bootstrap 95% interval (null when it cannot be computed). */
export interface Estimate {
  value: number | null;
  interval: { lo: number; hi: number } | null;
}

/** The held-out agreement of both versions on the same items, and the paired gain. */
export interface HeldOut {
  metric: 'kappa';
  n: number;
  base: Estimate;
  aligned: Estimate;
  gain: Estimate;
}

/**
 * κ of the base and the aligned verdicts against the humans on the held-out items, each with a bootstrap 95%
 * interval, and the gain's paired interval (the same resampled items for both), seeded.
 */
export function heldOutAgreement(
  human: readonly Winner[],
  base: readonly (Winner | null)[],
  aligned: readonly (Winner | null)[],
  seed: number,
): HeldOut {
  const pick = <T>(xs: readonly T[], ix: readonly number[]) => ix.map((i) => xs[i] as T);
  const kappa = (judge: readonly (Winner | null)[]) => (ix: readonly number[]) =>
    kappaOf(pick(human, ix), pick(judge, ix));
  return heldOutOf(human.length, kappa(base), kappa(aligned), seed);
}

/**
 * The held-out figures from a κ of each version over any resample of the `n` held-out items (null: not a
 * number): each version's κ on all items with a bootstrap 95% interval, and the paired gain.
 */
export function heldOutOf(
  n: number,
  base: (ix: readonly number[]) => number | null,
  aligned: (ix: readonly number[]) => number | null,
  seed: number,
): HeldOut {
  const all = Array.from({ length: n }, (_, i) => i);
  const opts = { resamples: RESAMPLES, seed };
  const interval = (f: (ix: readonly number[]) => number) => {
    const ci = bootstrapInterval(n, f, opts);
    return ci && Number.isFinite(ci.lo) && Number.isFinite(ci.hi) ? { lo: ci.lo, hi: ci.hi } : null;
  };
  const kBase = base(all);
  const kAligned = aligned(all);
  return {
    metric: 'kappa',
    n,
    base: { value: kBase, interval: interval((ix) => base(ix) ?? 0) },
    aligned: { value: kAligned, interval: interval((ix) => aligned(ix) ?? 0) },
    gain: {
      value: kBase === null || kAligned === null ? null : kAligned - kBase,
      interval: interval((ix) => (aligned(ix) ?? 0) - (base(ix) ?? 0)),
    },
  };
}

/** Whether the tag moves to the aligned version: only when the gain's interval lies above 0. */
export function tagMoves(h: HeldOut): boolean {
  return h.gain.interval !== null && h.gain.interval.lo > 0;
}

/** Of candidates scored on the validation items, the best (the first on a tie); null when there is none. */
export function bestCandidate<T extends { kappa: number | null }>(scored: readonly T[]): T | null {
  let best: T | null = null;
  for (const c of scored) if (best === null || (c.kappa ?? -Infinity) > (best.kappa ?? -Infinity)) best = c;
  return best;
}
