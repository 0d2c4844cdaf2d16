/**
 * @module
 * Certified agreement (Trust or Escalate, Jung et al. 2024, arXiv 2407.18370, §2): a judge's verdict is
 * answered only where its confidence reaches a threshold λ chosen on labelled calibration items so that, for
 * new items exchangeable with them, the answered verdicts agree with humans at least `agreement` of the time
 * with probability at least 1 − `risk`; every other item is escalated (to a cascade's next stage) or abstained on.
 *
 * λ is chosen by fixed-sequence testing from the strictest confidence down (`calibrateCascade`,
 * ./escalate.ts, one stage per judge stage: α = 1 − agreement, δ = risk): a threshold passes when
 * P(Binomial(n(λ), α) ≤ e(λ)) ≤ δ, and the sequence stops at the first that fails. A threshold is only tested
 * when it trusts at least {@link minCalibrationSize} items: fewer could never pass (0 errors of n needs
 * agreementⁿ ≤ risk), and the paper's code tests none below 30.
 *
 * Runtime-neutral: only `zod`.
 */
import { z } from 'zod';
import type { Winner } from '../engine/verdict.js';
import type { CascadeCalibration } from './escalate.js';
import { calibrateCascade, trustOrEscalate } from './escalate.js';
import { cascadeDetailsOf } from './cascade.js';

/** `certify` on a request: the agreement to guarantee and the risk that the guarantee fails. */
export const CertifySchema = z
  .object({
    /** Agreement with the human labels the answered verdicts must reach, in (0, 1); e.g. 0.8. */
    agreement: z.number().gt(0).lt(1),
    /** Probability (over the calibration draw) that they do not, in (0, 1); e.g. 0.05. */
    risk: z.number().gt(0).lt(1),
  })
  .strict()
  .meta({
    id: 'Certify',
    description:
      "Certified mode (Trust or Escalate): answer only where the judge's confidence reaches a threshold calibrated on the rubric version's labelled items, " +
      'so that answered verdicts agree with humans at least `agreement` of the time with probability at least 1 − `risk`; escalate or abstain elsewhere.',
  });
/** See {@link CertifySchema}. */
export type Certify = z.infer<typeof CertifySchema>;

/** The guarantee a certified run carries. */
export const GuaranteeSchema = z
  .object({
    agreement: z.number(),
    risk: z.number(),
    /** Share of the calibration items answered under the threshold(s) (0-1); null without items. */
    coverage: z.number().min(0).max(1).nullable(),
    /** Labelled items the threshold was calibrated on. */
    calibrationSize: z.number().int().nonnegative(),
  })
  .strict()
  .meta({ id: 'Guarantee' });
/** See {@link GuaranteeSchema}. */
export type Guarantee = z.infer<typeof GuaranteeSchema>;

/**
 * What certified mode did with one item: `answered` (the judge's verdict, at or above its threshold), `escalated`
 * (a later cascade stage's verdict, at or above that stage's threshold), `abstained` (no stage reached its
 * threshold: no winner, and not an error) or `error` (the item failed or was cancelled: no verdict at all).
 */
export const CertificationSchema = z
  .object({
    outcome: z.enum(['answered', 'escalated', 'abstained', 'error']),
    /** The stage whose verdict is certified, or the last stage that abstained; null on `error`. */
    stage: z.number().int().nonnegative().nullable(),
  })
  .strict()
  .meta({ id: 'Certification' });
/** See {@link CertificationSchema}. */
export type Certification = z.infer<typeof CertificationSchema>;

/** An item's certified-mode fields: `certified` (true only for a certified verdict) and what happened. */
export interface CertifiedFields {
  certified: boolean | null;
  certification: Certification | null;
}

/** The fields of an item not judged in certified mode, or not ended yet. */
export const UNCERTIFIED: CertifiedFields = { certified: null, certification: null };

/**
 * An item's certified-mode fields from its status and its verdict's `details` (a certified judge is a calibrated
 * cascade, src/certify/): null fields while it runs; `error` for a failed or cancelled item.
 */
export function certificationOf(status: string, details: unknown): CertifiedFields {
  if (status === 'failed' || status === 'cancelled')
    return { certified: false, certification: { outcome: 'error', stage: null } };
  if (status !== 'succeeded') return UNCERTIFIED;
  const cascade = cascadeDetailsOf(details);
  if (!cascade) return { certified: false, certification: { outcome: 'error', stage: null } };
  if (cascade.abstained)
    return { certified: false, certification: { outcome: 'abstained', stage: cascade.abstained.stage } };
  const stage = cascade.decidedBy.stage;
  return { certified: true, certification: { outcome: stage === 0 ? 'answered' : 'escalated', stage } };
}

/** Fewest trusted items a tested threshold needs as in the authors' code (30). */
const PAPER_MIN_TRUSTED = 30;

/**
 * The fewest labelled items a calibration needs: the most of 30 and the n for which n agreeing items can pass
 * at all (agreementⁿ ≤ risk).
 */
export function minCalibrationSize(c: Certify): number {
  return Math.max(PAPER_MIN_TRUSTED, Math.ceil(Math.log(c.risk) / Math.log(c.agreement)));
}

/** One labelled calibration item: the human label and each stage's verdict (null: no verdict). */
export interface CalibrationItem {
  human: Winner;
  stages: ({ winner: Winner; confidence: number } | null)[];
}

/** A calibration: each stage's threshold (null: trusts none) and the guarantee. */
export interface Calibrated {
  thresholds: (number | null)[];
  guarantee: Guarantee;
  calibration: CascadeCalibration;
}

/**
 * Calibrates thresholds for `certify` on labelled items (each with every stage's verdict).
 * @throws RangeError when there are fewer than {@link minCalibrationSize} items (the API's 409).
 */
export function certify(items: readonly CalibrationItem[], c: Certify): Calibrated {
  const needed = minCalibrationSize(c);
  if (items.length < needed)
    throw new RangeError(`${needed} labelled items are needed, ${items.length} given: ${needed - items.length} more`);
  const calibration = calibrateCascade(items, {
    alpha: 1 - c.agreement,
    delta: c.risk,
    minTrusted: needed,
    deltaSplit: 'bonferroni',
  });
  return {
    thresholds: calibration.thresholds,
    calibration,
    guarantee: { agreement: c.agreement, risk: c.risk, coverage: calibration.coverage, calibrationSize: items.length },
  };
}

/** Whether a verdict is certified: the stage's confidence reaches its calibrated threshold. */
export function isCertified(stage: number, confidence: number | null, thresholds: readonly (number | null)[]): boolean {
  const t = thresholds[stage];
  return t !== null && t !== undefined && confidence !== null && confidence >= t;
}

/** What certified thresholds do on held-out labelled items: coverage and agreement over the answered ones. */
export function heldOutCertified(
  items: readonly CalibrationItem[],
  thresholds: readonly (number | null)[],
): { n: number; answered: number; coverage: number | null; agreement: number | null } {
  let answered = 0;
  let agreeing = 0;
  for (const it of items) {
    const d = trustOrEscalate(it.stages, thresholds);
    if (d.action !== 'trust') continue;
    answered++;
    if (d.winner === it.human) agreeing++;
  }
  return {
    n: items.length,
    answered,
    coverage: items.length === 0 ? null : answered / items.length,
    agreement: answered === 0 ? null : agreeing / answered,
  };
}
