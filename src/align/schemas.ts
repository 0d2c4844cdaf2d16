/**
 * @module
 * `POST /v1/rubrics/{id}/align`'s body and the alignment job it answers with (`GET /v1/rubrics/{id}/alignments/{alignmentId}`).
 */
import { z } from '@hono/zod-openapi';
import { QUEUE_ID } from '../annotation-queues/schemas.js';
import { RubricIdParams, TAG } from '../rubrics/schemas.js';

/** How a version is aligned (see the README, "Align a rubric to your labels"). */
export const AlignMethodSchema = z.enum(['few-shot', 'instructions', 'thresholds', 'auto']).meta({
  id: 'AlignMethod',
  description:
    "`few-shot`: the judge's most confident mistakes on the learning items become examples in the criteria; `instructions`: " +
    "the LLM writes rules into the criteria from the disagreements (both pairwise); `thresholds` (pointwise): cut-offs on the judge's score and " +
    "each aspect's that put the most learning items in their human's band, stored as the version's `thresholds` (its verdicts carry `label`); " +
    '`auto`: tries the methods that fit the rubric and keeps the best on a validation split of the learning items (never on the held-out ones).',
});
/** A method. */
export type AlignMethod = z.infer<typeof AlignMethodSchema>;

/** Smallest and largest held-out share. */
export const HOLDOUT_RANGE = { min: 0.1, max: 0.5 } as const;
/** Fewest labelled items an alignment starts with: 10. */
export const MIN_ALIGN_ITEMS = 10;
/** Most labelled items an alignment reads: 500 (the first of the queue), a meta-evaluation's limit. */
export const MAX_ALIGN_ITEMS = 500;

/** Body of `POST /v1/rubrics/{id}/align`. */
export const AlignRequestSchema = z
  .object({
    queue: z
      .string()
      .regex(QUEUE_ID, 'an annotation queue id (aq_ and 32 hex digits)')
      .describe("The annotation queue whose labels the rubric learns from (a queue over this rubric's version)."),
    method: AlignMethodSchema.default('auto').describe('How to align; default `auto`.'),
    holdout: z
      .number()
      .min(HOLDOUT_RANGE.min)
      .max(HOLDOUT_RANGE.max)
      .default(0.3)
      .describe(
        `Share of the labelled items held out (${HOLDOUT_RANGE.min}-${HOLDOUT_RANGE.max}, default 0.3): judged by both versions, learned from by neither.`,
      ),
    tag: z
      .string()
      .regex(TAG, 'a tag: 1-32 lower-case letters, digits and -')
      .default('prod')
      .describe(
        "The tag that moves to the new version when the held-out gain's interval lies above 0 (default `prod`).",
      ),
    preset: z.string().min(1).max(64).optional().describe('The judge: a preset id from GET /v1/methods.'),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Config overrides over the preset, as on POST /v1/evaluations. Default judge: the version's golden-check judge, else `fastchat-pair`.",
      ),
  })
  .strict()
  .meta({ id: 'AlignRequest', examples: [{ queue: 'aq_0123456789abcdef0123456789abcdef', method: 'few-shot' }] });
/** A parsed align body. */
export type AlignRequest = z.infer<typeof AlignRequestSchema>;

const iso = z.string().describe('ISO 8601 UTC.');

const interval = z
  .object({ lo: z.number(), hi: z.number() })
  .strict()
  .nullable()
  .describe('Bootstrap 95% interval over the held-out items; null when it cannot be computed.');
const estimate = z.object({ value: z.number().nullable(), interval }).strict();

/** The held-out agreement of the base and the aligned version. */
export const HeldOutSchema = z
  .object({
    metric: z
      .literal('kappa')
      .describe(
        "Cohen's κ against the human labels: pairwise over A/B/tie; pointwise over the scale's whole scores (the judge's bands by the " +
          "version's thresholds, else its score at the nearest whole score), the mean over the score and the aspects the humans labelled.",
      ),
    n: z.number().int().nonnegative().describe('Held-out items.'),
    base: estimate.describe('The base version.'),
    aligned: estimate.describe('The new version.'),
    gain: estimate.describe('aligned − base, its interval paired (the same resampled items for both).'),
  })
  .strict()
  .meta({ id: 'AlignHeldOut' });

/** What an alignment's tag did. */
export const AlignTagSchema = z
  .object({
    name: z.string(),
    moved: z
      .enum(['align', 'user'])
      .nullable()
      .describe(
        "`align`: the job moved it (the gain's interval lies above 0); `user`: it points at the new version, moved there by a user; null: it did not move.",
      ),
    reason: z.string().describe('Why, in words.'),
  })
  .strict();

/** An alignment job. */
export const AlignmentSchema = z
  .object({
    id: z.string(),
    status: z
      .enum(['running', 'succeeded', 'failed'])
      .describe(
        '`running` (read `links.self` again), then `succeeded` with `version` and `heldOut`, or `failed` with `error`.',
      ),
    step: z
      .enum(['judging_base', 'learning', 'validating', 'judging_held_out', 'ended'])
      .describe('Where a running job is.'),
    rubric: z.object({ id: z.string(), baseVersion: z.number().int().positive() }).strict(),
    queue: z.string(),
    method: AlignMethodSchema,
    chosenMethod: AlignMethodSchema.nullable().describe(
      'The method the version was made with (`auto`: the best on validation).',
    ),
    holdout: z.number(),
    items: z
      .object({
        labelled: z.number().int().nonnegative(),
        learn: z.number().int().nonnegative().describe('Items the methods learn from (`auto`: train and validation).'),
        validation: z.number().int().nonnegative().describe('`auto` only: items the methods are compared on.'),
        heldOut: z.number().int().nonnegative(),
      })
      .strict(),
    candidates: z
      .array(z.object({ method: AlignMethodSchema, kappa: z.number().nullable() }).strict())
      .describe(
        "`auto`: each method tried, with its κ on the validation items (a pointwise rubric's one, `thresholds`: the base version's scores there read through the learned cut-offs; null when no score has a κ).",
      ),
    version: z.number().int().positive().nullable().describe('The rubric version this job created.'),
    heldOut: z.union([HeldOutSchema, z.null()]),
    tag: AlignTagSchema.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).strict().nullable(),
    createdAt: iso,
    updatedAt: iso,
    links: z
      .object({
        self: z.string(),
        rubric: z.string(),
        version: z.string().nullable(),
        runs: z.array(z.string()).describe('The meta-evaluations that judged for this job.'),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Alignment' });
/** An alignment job as shown. */
export type Alignment = z.infer<typeof AlignmentSchema>;

/** Path parameters of an alignment. */
export const AlignmentParams = RubricIdParams.extend({
  alignmentId: z
    .string()
    .regex(/^al_[0-9a-f]{32}$/, 'an alignment id (al_ and 32 hex digits)')
    .openapi({ param: { description: 'The alignment id (`al_…`).' }, example: 'al_0123456789abcdef0123456789abcdef' }),
});
