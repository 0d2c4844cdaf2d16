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
    /** The rubric every item is judged by, as on POST /v1/evaluations (resolved once, at submit). */
    rubric: RubricField.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
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
};

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
    createdAt: z.string(),
  })
  .strict()
  .meta({ id: 'MetaEvaluation' });
/** Answer to `GET /v1/meta-evaluations/{id}`. */
export type MetaEvaluation = z.infer<typeof MetaEvaluationSchema>;
