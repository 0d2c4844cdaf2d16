/**
 * @module
 * The evaluation's zod schemas: one per concept, used for request validation and the OpenAPI document by
 * the route definitions (`createRoute`, ./routes.ts) and for the typed `hc` client. Engine schemas (task,
 * verdict, method config) and the metrics report are reused as they are, never copied.
 *
 * Schemas that appear in the OpenAPI components carry `.meta({ id })`; `examples` there are JSON Schema
 * examples (whole-body examples are on the routes, ./examples.ts).
 */
import { EvaluationStatusSchema as StatusSchema } from './status.js';
import { BudgetSchema } from '../engine/budget.js';
import { z } from '@hono/zod-openapi';
import { MAX_TEXT_CHARS, TaskSchema } from '../engine/task.js';
import { TranscriptEntrySchema, VerdictSchema } from '../engine/verdict.js';
import { FIELD_EXAMPLES, PAIRWISE_TASK_EXAMPLE, POINTWISE_TASK_EXAMPLE } from './examples.js';
import { configField } from '../methods/method-config.js';
import { OneOffWebhookSchema } from '../webhooks/schemas.js';
import { CacheModeSchema, CacheSeedSchema, EvaluationCacheSchema } from '../verdict-cache/schemas.js';
import { FlexFallbackField, FlexFallbackView, TierField, TierView } from '../tiers/schemas.js';
import { WarningsField } from '../http/warnings.js';
import { RubricField } from '../rubrics/schemas.js';
import { REPEAT_MAX, REPEAT_MIN } from '../engine/methods/repeat/index.js';
import { StabilitySchema } from '../metrics/stability.js';
import { CertificationField, CertifiedField, CertifyField, GuaranteeField } from './certified.js';
import { SourceField, SourceRequestSchema } from './source.js';

/** The id of a batch (`ba_…`), meta-evaluation (`me_…`) or comparison (`cp_…`): what an evaluation's `batchId` holds. */
export const BATCH_ID_FILTER = /^(?:ba|me|cp)_[0-9a-f]{32}$/;

/** Most metadata entries per evaluation: 32. */
export const MAX_METADATA_KEYS = 32;
/** Longest metadata string value, in characters: 1024. */
export const MAX_METADATA_VALUE_CHARS = 1024;

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

/** The `preset` field of a request naming a judge. */
export const PresetField = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('Preset id from GET /v1/methods. Its config is the base the `config` overrides merge into.');

/** The `config` field of a request naming a judge. */
export const JudgeConfigField = configField(
  "Overrides deep-merged over the preset's config (objects merge, arrays and scalars replace), or a full config with `method` when no preset is given. The result must satisfy MethodConfig.",
).optional();

/** The `repeat` field: judge each task N times (2-10) and report the stability of the verdicts. */
export const RepeatField = z
  .number()
  .int()
  .min(REPEAT_MIN)
  .max(REPEAT_MAX)
  .optional()
  .describe(
    `Judge each task N times (${REPEAT_MIN}-${REPEAT_MAX}): N separate runs of the judge, each its own stored LLM calls, never answered by the verdict cache. ` +
      "The verdict is the runs' majority (pointwise: their mean score) and `stability` reports how far they agree. A failed call fails the evaluation: an error, never a verdict.",
  );

/** Body of `POST /v1/evaluations`. Unknown fields are rejected. */
export const CreateEvaluationRequestSchema = z
  .object({
    preset: PresetField,
    config: JudgeConfigField,
    task: Task,
    metadata: MetadataSchema.optional(),
    /** Spending limits of this evaluation (stored as `config.budget`; give it here or there, not both). */
    budget: BudgetSchema.optional(),
    webhook: OneOffWebhookSchema.optional(),
    cache: CacheModeSchema.optional(),
    seed: CacheSeedSchema.optional(),
    tier: TierField,
    flexFallback: FlexFallbackField,
    /** Your own criteria: a stored rubric (`rb_…`, `rb_…@3`, `rb_…#prod`) or an inline one. */
    rubric: RubricField.optional(),
    repeat: RepeatField,
    certify: CertifyField,
    source: z.union([SourceRequestSchema, z.null()]).optional(),
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
  .object({ id: z.string(), status: EvaluationStatusSchema, links: EvaluationLinksSchema, warnings: WarningsField })
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

/** The keys every verdict the pipeline writes has (the schema's required ones, `details` defaulted). */
const STORED_VERDICT_KEYS = [
  'method',
  'taskKind',
  'votes',
  'confidence',
  'positionFlip',
  'unparsed',
  'calls',
  'usage',
] as const;

/**
 * A verdict as the pipeline stored it (its own JSON, written from {@link VerdictSummarySchema}'s type), read
 * without a zod pass when it has every required key: that parse was the largest zod share of the Worker's CPU
 * per verdict (`npm run bench:profile`), and zod stays where callers' input comes in. A transcript kept in
 * older rows is dropped, and `details` gets the schema's default. A row without them goes through the schema
 * as before; null when it does not parse.
 */
export function storedVerdictSummary(stored: unknown): VerdictSummary | null {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const { transcript: _kept, ...rest } = stored as Record<string, unknown>;
  if (STORED_VERDICT_KEYS.some((k) => rest[k] === undefined)) {
    const parsed = VerdictSummarySchema.safeParse(rest);
    return parsed.success ? parsed.data : null;
  }
  // Typed as stored: rows older than `details` may lack it.
  const read = rest as Omit<VerdictSummary, 'details'> & { details?: VerdictSummary['details'] };
  return { ...read, details: read.details ?? {} };
}

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
    cacheSavedUsd: z
      .number()
      .nonnegative()
      .describe("USD the provider's prompt cache saved: cached prompt tokens × (input − cached input price)."),
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

/** What an evaluation judged by: the rubric's content hash, and the stored rubric and version when it named one. */
export const RubricStampSchema = z
  .object({
    /** The rubric (`rb_…`); absent for an inline rubric. */
    id: z.string().optional(),
    /** The version it resolved to (a tag or `rb_…` alone resolve when the evaluation is created). */
    version: z.number().int().positive().optional(),
    /** sha-256 hex of the canonical content the judge used. */
    hash: z.string(),
  })
  .strict()
  .meta({ id: 'RubricStamp' });

/** Answer to `GET /v1/evaluations/{id}`. Times are ISO 8601 UTC. */
export const EvaluationSchema = z
  .object({
    id: z.string(),
    status: EvaluationStatusSchema,
    method: z.string(),
    preset: z.string().nullable(),
    taskKind: z.enum(['pairwise', 'pointwise', 'trajectory']),
    metadata: z.union([MetadataSchema, z.null()]),
    progress: ProgressSchema,
    /** Present once `succeeded`. */
    verdict: z.union([VerdictSummarySchema, z.null()]),
    usage: UsageTotalsSchema,
    cache: EvaluationCacheSchema,
    /** Present when `failed` or `cancelled`. */
    error: z.union([EvaluationErrorSchema, z.null()]),
    /** Meta-evaluation this evaluation belongs to. */
    metaId: z.string().nullable(),
    /** Batch this evaluation is an item of (a meta-evaluation's id for its items). */
    batchId: z.string().nullable(),
    /** The service tier it runs at (the request's, or a default), and what a flex refusal leads to. */
    tier: TierView,
    flexFallback: FlexFallbackView,
    /** The rubric it judged by, or null. */
    rubric: z.union([RubricStampSchema, z.null()]),
    /** With `repeat`: how far the runs agree, once it succeeded; null otherwise. */
    stability: z.union([StabilitySchema, z.null()]),
    guarantee: GuaranteeField,
    certified: CertifiedField,
    certification: CertificationField,
    source: SourceField,
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    links: EvaluationLinksSchema,
    /** Only on the `Prefer: wait` answer to the creating request. */
    warnings: WarningsField,
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
  .object({ id: z.string(), task: z.union([Task, z.null()]) })
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
