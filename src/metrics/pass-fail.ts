/**
 * @module
 * Accuracy of a judge scoring on a two-point scale (pass/fail, e.g. 0-1) against expected scores: there,
 * agreement is a match, not a correlation (with two values and a few examples a correlation is often
 * undefined). A judge's score that is not one of the two points (a mean of samples) counts as the nearer one;
 * exactly between them counts as the upper one.
 */
import type { BootstrapOptions, Interval } from './bootstrap.js';
import { bootstrapInterval } from './bootstrap.js';
import { accuracy, pick } from './stats.js';

/** Inclusive bounds of a score scale. */
export interface ScaleBounds {
  min: number;
  max: number;
}

/** True for a scale of exactly two integer points (`{min: 0, max: 1}`): a pass/fail scale. */
export function isTwoPoint(scale: ScaleBounds | undefined | null): boolean {
  return scale != null && Number.isInteger(scale.min) && scale.max - scale.min === 1;
}

/** One scored example: the expected score and the judge's (absent or null when it has none). */
export interface TwoPointObservation {
  human: number;
  judge?: number | null;
}

/**
 * The share of scored examples whose judge score, read as the nearer point of `scale`, equals the expected
 * score, with a bootstrap interval over examples (`bootstrap` false: none); `value` null without a scored example.
 */
export function twoPointAccuracy(
  items: readonly TwoPointObservation[],
  scale: ScaleBounds,
  bootstrap: BootstrapOptions | false = {},
): { value: number | null; ci: Interval | null } {
  const scored = items.filter(
    (it): it is { human: number; judge: number } => typeof it.judge === 'number' && Number.isFinite(it.judge),
  );
  const mid = (scale.min + scale.max) / 2;
  const human = scored.map((it) => it.human);
  const judge = scored.map((it) => (it.judge >= mid ? scale.max : scale.min));
  const value = accuracy(human, judge);
  return {
    value: Number.isFinite(value) ? value : null,
    ci:
      bootstrap === false
        ? null
        : bootstrapInterval(scored.length, (idx) => accuracy(pick(human, idx), pick(judge, idx)), bootstrap),
  };
}
