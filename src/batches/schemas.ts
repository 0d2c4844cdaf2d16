/**
 * @module
 * The batch API's zod schemas (request, answers, result lines, queries): one per concept, used by the
 * route definitions (src/batches/routes.ts) for validation, the OpenAPI document and the typed client.
 * The judge fields, the task and metadata are the evaluation API's own schemas, reused as they are.
 */
import { z } from '@hono/zod-openapi';
import { PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE } from '../evaluations/examples.js';
import {
  CreateEvaluationRequestSchema,
  EvaluationErrorSchema,
  RepeatField,
  RubricStampSchema,
  EvaluationStatusSchema,
  MetadataSchema,
  Task,
  UsageTotalsSchema,
  VerdictSummarySchema,
} from '../evaluations/schemas.js';
import { BudgetSchema } from '../engine/budget.js';
import { CertificationField, CertifiedField, CertifyField, GuaranteeField } from '../evaluations/certified.js';
import { StabilitySchema, StabilitySummarySchema } from '../metrics/stability.js';
import { OneOffWebhookSchema } from '../webhooks/schemas.js';
import { BatchCacheSchema } from '../verdict-cache/schemas.js';
import { FlexFallbackField, FlexFallbackView, TierField, TierView } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';

/** Most items per batch: 10,000. */
export const MAX_BATCH_ITEMS = 10_000;

/** One item of a batch: a task, optionally the caller's id for it and metadata stored with its evaluation. */
export const BatchItemSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('Your id for the item (unique in the batch); results carry it back.'),
    task: Task,
    metadata: MetadataSchema.optional(),
    /**
     * This item's rubric, instead of the batch's `rubric` (same forms: `rb_…`, `@n`, `#tag`, inline; resolved
     * at submit). Default: the batch's.
     */
    rubric: CreateEvaluationRequestSchema.shape.rubric,
  })
  .strict()
  .meta({ id: 'BatchItem' });

/**
 * Where the batch's events also go (`webhook.url`): the webhooks concern's one-off target, so the same
 * guard and signing secret apply. For a batch the event is `batch.completed`.
 */
export const WebhookTargetSchema = OneOffWebhookSchema;

/** Body of `POST /v1/batches` (the NDJSON form carries the same fields: see the route). */
export const CreateBatchRequestSchema = z
  .object({
    preset: CreateEvaluationRequestSchema.shape.preset,
    config: CreateEvaluationRequestSchema.shape.config,
    items: z.array(BatchItemSchema).min(1).max(MAX_BATCH_ITEMS),
    /** One rubric for every item (resolved once, at submit: a tag moving later does not change the batch). */
    rubric: CreateEvaluationRequestSchema.shape.rubric,
    webhook: WebhookTargetSchema.optional(),
    cache: CreateEvaluationRequestSchema.shape.cache,
    seed: CreateEvaluationRequestSchema.shape.seed,
    budget: BudgetSchema.optional().describe(
      'Spending limits of the whole batch. Checked at submit against the estimate (`POST /v1/estimates`): 400 naming `budget.<limit>` when even the cheapest ' +
        'run of every item cannot fit. While it runs, each item is launched with a share of what is left as its own budget (enforced call by call); ' +
        'once nothing is left, items not launched end `failed` with `budget_exceeded`. Per-item limits go in `config.budget` instead.',
    ),
    tier: TierField.describe(
      "The service tier of every item (absent: the tenant's default, else the providers' default, else `standard`). " +
        "At `batch` the items run all at once and their ready calls go to the provider's Batch API in waves: every ready call of every item " +
        'for one provider and model in one provider batch; when its results are in, the next ready calls form the next wave. ' +
        'A tier a provider of the judge does not offer is a 400 `tier_unsupported` naming the provider.',
    ),
    flexFallback: FlexFallbackField,
    repeat: RepeatField,
    certify: CertifyField,
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Map<string, number>();
    body.items.forEach((item, i) => {
      if (item.id === undefined) return;
      const first = seen.get(item.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'id'],
          message: `duplicate item id "${item.id}" (also items.${first}.id)`,
        });
      else seen.set(item.id, i);
    });
  })
  .meta({ id: 'CreateBatchRequest' });
/** Body of `POST /v1/batches`. */
export type CreateBatchRequest = z.infer<typeof CreateBatchRequestSchema>;

/**
 * `batch`; `meta_evaluation` for a labelled batch made by `POST /v1/meta-evaluations`; `comparison` for the
 * pairwise evaluations of `POST /v1/comparisons`.
 */
export const BatchKindSchema = z.enum(['batch', 'meta_evaluation', 'comparison']).meta({ id: 'BatchKind' });
/** Kind of a batch. */
export type BatchKind = z.infer<typeof BatchKindSchema>;

/** Lifecycle of a batch. */
export const BatchStatusSchema = z
  .enum(['running', 'cancelling', 'completed', 'cancelled'])
  .describe(
    '`running` → `completed` once every item ended; after a cancel `cancelling` → `cancelled` once every item ended.',
  )
  .meta({ id: 'BatchStatus' });
/** Lifecycle of a batch. */
export type BatchStatus = z.infer<typeof BatchStatusSchema>;

/** Relative URLs of a batch's sub-resources. */
export const BatchLinksSchema = z
  .object({ self: z.string(), results: z.string(), cancel: z.string() })
  .strict()
  .meta({ id: 'BatchLinks' });

/** Answer to `POST /v1/batches` (202, and the same on an idempotent replay). */
export const BatchAcceptedSchema = z
  .object({
    id: z.string(),
    kind: BatchKindSchema,
    status: BatchStatusSchema,
    itemsTotal: z.number().int().positive(),
    links: BatchLinksSchema,
    warnings: WarningsField,
  })
  .strict()
  .meta({ id: 'BatchAccepted' });
/** Answer to `POST /v1/batches`. */
export type BatchAccepted = z.infer<typeof BatchAcceptedSchema>;

/** Items by status. `pending` = not ended yet (queued or running). */
export const BatchCountsSchema = z
  .object({
    total: z.number().int().nonnegative(),
    pending: z.number().int().nonnegative(),
    ended: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    cancelled: z.number().int().nonnegative(),
  })
  .strict()
  .meta({ id: 'BatchCounts' });
/** Items by status. */
export type BatchCounts = z.infer<typeof BatchCountsSchema>;

/** Verdicts of the batch's succeeded items so far; rates and mean are null without a verdict to count. */
export const BatchVerdictStatsSchema = z
  .object({
    verdicts: z.number().int().nonnegative(),
    winsA: z.number().int().nonnegative(),
    winsB: z.number().int().nonnegative(),
    ties: z.number().int().nonnegative(),
    /** winsA / (winsA + winsB + ties): pairwise verdicts only. */
    winRateA: z.number().min(0).max(1).nullable(),
    winRateB: z.number().min(0).max(1).nullable(),
    tieRate: z.number().min(0).max(1).nullable(),
    /** Mean pointwise score. */
    meanScore: z.number().nullable(),
    /** With a rubric's aspects: each aspect's mean score over the verdicts that scored it, in the rubric's order; else empty. */
    aspects: z.array(
      z
        .object({
          name: z.string(),
          meanScore: z.number().nullable(),
          verdicts: z.number().int().nonnegative(),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'BatchVerdictStats' });
/** Verdict statistics of a batch. */
export type BatchVerdictStats = z.infer<typeof BatchVerdictStatsSchema>;

const iso = z.string().describe('ISO 8601 UTC.');

/** A batch in a list: no aggregates over its items. */
export const BatchSummarySchema = z
  .object({
    id: z.string(),
    kind: BatchKindSchema,
    status: BatchStatusSchema,
    method: z.string(),
    preset: z.string().nullable(),
    /** The service tier of every item, and what a flex refusal leads to. */
    tier: TierView,
    flexFallback: FlexFallbackView,
    counts: BatchCountsSchema,
    createdAt: iso,
    completedAt: iso.nullable(),
    cancelRequestedAt: iso.nullable(),
    links: BatchLinksSchema,
  })
  .strict()
  .meta({ id: 'BatchSummary' });
/** A batch in a list. */
export type BatchSummary = z.infer<typeof BatchSummarySchema>;

/** Answer to `GET /v1/batches/{id}`: counts, verdict statistics and usage over every item. */
export const BatchSchema = BatchSummarySchema.extend({
  /** (A union: `.nullable()` on a component gives `allOf: [$ref, {type: [object, null]}]`, which refuses null.) */
  webhook: z.union([WebhookTargetSchema, z.null()]),
  /** The batch's budget as given, or null. */
  budget: z.union([BudgetSchema, z.null()]),
  /** When the budget was used up: items not launched by then end `failed` (`budget_exceeded`). */
  budgetExhaustedAt: iso.nullable(),
  verdicts: BatchVerdictStatsSchema,
  /** Every LLM call billed for the batch's items (from the per-call usage rows, the billing record). */
  usage: UsageTotalsSchema,
  /** The verdict cache's hits among the items, which `usage` does not count (they made no call). */
  cache: BatchCacheSchema,
  /** With `repeat`: the stability over every item (failed items counted as `errors`); null otherwise. */
  stability: z.union([StabilitySummarySchema, z.null()]),
  guarantee: GuaranteeField,
})
  .strict()
  .meta({ id: 'Batch' });
/** Answer to `GET /v1/batches/{id}`. */
export type Batch = z.infer<typeof BatchSchema>;

/** Answer to `GET /v1/batches`. */
export const BatchListSchema = z
  .object({
    data: z.array(BatchSummarySchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
  })
  .strict()
  .meta({ id: 'BatchList' });

/** One line of `GET /v1/batches/{id}/results`: one item, in request order. */
export const BatchResultLineSchema = z
  .object({
    index: z.number().int().nonnegative().describe('0-based position of the item in the request.'),
    itemId: z.string().nullable().describe("The item's `id` as sent, or null."),
    evaluationId: z.string(),
    status: EvaluationStatusSchema,
    /** True after `DELETE /v1/evaluations/{id}`: verdict, metadata and error are erased. */
    deleted: z.boolean(),
    metadata: z.union([MetadataSchema, z.null()]),
    verdict: z.union([VerdictSummarySchema, z.null()]),
    error: z.union([EvaluationErrorSchema, z.null()]),
    /** The rubric the item judged by (`{id?, version?, hash}`), or null. */
    rubric: z.union([RubricStampSchema, z.null()]),
    /** With `repeat`: how far the item's runs agree, once it succeeded; null otherwise. */
    stability: z.union([StabilitySchema, z.null()]),
    certified: CertifiedField,
    certification: CertificationField,
  })
  .strict()
  .meta({ id: 'BatchResultLine' });
/** One line of the results. */
export type BatchResultLine = z.infer<typeof BatchResultLineSchema>;

/** Most result lines per page: 1,000 (default 100). */
export const MAX_RESULTS_PAGE = 1_000;
/** Most batches per list page: 100 (default 20). */
export const MAX_BATCHES_PAGE = 100;

/** The `cursor` query parameter of a paged read. */
export const CursorParam = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .openapi({ param: { description: 'The `nextCursor` of the previous page (opaque). Absent: the first page.' } });

/** A `limit` query parameter: 1-`max`, default `def`; `what` says what a page holds (e.g. `Lines per page`). */
export function limitParam(max: number, def: number, what: string) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(def)
    .openapi({ param: { description: `${what}, 1-${max} (default ${def}).` } });
}

/** Query of `GET /v1/batches/{id}/results`. */
export const BatchResultsQuery = z
  .object({
    cursor: CursorParam,
    limit: limitParam(MAX_RESULTS_PAGE, 100, 'Lines per page'),
  })
  .strict();

/** Query of `GET /v1/batches`. */
export const BatchListQuery = z
  .object({
    cursor: CursorParam,
    limit: limitParam(MAX_BATCHES_PAGE, 20, 'Batches per page, newest first'),
    kind: BatchKindSchema.optional().openapi({ param: { description: 'Only batches of this kind.' } }),
  })
  .strict();

/** Path of `/v1/batches/{id}…`. */
export const BatchIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({
      param: { description: "Batch id (`ba_…`, a meta-evaluation's `me_…` or a comparison's `cp_…`)." },
      example: 'ba_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b',
    }),
});

/** Named examples of `POST /v1/batches` bodies. */
export const CREATE_BATCH_EXAMPLES = {
  pairwise: {
    summary: 'Pairwise items, one judge call each',
    description:
      'Three answers pairs judged by the single-judge MT-Bench setting; item ids and metadata come back with the results.',
    value: {
      preset: 'fastchat-pair',
      items: [
        { id: 'q1', task: PAIRWISE_TASK_EXAMPLE, metadata: { run: 'nightly-42' } },
        {
          id: 'q2',
          task: {
            ...PAIRWISE_TASK_EXAMPLE,
            answerA: 'Canberra.',
            answerB: 'It is Canberra, chosen as a compromise between Sydney and Melbourne.',
          },
        },
      ],
    },
  },
  pointwise: {
    summary: 'Pointwise items with a completion webhook',
    description: 'Summaries scored by G-Eval; the signed `batch.completed` event also goes to `webhook.url`.',
    value: {
      preset: 'geval-summeval',
      items: [{ task: POINTWISE_TASK_EXAMPLE }],
      webhook: { url: 'https://ci.example.com/hooks/tribunal' },
    },
  },
} satisfies Record<string, { summary: string; description: string; value: z.input<typeof CreateBatchRequestSchema> }>;
