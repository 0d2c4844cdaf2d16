/**
 * @module
 * The API's zod schemas: one per concept, used for request validation and the OpenAPI document by the
 * route definitions (`createRoute`, ./routes/) and for the typed `hc` client. Engine schemas (task,
 * verdict, method config) and the metrics report are reused as they are, never copied.
 *
 * Schemas that appear in the OpenAPI components carry `.meta({ id })`; `examples` there are JSON Schema
 * examples (whole-body examples are on the routes, ./examples.ts).
 */
import { EvaluationStatusSchema as StatusSchema } from '../pipeline/status.js';
import { BudgetSchema } from '../budgets/schema.js';
import { z } from '@hono/zod-openapi';
import { MAX_TEXT_CHARS, TaskSchema } from '../engine/task.js';
import { TranscriptEntrySchema, VerdictSchema } from '../engine/verdict.js';
import { LabelledItemSchema } from '../meta/labelled.js';
import { AgreementReportSchema } from '../meta/metrics.js';
import { FIELD_EXAMPLES, PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE } from './examples.js';
import { configField } from './method-config.js';
import { OneOffWebhookSchema } from '../webhooks/schemas.js';

export { ErrorBodySchema } from './errors.js';

/** Most metadata entries per evaluation: 32. */
export const MAX_METADATA_KEYS = 32;
/** Longest metadata string value, in characters: 1024. */
export const MAX_METADATA_VALUE_CHARS = 1024;
/** Most labelled items per meta-evaluation: 500. */
export const MAX_META_ITEMS = 500;

/** Task (pairwise or pointwise); the engine's schema, with its per-text limits. */
export const Task = TaskSchema.meta({
  id: 'Task',
  description: `What is judged; \`kind\` selects the variant. Texts are 1-${MAX_TEXT_CHARS} characters, not only whitespace, without NUL characters.`,
  examples: [PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE],
});

/** Caller's key-value annotations, stored and echoed back; never read by the judge. */
export const MetadataSchema = z
  .record(z.string().min(1).max(64), z.union([z.string().max(MAX_METADATA_VALUE_CHARS), z.number(), z.boolean()]))
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `metadata has more than ${MAX_METADATA_KEYS} keys`)
  .meta({
    id: 'Metadata',
    maxProperties: MAX_METADATA_KEYS,
    description: `Up to ${MAX_METADATA_KEYS} keys (1-64 chars); values are strings (≤ ${MAX_METADATA_VALUE_CHARS} chars), numbers or booleans.`,
    examples: [FIELD_EXAMPLES.metadata],
  });

const presetField = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into.');

const judgeConfig = configField(
  "Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig.",
).optional();

/** Body of `POST /v1/evaluations`. Unknown fields are rejected. */
export const CreateEvaluationRequestSchema = z
  .object({
    preset: presetField,
    config: judgeConfig,
    task: Task,
    metadata: MetadataSchema.optional(),
    /** Spending limits of this evaluation (stored as `config.budget`; give it here or there, not both). */
    budget: BudgetSchema.optional(),
    webhook: OneOffWebhookSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreateEvaluationRequest' });
/** Body of `POST /v1/evaluations`. */
export type CreateEvaluationRequest = z.infer<typeof CreateEvaluationRequestSchema>;

/** Lifecycle of an evaluation; `succeeded`, `failed` and `cancelled` are final. */
export const EvaluationStatusSchema = StatusSchema.meta({ id: 'EvaluationStatus' });
/** Lifecycle of an evaluation. */
export type EvaluationStatus = z.infer<typeof EvaluationStatusSchema>;

/** Relative URLs of an evaluation's sub-resources. */
export const EvaluationLinksSchema = z
  .object({ self: z.string(), events: z.string(), transcript: z.string(), cancel: z.string() })
  .strict()
  .meta({ id: 'EvaluationLinks' });

/** Answer to `POST /v1/evaluations` (202, and the same on an idempotent replay). */
export const EvaluationAcceptedSchema = z
  .object({ id: z.string(), status: EvaluationStatusSchema, links: EvaluationLinksSchema })
  .strict()
  .meta({ id: 'EvaluationAccepted' });
/** Answer to `POST /v1/evaluations`. */
export type EvaluationAccepted = z.infer<typeof EvaluationAcceptedSchema>;

/** Calls made so far and calls planned (first attempts; repairs are not planned). */
export const ProgressSchema = z
  .object({ callsDone: z.number().int().nonnegative(), callsPlanned: z.number().int().nonnegative() })
  .strict()
  .meta({ id: 'Progress' });

/** The verdict without its transcript (fetch that from `/transcript`). */
export const VerdictSummarySchema = VerdictSchema.omit({ transcript: true }).meta({ id: 'VerdictSummary' });
/** The verdict without its transcript. */
export type VerdictSummary = z.infer<typeof VerdictSummarySchema>;

/** Usage summed over the evaluation's LLM calls (tokens are counts, cost in USD). */
export const UsageTotalsSchema = z
  .object({
    /** LLM calls billed, repairs included. */
    calls: z.number().int().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    cachedPromptTokens: z.number().int().nonnegative(),
    /** True when any call's counts were estimated locally. */
    estimated: z.boolean(),
    costUsd: z.number().nonnegative(),
  })
  .strict()
  .meta({ id: 'UsageTotals' });
/** Usage summed over an evaluation's calls. */
export type UsageTotals = z.infer<typeof UsageTotalsSchema>;

/** Why an evaluation failed or was cancelled. */
export const EvaluationErrorSchema = z
  .object({ code: z.string(), message: z.string() })
  .strict()
  .meta({ id: 'EvaluationError' });

/** Answer to `GET /v1/evaluations/{id}`. Times are ISO 8601 UTC. */
export const EvaluationSchema = z
  .object({
    id: z.string(),
    status: EvaluationStatusSchema,
    method: z.string(),
    preset: z.string().nullable(),
    taskKind: z.enum(['pairwise', 'pointwise']),
    metadata: MetadataSchema.nullable(),
    progress: ProgressSchema,
    /** Present once `succeeded`. */
    verdict: VerdictSummarySchema.nullable(),
    usage: UsageTotalsSchema,
    /** Present when `failed` or `cancelled`. */
    error: EvaluationErrorSchema.nullable(),
    /** Meta-evaluation this evaluation belongs to. */
    metaId: z.string().nullable(),
    /** Batch this evaluation is an item of (a meta-evaluation's id for its items). */
    batchId: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    links: EvaluationLinksSchema,
  })
  .strict()
  .meta({ id: 'Evaluation' });
/** Answer to `GET /v1/evaluations/{id}`. */
export type Evaluation = z.infer<typeof EvaluationSchema>;

/**
 * One stored reply of the debate, in recording order: the engine's {@link TranscriptEntrySchema} fields
 * with the call's usage (from its billing row), plus `seq`, with `parseError` null instead of absent.
 */
export const TranscriptMessageSchema = z
  .object({
    seq: z.number().int().nonnegative(),
    ...TranscriptEntrySchema.pick({
      callId: true,
      agent: true,
      label: true,
      stage: true,
      model: true,
      content: true,
      usage: true,
    }).shape,
    parseError: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'TranscriptMessage' });
/** One stored reply. */
export type TranscriptMessage = z.infer<typeof TranscriptMessageSchema>;

/** Answer to `GET /v1/evaluations/{id}/transcript`; `complete` is false until the evaluation ended. */
export const TranscriptSchema = z
  .object({
    id: z.string(),
    status: EvaluationStatusSchema,
    complete: z.boolean(),
    messages: z.array(TranscriptMessageSchema),
  })
  .strict()
  .meta({ id: 'Transcript' });

/** Answer to `GET /v1/evaluations/{id}/task`: what is judged, as submitted; null once it is no longer kept. */
export const EvaluationTaskSchema = z
  .object({ id: z.string(), task: Task.nullable() })
  .strict()
  .meta({ id: 'EvaluationTask' });

/** Optional body of `POST /v1/evaluations/{id}/cancel`. */
export const CancelRequestSchema = z
  .object({ reason: z.string().min(1).max(500).optional().describe('Why; stored with the cancellation.') })
  .strict()
  .meta({ id: 'CancelRequest', examples: [{ reason: 'superseded by a newer run' }] });

/** Answer to a cancel request. */
export const CancelResponseSchema = z
  .object({ id: z.string(), status: EvaluationStatusSchema })
  .strict()
  .meta({ id: 'CancelResponse' });

/** A preset with its config resolved against the method's defaults. */
export const PresetInfoSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    /** The paper and section it reproduces. */
    paper: z.string(),
    taskKind: z.enum(['pairwise', 'pointwise']),
    method: z.string(),
    config: configField<Record<string, unknown>>('The full config this preset runs (defaults filled).'),
  })
  .strict()
  .meta({ id: 'PresetInfo' });

/** A judge method. */
export const MethodInfoSchema = z
  .object({
    id: z.string(),
    paper: z.string(),
    taskKinds: z.array(z.enum(['pairwise', 'pointwise'])),
  })
  .strict()
  .meta({ id: 'MethodInfo' });

/** Answer to `GET /v1/methods`. */
export const MethodsResponseSchema = z
  .object({ methods: z.array(MethodInfoSchema), presets: z.array(PresetInfoSchema) })
  .strict()
  .meta({ id: 'MethodsResponse' });

export { LabelledItemSchema };
export type { LabelledItem } from '../meta/labelled.js';

/** Body of `POST /v1/meta-evaluations`: 1-500 items of one task kind with unique ids. */
export const CreateMetaEvaluationRequestSchema = z
  .object({
    preset: presetField,
    config: judgeConfig,
    items: z.array(LabelledItemSchema).min(1).max(MAX_META_ITEMS),
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

/** Answer to `GET /health`. */
export const HealthSchema = z
  .object({
    /** Always `tribunal`: lets a client (npm start) tell this service from another server on the port. */
    service: z.literal('tribunal'),
    status: z.enum(['ok', 'unavailable']),
    d1: z.enum(['ok', 'error']),
  })
  .strict()
  .meta({ id: 'Health' });
