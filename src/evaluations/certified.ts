/**
 * @module
 * Certified mode's seam (`certify: {agreement, risk}` on an evaluation, a batch or a comparison): the request
 * field, the guarantee and each item's fields as the API shows them, and the {@link CertifyJudge} that turns a
 * judge into a certified one. Its calibration (the rubric version's labelled items judged by the request's
 * judge, then Trust or Escalate's fixed-sequence test) is src/certify/, which sits above these features
 * (it reads annotation queues and runs a meta-evaluation), so src/app.ts hands it to their routes.
 */
import { z } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { invalidRequest } from '../http/errors.js';
import type { Certify, CertifiedFields, Guarantee } from '../metrics/certify.js';
import {
  CertificationSchema,
  CertifySchema,
  certificationOf,
  GuaranteeSchema,
  UNCERTIFIED,
} from '../metrics/certify.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import type { RubricFieldValue } from '../rubrics/schemas.js';
import type { EffectiveLimits } from '../tenants/limits.js';

/** The `certify` field of a request. */
export const CertifyField = CertifySchema.optional().describe(
  "Certified mode (Trust or Escalate): calibrate the judge on the labelled items of the stored `rubric` version's annotation queues " +
    "(the judge judges them once; `503 calibration_pending` while it does), then answer only where the judge's confidence reaches the calibrated threshold: " +
    'the answered verdicts agree with the labels at least `agreement` of the time with probability at least 1 − `risk`. ' +
    'Below it, a cascade judge escalates to its next stage; after the last stage (or with a plain judge) the item abstains: no winner, `certified: false`. ' +
    'Pairwise only; needs `rubric` as `rb_…`, `rb_…@n` or `rb_…#tag`; too few labels is `409 labels_needed` (`error.labelsNeeded`).',
);

/** The `guarantee` of a response: the certified mode's, or null without `certify`. */
export const GuaranteeField = z
  .union([GuaranteeSchema, z.null()])
  .describe(
    'With `certify`: the agreement and risk asked for, the coverage the calibration reached on the labelled items, and how many it calibrated on; null otherwise.',
  );

/** An item's `certified` field. */
export const CertifiedField = z
  .boolean()
  .nullable()
  .describe(
    'With `certify`, once ended: true when the verdict is certified (its stage reached its threshold); false when it abstained or failed. Null otherwise.',
  );

/** An item's `certification` field. */
export const CertificationField = z
  .union([CertificationSchema, z.null()])
  .describe('With `certify`, once ended: `answered`, `escalated` (a later cascade stage), `abstained` or `error`.');

/**
 * An item's certified-mode fields: from its status and verdict details when it was judged under `guarantee`,
 * else null fields.
 */
export function certifiedFields(guarantee: Guarantee | null, status: string, details: unknown): CertifiedFields {
  return guarantee === null ? UNCERTIFIED : certificationOf(status, details);
}

/** What {@link CertifyJudge} is asked. */
export interface CertifyAsked {
  /** The request's judge, resolved. */
  judge: ResolvedJudge;
  /** The request's `rubric`: its stored version's labelled items are the calibration set. */
  rubric: RubricFieldValue | undefined;
  certify: Certify;
  /** The creating key and the tenant's limits (the calibration run is created for them). */
  creator: { keyId: string | null; limits?: EffectiveLimits | null };
}

/** A certified judge: the judge as a calibrated cascade (trust above its thresholds, else abstain) and its guarantee. */
export interface CertifiedJudge {
  judge: ResolvedJudge;
  guarantee: Guarantee;
}

/**
 * Calibrates `asked.judge` for `asked.certify` (src/certify/service.ts).
 * @throws ApiError 400 naming `rubric` or `certify`, 409 `labels_needed`, 503 `calibration_pending`.
 */
export type CertifyJudge = (env: Bindings, tenant: string, asked: CertifyAsked) => Promise<CertifiedJudge>;

/**
 * The judge a request runs: the certified one when it asks `certify`, else `judge` itself (guarantee null).
 * @param certifyJudge the calibration (given by src/app.ts to the routes); absent on paths without certified mode.
 * @throws ApiError 400 naming `certify` (with `repeat`, or on a path without it); what {@link CertifyJudge} throws.
 */
export async function withCertify(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  request: { certify?: Certify | undefined; rubric?: RubricFieldValue | undefined; repeat?: number | undefined },
  creator: CertifyAsked['creator'],
  certifyJudge: CertifyJudge | undefined,
): Promise<{ judge: ResolvedJudge; guarantee: Guarantee | null }> {
  const { certify } = request;
  if (certify === undefined) return { judge, guarantee: null };
  if (request.repeat !== undefined)
    throw invalidRequest([
      {
        path: 'certify',
        message: 'certify and repeat cannot be combined: a certified verdict is one run of the calibrated judge',
      },
    ]);
  if (!certifyJudge) throw invalidRequest([{ path: 'certify', message: 'certified mode is not available here' }]);
  return certifyJudge(env, tenant, { judge, rubric: request.rubric, certify, creator });
}
