/**
 * @module
 * The wire format of `/v1/evals/{eval_id}/runs` and their output items, as the `openai` SDK types them
 * (`resources/evals/runs/runs.d.ts`, `output-items.d.ts`).
 */
import { z } from '@hono/zod-openapi';
import { WarningsField } from '../http/warnings.js';
import { TierView } from '../tiers/schemas.js';
import { CacheModeSchema } from '../verdict-cache/schemas.js';
import { CertificationSchema, CertifySchema, GuaranteeSchema } from '../metrics/certify.js';
import { GraderMessageSchema } from './grader-schemas.js';
import { GRADER_ERROR_KINDS } from './graders.js';
import { EvalMetadataSchema, listOf, ListQuerySchema } from './schemas.js';

/** Most items one run takes inline. */
export const MAX_RUN_ITEMS = 1000;

/** One line of a JSONL source: the item, and optionally a sample already made. */
export const SourceLineSchema = z
  .object({
    item: z.record(z.string(), z.unknown()),
    sample: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi('EvalSourceLine');

/** Where a run's items come from: inline (`file_content`) or an uploaded file (`file_id`). */
const SourceSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('file_content'), content: z.array(SourceLineSchema).min(1).max(MAX_RUN_ITEMS) })
      .strict(),
    z.object({ type: z.literal('file_id'), id: z.string().max(128) }).strict(),
    z.object({ type: z.literal('stored_completions') }).loose(),
  ])
  .openapi('EvalRunSource');

/** `jsonl`: the items (and their samples) as given. */
export const JsonlDataSourceSchema = z
  .object({ type: z.literal('jsonl'), source: SourceSchema })
  .strict()
  .openapi('CreateEvalJSONLRunDataSource');

/** How a sampler's prompt is given: a template rendered on each item, or the messages an item field holds. */
const InputMessagesSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('template'), template: z.array(GraderMessageSchema).min(1).max(32) }).strict(),
  z.object({ type: z.literal('item_reference'), item_reference: z.string() }).strict(),
]);

const TextFormat = z.object({ type: z.literal('text') }).strict();
const JsonObjectFormat = z.object({ type: z.literal('json_object') }).strict();
/** A JSON schema format's fields (chat completions nest them under `json_schema`, Responses do not). */
const JsonSchemaFields = {
  name: z.string().min(1).max(64),
  schema: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullable().optional(),
  description: z.string().max(4096).optional(),
};

/**
 * The parameters both samplers share (OpenAI's defaults: temperature 1, top_p 1, seed 42, 2048 tokens).
 * `tools` is typed by the SDK but a sample here is the reply's text: a non-empty list is a 400 naming it.
 */
const SamplingFields = {
  max_completion_tokens: z.number().int().positive().max(100_000).optional(),
  seed: z.number().int().optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullable().optional(),
  tools: z
    .array(z.unknown())
    .max(0, { error: 'tool calls are not sampled here (a sample is the reply text): leave tools out' })
    .optional(),
};

/** A `completions` sampler's parameters, as the SDK types them; an unknown field is a 400 naming it. */
const CompletionsSamplingParamsSchema = z
  .object({
    ...SamplingFields,
    response_format: z
      .discriminatedUnion('type', [
        TextFormat,
        JsonObjectFormat,
        z.object({ type: z.literal('json_schema'), json_schema: z.object(JsonSchemaFields).strict() }).strict(),
      ])
      .optional(),
  })
  .strict()
  .openapi('EvalCompletionsSamplingParams');

/**
 * A `responses` sampler's parameters, as the SDK types them; an unknown field is a 400 naming it. Sent through
 * the Responses API, `seed` is not (it takes none); through chat completions it is.
 */
const ResponsesSamplingParamsSchema = z
  .object({
    ...SamplingFields,
    text: z
      .object({
        format: z
          .discriminatedUnion('type', [
            TextFormat,
            JsonObjectFormat,
            z.object({ type: z.literal('json_schema'), ...JsonSchemaFields }).strict(),
          ])
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('EvalResponsesSamplingParams');

/** `completions`: sample `model` on each item from `input_messages`, then grade. */
export const CompletionsDataSourceSchema = z
  .object({
    type: z.literal('completions'),
    source: SourceSchema,
    model: z.string().min(1).max(512).optional(),
    input_messages: InputMessagesSchema.optional(),
    sampling_params: CompletionsSamplingParamsSchema.optional(),
  })
  .strict()
  .openapi('CreateEvalCompletionsRunDataSource');

/**
 * `responses`: sample `model` on each item from `input_messages`, then grade, as `completions` does, through
 * the provider's Responses API where it speaks it (`LLM_SUPPORTS_RESPONSES`), else its chat completions. A
 * `responses` source (OpenAI's stored responses) is refused with what to send instead.
 */
const ResponsesDataSourceSchema = z
  .object({
    type: z.literal('responses'),
    source: z
      .discriminatedUnion('type', [
        z
          .object({ type: z.literal('file_content'), content: z.array(SourceLineSchema).min(1).max(MAX_RUN_ITEMS) })
          .strict(),
        z.object({ type: z.literal('file_id'), id: z.string().max(128) }).strict(),
        z.object({ type: z.literal('responses') }).loose(),
      ])
      .openapi('EvalResponsesRunSource'),
    model: z.string().min(1).max(512).optional(),
    input_messages: InputMessagesSchema.optional(),
    sampling_params: ResponsesSamplingParamsSchema.optional(),
  })
  .strict()
  .openapi('CreateEvalResponsesRunDataSource');

/** A run's data source. */
export const RunDataSourceSchema = z.discriminatedUnion('type', [
  JsonlDataSourceSchema,
  CompletionsDataSourceSchema,
  ResponsesDataSourceSchema,
]);
/** See {@link RunDataSourceSchema}. */
export type RunDataSource = z.infer<typeof RunDataSourceSchema>;

/** `POST /v1/evals/{eval_id}/runs`. */
export const CreateRunRequestSchema = z
  .object({
    data_source: RunDataSourceSchema,
    name: z.string().max(256).optional(),
    metadata: z.union([EvalMetadataSchema, z.null()]).optional(),
    service_tier: TierView.optional().describe(
      "Tribunal's: the service tier of the run's model calls (the sampler's and the model graders'). Absent: the tenant's " +
        "default, else the providers' default, else `standard`. A tier the deployment's provider does not offer is a 400 " +
        "`tier_unsupported` naming `service_tier`. At `batch` the calls go through the provider's Batch API in waves, and " +
        "the run ends in the provider's turnaround.",
    ),
    cache: CacheModeSchema.optional().describe(
      "Tribunal's: the verdict cache for the run's model graders. `use` (default): a grader call this tenant made before " +
        'with the same model, messages and parameters, at most VERDICT_CACHE_TTL_DAYS old, is answered from the cache (no ' +
        'LLM call, $0); else its answer is cached. `refresh`: called anew, and the answer replaces the cached one. `off`: ' +
        'neither. Unset, a grader sampling above temperature 0 bypasses the cache. Samples are never cached.',
    ),
    certify: CertifySchema.optional().describe(
      "Tribunal's: certified mode (Trust or Escalate) for the eval's Tribunal judge graders. Each model grader must be a judge " +
        '(`tribunal/<preset>`) whose task names a stored pairwise rubric (`"rubric": "rb_…#tag"`; else a 400 naming `certify`); ' +
        "it is calibrated on the rubric version's labelled items when the run is created (`503 calibration_pending` while " +
        'the judge judges them, nothing created: send it again; too few labels is `409 labels_needed` with `error.labelsNeeded`). ' +
        'Its verdicts are then answered only where the calibrated threshold holds: each result carries `certified`, and an ' +
        'item whose judge abstained is `errored`. `string_check` and `text_similarity` graders are exact and run as they are.',
    ),
  })
  .strict()
  .openapi('CreateEvalRunRequest');
/** See {@link CreateRunRequestSchema}. */
export type CreateRunRequest = z.infer<typeof CreateRunRequestSchema>;

const ErrorSchema = z.object({ code: z.string(), message: z.string() }).openapi('EvalAPIError');

/** A run's status. */
export const RunStatusSchema = z.enum(['queued', 'in_progress', 'completed', 'canceled', 'failed']);

/** A run. */
export const RunSchema = z
  .object({
    object: z.literal('eval.run'),
    id: z.string(),
    eval_id: z.string(),
    name: z.string(),
    status: RunStatusSchema,
    created_at: z.number().int(),
    model: z.string().nullable(),
    data_source: z.record(z.string(), z.unknown()),
    metadata: z.union([EvalMetadataSchema, z.null()]),
    error: z.union([ErrorSchema, z.null()]),
    report_url: z.string().openapi({ description: "The viewer's page of the run." }),
    service_tier: TierView,
    cache: z
      .object({
        mode: z
          .enum(['use', 'refresh', 'off', 'bypass'])
          .describe("The request's `cache`, or `bypass` (unset, and a model grader samples above temperature 0)."),
        hits: z.number().int().nonnegative().describe('Model grader calls answered from the cache: no LLM call, $0.'),
        saved_usd: z
          .number()
          .nonnegative()
          .describe('What those calls had cost when they were made (USD): saved by this run.'),
      })
      .strict()
      .openapi('EvalRunCache', { description: "Tribunal's verdict cache in this run (see `cache` at create)." }),
    warnings: WarningsField,
    guarantee: z
      .union([GuaranteeSchema, z.record(z.string(), GuaranteeSchema), z.null()])
      .describe(
        "Tribunal's: with `certify`, the guarantee of the certified judge grader (agreement and risk asked, the coverage the " +
          'calibration reached, how many labelled items it calibrated on), or each one by grader name when several are; ' +
          'null otherwise.',
      ),
    result_counts: z.object({
      total: z.number().int(),
      passed: z.number().int(),
      failed: z.number().int(),
      errored: z.number().int(),
    }),
    per_testing_criteria_results: z.array(
      z.object({ testing_criteria: z.string(), passed: z.number().int(), failed: z.number().int() }),
    ),
    per_model_usage: z.array(
      z.object({
        model_name: z.string(),
        invocation_count: z.number().int(),
        prompt_tokens: z.number().int(),
        completion_tokens: z.number().int(),
        total_tokens: z.number().int(),
        cached_tokens: z.number().int(),
      }),
    ),
  })
  .openapi('EvalRun');
/** See {@link RunSchema}. */
export type Run = z.infer<typeof RunSchema>;

/** `GET /v1/evals/{eval_id}/runs`. */
export const RunListSchema = listOf(RunSchema, 'EvalRunList');

/** Its query: OpenAI's list parameters and a `status` filter. */
export const RunListQuerySchema = ListQuerySchema.extend({ status: RunStatusSchema.optional() }).strict();

/** `DELETE /v1/evals/{eval_id}/runs/{run_id}`. */
export const RunDeletedSchema = z
  .object({ object: z.literal('eval.run.deleted'), deleted: z.literal(true), run_id: z.string() })
  .openapi('EvalRunDeleted');

/** `{eval_id}/runs/{run_id}`. */
export const RunIdParams = z.object({
  eval_id: z
    .string()
    .max(128)
    .openapi({ param: { name: 'eval_id', in: 'path' } }),
  run_id: z
    .string()
    .max(128)
    .openapi({ param: { name: 'run_id', in: 'path' }, example: 'evalrun_7f3kq2m9x4c8b1n5' }),
});

/** `…/output_items/{output_item_id}`. */
export const OutputItemIdParams = RunIdParams.extend({
  output_item_id: z
    .string()
    .max(200)
    .openapi({ param: { name: 'output_item_id', in: 'path' } }),
});

const Usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cached_tokens: z.number().int(),
});

/** One graded item. */
export const OutputItemSchema = z
  .object({
    object: z.literal('eval.run.output_item'),
    id: z.string(),
    run_id: z.string(),
    eval_id: z.string(),
    created_at: z.number().int(),
    status: z.enum(['pass', 'fail', 'error']),
    datasource_item_id: z.number().int(),
    datasource_item: z.record(z.string(), z.unknown()),
    results: z.array(
      z
        .object({
          name: z.string(),
          type: z.string(),
          score: z.number(),
          passed: z.boolean(),
          sample: z.record(z.string(), z.unknown()).nullable(),
          certified: z
            .boolean()
            .optional()
            .describe(
              "Tribunal's, in a certified run, on a judge grader's result: true when its verdict is certified (its stage " +
                'reached the calibrated threshold), false when the judge abstained (the item is then `error`) or failed.',
            ),
          certification: CertificationSchema.optional().describe(
            "Tribunal's, with `certified`: `answered`, `escalated` (a later cascade stage), `abstained` or `error`.",
          ),
          error: z
            .object({ kind: z.enum(GRADER_ERROR_KINDS), message: z.string() })
            .optional()
            .describe(
              "Why the grader gave no score of its own (score 0): OpenAI's kinds, and Tribunal's `model_grader_abstained` (a certified judge abstained: its confidence below the calibrated threshold; nothing failed).",
            ),
        })
        .catchall(z.unknown()),
    ),
    sample: z
      .object({
        input: z.array(z.object({ role: z.string(), content: z.string() })),
        output: z.array(z.object({ role: z.string(), content: z.string() })),
        model: z.string(),
        finish_reason: z.string(),
        usage: Usage,
        error: z.union([ErrorSchema, z.null()]),
        temperature: z.number(),
        max_completion_tokens: z.number().int(),
        top_p: z.number(),
        seed: z.number().int(),
      })
      .describe(
        "The model's sample (`completions`, `responses`), or a `jsonl` line's own: its text as `output`'s one assistant message " +
          '(empty when the line gives none), `model` and `finish_reason` as the line gives them (else ""), no `input` or `usage`, and ' +
          "OpenAI's default parameters. Never null, as OpenAI's API and SDK have it.",
      ),
  })
  .openapi('EvalRunOutputItem');
/** See {@link OutputItemSchema}. */
export type OutputItem = z.infer<typeof OutputItemSchema>;

/** `GET …/output_items`. */
export const OutputItemListSchema = listOf(OutputItemSchema, 'EvalRunOutputItemList');

/** Its query: OpenAI's list parameters and a `status` filter (`pass` / `fail`). */
export const OutputItemListQuerySchema = ListQuerySchema.extend({
  status: z.enum(['pass', 'fail']).optional(),
}).strict();
