/**
 * @module
 * The monitors' schemas: one per concept, for validation, the OpenAPI document and the typed client. A monitor
 * judges the spans (scope `span`) or whole traces (scope `trace`) of `POST /v1/traces` that match its filter, a
 * deterministic sample of them, each as an ordinary evaluation with `source: {traceId, spanId, monitorId}`.
 */
import { z } from '@hono/zod-openapi';
import { AspectSchema } from '../engine/task.js';
import { JudgeConfigField, PresetField } from '../evaluations/schemas.js';
import { RubricField } from '../rubrics/schemas.js';
import { TierField, TierView } from '../tiers/schemas.js';
import { OneOffWebhookSchema } from '../webhooks/schemas.js';

/** Most monitors a tenant may have: 100 (every span is matched against each active one). */
export const MAX_MONITORS = 100;

/** What a span must carry to match; every given field must hold (AND). */
export const MonitorFilterSchema = z
  .object({
    attributes: z
      .record(z.string().min(1).max(256), z.union([z.string().max(1024), z.number(), z.boolean()]))
      .refine((a) => Object.keys(a).length <= 32, 'at most 32 attributes')
      .optional()
      .describe("Span attributes that must equal these values (the span's own, then its resource's)."),
    spanName: z.string().min(1).max(256).optional().describe("The span's name, exactly."),
    service: z.string().min(1).max(256).optional().describe("The resource's `service.name`, exactly."),
    model: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('The model called (`gen_ai.request.model`, else `gen_ai.response.model`, or `llm.model_name`).'),
  })
  .strict()
  .meta({
    id: 'MonitorFilter',
    description:
      'Which spans match (every given field must hold; `{}` matches all). Scope `trace`: a trace matches when any of its spans does.',
  });
/** Which spans match. */
export type MonitorFilter = z.infer<typeof MonitorFilterSchema>;

/** Span or trace. */
export const MonitorScopeSchema = z.enum(['span', 'trace']).meta({
  id: 'MonitorScope',
  description:
    '`span`: each matching model-call span with GenAI input and output, once it ended, judged as a pointwise task (its input → its output). ' +
    "`trace`: each matching trace once complete (its root span ended, then `TRACE_QUIET_MS` without a new span), built into a `trajectory` task (the user's request, model and tool calls with their span ids, errors, the final answer).",
});
/** Span or trace. */
export type MonitorScope = z.infer<typeof MonitorScopeSchema>;

/** The judge of a monitor: an evaluation's judge fields. */
export const MonitorJudgeSchema = z
  .object({
    preset: PresetField,
    config: JudgeConfigField,
    rubric: RubricField.optional(),
    aspect: AspectSchema.optional().describe(
      'Scope `span`: the aspect each span is scored on, for a judge that needs one (a pointwise task without a rubric).',
    ),
  })
  .strict()
  .meta({
    id: 'MonitorJudge',
    description:
      'The judge, as on `POST /v1/evaluations`: a preset, a config (a jury, a cascade, …) and a rubric. It must take the task the scope builds ' +
      '(pointwise for `span`, trajectory for `trace`): a pairwise preset is a 400 naming `judge.preset` (`judge.config.method` for a full config sent without a preset).',
  });
/** The judge of a monitor. */
export type MonitorJudge = z.infer<typeof MonitorJudgeSchema>;

/** The fraction of matches judged. */
const SampleRate = z
  .number()
  .min(0)
  .max(1)
  .describe(
    'Fraction of matches judged, 0-1, decided by a hash of the trace id (and span id) and the monitor id: a re-export samples the same.',
  );

/** A day's spending limit. */
const DailyBudget = z
  .number()
  .positive()
  .max(1_000_000)
  .describe(
    "USD the monitor's evaluations may spend per UTC day. Each evaluation is granted what is left (its `budget.maxCostUsd`); " +
      'when nothing is left, a match is counted `skippedBudget` instead of judged.',
  );

/** Body of `POST /v1/monitors`. */
export const CreateMonitorRequestSchema = z
  .object({
    name: z.string().min(1).max(200),
    filter: MonitorFilterSchema,
    scope: MonitorScopeSchema,
    sampleRate: SampleRate,
    judge: MonitorJudgeSchema,
    tier: TierField,
    dailyBudgetUsd: DailyBudget.optional(),
    webhook: OneOffWebhookSchema.optional(),
    paused: z.boolean().optional().describe('Created paused (default false): nothing is matched until resumed.'),
  })
  .strict()
  .meta({ id: 'CreateMonitorRequest' });
/** Body of `POST /v1/monitors`. */
export type CreateMonitorRequest = z.infer<typeof CreateMonitorRequestSchema>;

/** Body of `PATCH /v1/monitors/{id}`: the fields to change (`null` clears an optional one). */
export const UpdateMonitorRequestSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    filter: MonitorFilterSchema.optional(),
    scope: MonitorScopeSchema.optional(),
    sampleRate: SampleRate.optional(),
    judge: MonitorJudgeSchema.optional(),
    tier: z.union([TierView, z.null()]).optional(),
    dailyBudgetUsd: DailyBudget.nullable().optional(),
    webhook: z.union([OneOffWebhookSchema, z.null()]).optional(),
    paused: z
      .boolean()
      .optional()
      .describe('true pauses the monitor (spans arriving meanwhile are not matched); false resumes it.'),
  })
  .strict()
  .meta({ id: 'UpdateMonitorRequest' });
/** Body of `PATCH /v1/monitors/{id}`. */
export type UpdateMonitorRequest = z.infer<typeof UpdateMonitorRequestSchema>;

/** A monitor's counts since it was created. */
export const MonitorCountsSchema = z
  .object({
    matched: z.number().int().nonnegative().describe('Spans (scope `span`) or traces (scope `trace`) that matched.'),
    sampled: z
      .number()
      .int()
      .nonnegative()
      .describe('Matches the sample kept: an evaluation was made, or the budget skipped it.'),
    succeeded: z.number().int().nonnegative().describe('Its evaluations that succeeded.'),
    failed: z.number().int().nonnegative().describe('Its evaluations that failed or were cancelled.'),
    skippedBudget: z.number().int().nonnegative().describe('Sampled matches not judged: the daily budget was spent.'),
    skippedUnjudgeable: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'Sampled traces (scope `trace`) not judged because no trajectory can be built from them: no step (no model call, tool ' +
          'call or failed span beside the root) or no request (no input on the root nor a user message in the first model call), or ' +
          'their texts were already erased (a tenant that stores no content, the root span arriving after the quiet period). ' +
          'Each is logged at info (`monitors.trace_unjudgeable`, with its reason).',
      ),
  })
  .strict()
  .meta({ id: 'MonitorCounts' });
/** A monitor's counts. */
export type MonitorCounts = z.infer<typeof MonitorCountsSchema>;

/** A monitor as stored (the definition). */
export const MonitorDefinitionSchema = z
  .object({
    name: z.string(),
    filter: MonitorFilterSchema,
    scope: MonitorScopeSchema,
    sampleRate: z.number(),
    judge: MonitorJudgeSchema,
    tier: z.union([TierView, z.null()]),
    dailyBudgetUsd: z.number().nullable(),
    webhook: z.union([OneOffWebhookSchema, z.null()]),
  })
  .strict();
/** A monitor as stored. */
export type MonitorDefinition = z.infer<typeof MonitorDefinitionSchema>;

/** Answer to `GET /v1/monitors/{id}` (and create, update). Times are ISO 8601 UTC. */
export const MonitorSchema = z
  .object({
    id: z.string(),
    ...MonitorDefinitionSchema.shape,
    paused: z.boolean(),
    counts: MonitorCountsSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'Monitor' });
/** A monitor as the API shows it. */
export type Monitor = z.infer<typeof MonitorSchema>;

/** Answer to `GET /v1/monitors`: a page of the tenant's monitors, newest first, and the cursor to the next. */
export const MonitorListSchema = z
  .object({
    data: z.array(MonitorSchema).max(MAX_MONITORS),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last.' }),
  })
  .strict()
  .meta({ id: 'MonitorList' });

/** The path of `/v1/monitors/{id}`. */
export const MonitorParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { description: 'The monitor id (`mon_…`).' }, example: 'mon_00a1b2c3d4e5f6a78b9c0d1e2f3a4b5c' }),
});

/**
 * Query of `GET /v1/monitors`: a page, newest first. `limit` defaults to {@link MAX_MONITORS} (100), the most a
 * tenant has, so a caller that never pages gets them all, as before paging came.
 */
export const MonitorListQuery = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_MONITORS)
      .default(MAX_MONITORS)
      .openapi({
        param: { description: `Page size, 1-${MAX_MONITORS} (default ${MAX_MONITORS}: every monitor).` },
        example: 20,
      }),
    cursor: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ param: { description: "The previous page's `nextCursor`." } }),
  })
  .strict();
/** Query of `GET /v1/monitors`. */
export type MonitorListQueryInput = z.infer<typeof MonitorListQuery>;
