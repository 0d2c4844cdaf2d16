/**
 * @module
 * The meta-evaluation's zod schemas (request, answer, report), for validation, the OpenAPI document and
 * the typed `hc` client. The agreement report is the metrics' own schema (src/metrics/agreement.ts).
 */
import { RubricField } from '../rubrics/schemas.js';
import { z } from '@hono/zod-openapi';
import { EvaluationStatusSchema, JudgeConfigField, PresetField } from '../evaluations/schemas.js';
import { AgreementReportSchema } from '../metrics/agreement.js';
import { LabelledItemSchema } from '../metrics/labelled.js';
import { CacheModeSchema, CacheSeedSchema } from '../verdict-cache/schemas.js';
import { FlexFallbackField, TierField, TierView } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';
import { ReliabilityReportSchema } from '../metrics/reliability.js';
import { CascadeCalibrationSchema } from '../metrics/escalate.js';

/** Most times an item is judged: 10. */
export const MAX_REPEATS = 10;

/** Most labelled items per meta-evaluation: 500. */
export const MAX_META_ITEMS = 500;

/** Body of `POST /v1/meta-evaluations`: 1-500 items of one task kind with unique ids. */
export const CreateMetaEvaluationRequestSchema = z
  .object({
    preset: PresetField,
    config: JudgeConfigField,
    items: z.array(LabelledItemSchema).min(1).max(MAX_META_ITEMS),
    cache: CacheModeSchema.optional(),
    seed: CacheSeedSchema.optional(),
    tier: TierField,
    flexFallback: FlexFallbackField,
    repeats: z
      .number()
      .int()
      .min(1)
      .max(MAX_REPEATS)
      .default(1)
      .describe(
        `Times each item is judged, 1-${MAX_REPEATS} (default 1). Above 1 (pairwise items), the answer gains a \`reliability\` report over every ` +
          'repeat: test-retest agreement, position bias, flip, tie / unparsed / inconclusive rates and agreement with the labels, with 95% CIs. ' +
          'No verdict is reused between repeats; a mock or a model sampling at a temperature answers each afresh.',
      ),
    /** The rubric every item is judged by, as on POST /v1/evaluations (resolved once, at submit). */
    rubric: RubricField.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.repeats > 1 && body.items.some((i) => i.task.kind !== 'pairwise'))
      ctx.addIssue({ code: 'custom', path: ['repeats'], message: 'repeats above 1 need pairwise items' });
    const kinds = new Set(body.items.map((i) => i.task.kind));
    if (kinds.size > 1)
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'all items must have the same task kind' });
    const seen = new Set<string>();
    body.items.forEach((item, i) => {
      if (seen.has(item.id))
        ctx.addIssue({ code: 'custom', path: ['items', i, 'id'], message: `duplicate item id "${item.id}"` });
      seen.add(item.id);
    });
  })
  .meta({ id: 'CreateMetaEvaluationRequest' });
/** Body of `POST /v1/meta-evaluations`. */
export type CreateMetaEvaluationRequest = z.infer<typeof CreateMetaEvaluationRequestSchema>;

/** Lifecycle of a meta-evaluation: `running` until every item ended, then `succeeded` (or `failed` when none succeeded). */
export const MetaStatusSchema = z.enum(['running', 'succeeded', 'failed']).meta({ id: 'MetaEvaluationStatus' });

/** Answer to `POST /v1/meta-evaluations`. */
export const MetaEvaluationAcceptedSchema = z
  .object({
    id: z.string(),
    status: MetaStatusSchema,
    itemsTotal: z.number().int().positive(),
    links: z.object({ self: z.string() }).strict(),
    warnings: WarningsField,
  })
  .strict()
  .meta({ id: 'MetaEvaluationAccepted' });

/** Per-status item counts of a meta-evaluation. */
export const MetaProgressSchema = z
  .object({
    total: z.number().int().nonnegative(),
    ended: z.number().int().nonnegative(),
    queued: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    cancelled: z.number().int().nonnegative(),
  })
  .strict()
  .meta({ id: 'MetaProgress' });
/** Per-status item counts. */
export type MetaProgress = z.infer<typeof MetaProgressSchema>;

/** Per item of a meta-evaluation: its human label and the judge's answer, so a reader can plot one against the other. */
const MetaItemOutcomeShape = {
  human: LabelledItemSchema.shape.human.describe(
    'The human label sent with the item: A, B or tie (pairwise), or a score (pointwise).',
  ),
  winner: z
    .enum(['A', 'B', 'tie'])
    .nullable()
    .describe("The judge's winner once the item succeeded (pairwise); null before, or pointwise."),
  score: z
    .number()
    .nullable()
    .describe("The judge's score once the item succeeded (pointwise); null before, or pairwise."),
  humanAspects: z
    .record(z.string(), z.number())
    .nullable()
    .describe('The human scores per aspect sent with the item (`humanAspects`); null without.'),
  aspects: z
    .record(z.string(), z.number().nullable())
    .nullable()
    .describe("The judge's score per aspect once the item succeeded (a multi-aspect judge); null otherwise."),
};

/** A cascade's calibration, documented. */
const CascadeCalibrationDocSchema = CascadeCalibrationSchema.meta({
  id: 'CascadeCalibration',
  description:
    'Trust or Escalate (Jung et al. 2024) on this labelled cascade run: per stage its confidence threshold (null: the stage trusts nothing) by ' +
    'fixed-sequence testing, the items each stage trusts and their agreement with the labels, the coverage (items some stage trusts) and ' +
    'the agreement over them, and the `guarantee` in words.',
});

/** Answer to `GET /v1/meta-evaluations/{id}`; `report` appears once every item ended. */
export const MetaEvaluationSchema = z
  .object({
    id: z.string(),
    status: MetaStatusSchema,
    preset: z.string().nullable(),
    method: z.string(),
    /** The service tier of every item. */
    tier: TierView,
    progress: MetaProgressSchema,
    report: AgreementReportSchema.meta({ id: 'AgreementReport' }).nullable(),
    /** The report as a Markdown table. */
    reportMarkdown: z.string().nullable(),
    repeats: z.number().int().positive().describe('Times each item is judged.'),
    reliability: z.union([
      ReliabilityReportSchema.meta({
        id: 'ReliabilityReport',
        description:
          "The judge's reliability over every repeat (`repeats` > 1), once every repeat ended: test-retest agreement (all repeats agree; " +
          "Krippendorff's α), position bias (how often the answer shown first wins), flip rate, tie / unparsed / inconclusive / failed rates, and " +
          'agreement of each repeat with the human label, each with a bootstrap 95% CI over items.',
      }),
      z.null(),
    ]),
    items: z.array(
      z
        .object({
          itemId: z.string(),
          evaluationId: z.string(),
          status: EvaluationStatusSchema,
          ...MetaItemOutcomeShape,
        })
        .strict(),
    ),
    calibration: CascadeCalibrationDocSchema.nullable().describe(
      'The latest Trust or Escalate calibration of this cascade run (`POST /v1/meta-evaluations/{id}/calibrate`); null before one.',
    ),
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'MetaEvaluation' });

/** Body of `POST /v1/meta-evaluations/{id}/calibrate`. */
export const CalibrateRequestSchema = z
  .object({
    alpha: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.2)
      .describe(
        'Tolerated disagreement with the human labels: the target agreement is 1 − alpha. In (0, 1); default 0.2.',
      ),
    delta: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.1)
      .describe('Risk that the guarantee fails over the calibration draw. In (0, 1); default 0.1.'),
    minTrusted: z
      .number()
      .int()
      .positive()
      .default(30)
      .describe('Fewest items a tested threshold must trust (30, as the authors’ code); fewer cannot pass the test.'),
    deltaSplit: z
      .enum(['per-stage', 'bonferroni'])
      .default('per-stage')
      .describe(
        '`per-stage` (the paper): δ at every stage; `bonferroni`: δ/k per stage, so the whole cascade holds at 1 − δ.',
      ),
  })
  .strict()
  .meta({ id: 'CalibrateRequest' });
/** Body of `POST /v1/meta-evaluations/{id}/calibrate`. */
export type CalibrateRequest = z.infer<typeof CalibrateRequestSchema>;

/** Answer to `POST /v1/meta-evaluations/{id}/calibrate`. */
export const CalibrateResultSchema = z
  .object({
    calibration: CascadeCalibrationDocSchema,
    config: z
      .record(z.string(), z.unknown())
      .describe(
        "The run's cascade config with `calibrated.thresholds` set (and `runAllStages` off): pass it as `config` to judge with the " +
          'calibrated cascade, which abstains (no winner, `details.cascade.abstained`) on items below every threshold.',
      ),
  })
  .strict()
  .meta({ id: 'CalibrateResult' });
/** Answer to `POST /v1/meta-evaluations/{id}/calibrate`. */
export type CalibrateResult = z.infer<typeof CalibrateResultSchema>;
/** Answer to `GET /v1/meta-evaluations/{id}`. */
export type MetaEvaluation = z.infer<typeof MetaEvaluationSchema>;
