/**
 * @module
 * The wire format of `/v1/evals` and `/v1/fine_tuning/alpha/graders`, as OpenAI's API reference and the
 * `openai` SDK's types define it (snake_case, Unix seconds, cursor pages of `{object: 'list', data,
 * first_id, last_id, has_more}`).
 */
import { z } from '@hono/zod-openapi';
import { GraderSchema } from './grader-schemas.js';

/** OpenAI's metadata: at most 16 string pairs, keys up to 64 characters, values up to 512. */
export const EvalMetadataSchema = z
  .record(z.string().max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= 16, 'at most 16 keys')
  .openapi('EvalMetadata');
/** See {@link EvalMetadataSchema}. */
export type EvalMetadata = z.infer<typeof EvalMetadataSchema>;

/** `data_source_config` of a new eval: `custom` only (`logs` and `stored_completions` are refused with what to send). */
export const DataSourceConfigInputSchema = z
  .object({
    type: z.enum(['custom', 'logs', 'stored_completions']),
    item_schema: z.record(z.string(), z.unknown()).optional().openapi({
      description: 'JSON Schema of a data source item (`custom`); templates read its properties as `{{item.<name>}}`.',
    }),
    include_sample_schema: z
      .boolean()
      .optional()
      .openapi({ description: 'Whether runs generate a sample (`{{sample.output_text}}`); default false.' }),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi('EvalDataSourceConfigInput');
/** See {@link DataSourceConfigInputSchema}. */
export type DataSourceConfigInput = z.infer<typeof DataSourceConfigInputSchema>;

/** `POST /v1/evals`. */
export const CreateEvalRequestSchema = z
  .object({
    name: z.string().max(256).optional(),
    metadata: z.union([EvalMetadataSchema, z.null()]).optional(),
    data_source_config: DataSourceConfigInputSchema,
    testing_criteria: z.array(GraderSchema).min(1).max(32),
  })
  .strict()
  .openapi('CreateEvalRequest');
/** See {@link CreateEvalRequestSchema}. */
export type CreateEvalRequest = z.infer<typeof CreateEvalRequestSchema>;

/** `POST /v1/evals/{eval_id}`: name and metadata only. */
export const UpdateEvalRequestSchema = z
  .object({ name: z.string().max(256).optional(), metadata: z.union([EvalMetadataSchema, z.null()]).optional() })
  .strict()
  .openapi('UpdateEvalRequest');

/** An eval's data source config as answered: `schema` is the JSON Schema of what templates read. */
export const EvalDataSourceConfigSchema = z
  .object({ type: z.literal('custom'), schema: z.record(z.string(), z.unknown()) })
  .openapi('EvalCustomDataSourceConfig');

/** An eval. */
export const EvalSchema = z
  .object({
    object: z.literal('eval'),
    id: z.string(),
    name: z.string(),
    created_at: z.number().int().openapi({ description: 'Unix seconds.' }),
    data_source_config: EvalDataSourceConfigSchema,
    testing_criteria: z.array(GraderSchema),
    metadata: z.union([EvalMetadataSchema, z.null()]),
  })
  .openapi('Eval');
/** See {@link EvalSchema}. */
export type Eval = z.infer<typeof EvalSchema>;

/** A cursor page in OpenAI's shape. */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      first_id: z.string().nullable(),
      last_id: z.string().nullable(),
      has_more: z.boolean(),
    })
    .openapi(id);
}

/** `GET /v1/evals`. */
export const EvalListSchema = listOf(EvalSchema, 'EvalList');

/** The query of OpenAI's lists: `after` (an id of the previous page), `limit` (1-100, default 20), `order`. */
export const ListQuerySchema = z
  .object({
    after: z.string().max(128).optional().openapi({ description: 'The last id of the previous page.' }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    order: z.enum(['asc', 'desc']).default('asc').openapi({ description: 'By creation time; default `asc`.' }),
  })
  .strict();

/** `GET /v1/evals`: {@link ListQuerySchema} and `order_by`. */
export const EvalListQuerySchema = ListQuerySchema.extend({
  order_by: z.enum(['created_at', 'updated_at']).default('created_at'),
}).strict();

/** `DELETE /v1/evals/{eval_id}`. */
export const EvalDeletedSchema = z
  .object({ object: z.literal('eval.deleted'), deleted: z.literal(true), eval_id: z.string() })
  .openapi('EvalDeleted');

/** `{eval_id}`. */
export const EvalIdParams = z.object({
  eval_id: z
    .string()
    .max(128)
    .openapi({ param: { name: 'eval_id', in: 'path' }, example: 'eval_7f3kq2m9x4c8b1n5' }),
});

/** `POST /v1/fine_tuning/alpha/graders/run`. */
export const GraderRunRequestSchema = z
  .object({
    grader: GraderSchema,
    model_sample: z.string().max(1_000_000).openapi({ description: 'The sample `{{sample.output_text}}` reads.' }),
    item: z.record(z.string(), z.unknown()).optional().openapi({ description: 'The item `{{item.*}}` reads.' }),
  })
  .strict()
  .openapi('GraderRunRequest');

const bool = z.boolean();

/** `POST /v1/fine_tuning/alpha/graders/run`'s answer. */
export const GraderRunResponseSchema = z
  .object({
    reward: z.number(),
    sub_rewards: z.record(z.string(), z.unknown()),
    model_grader_token_usage_per_model: z.record(z.string(), z.unknown()),
    metadata: z.object({
      name: z.string(),
      type: z.string(),
      execution_time: z.number(),
      sampled_model_name: z.string().nullable(),
      scores: z.record(z.string(), z.unknown()),
      token_usage: z.number().int().nullable(),
      errors: z.object({
        formula_parse_error: bool,
        invalid_variable_error: bool,
        model_grader_parse_error: bool,
        model_grader_refusal_error: bool,
        model_grader_server_error: bool,
        model_grader_server_error_details: z.string().nullable(),
        other_error: bool,
        python_grader_runtime_error: bool,
        python_grader_runtime_error_details: z.string().nullable(),
        python_grader_server_error: bool,
        python_grader_server_error_type: z.string().nullable(),
        sample_parse_error: bool,
        truncated_observation_error: bool,
        unresponsive_reward_error: bool,
      }),
    }),
  })
  .openapi('GraderRunResponse');
/** See {@link GraderRunResponseSchema}. */
export type GraderRunResponse = z.infer<typeof GraderRunResponseSchema>;

/** `POST /v1/fine_tuning/alpha/graders/validate`. */
export const GraderValidateRequestSchema = z.object({ grader: GraderSchema }).strict().openapi('GraderValidateRequest');

/** `POST /v1/fine_tuning/alpha/graders/validate`'s answer: the grader as it will run. */
export const GraderValidateResponseSchema = z.object({ grader: GraderSchema }).openapi('GraderValidateResponse');
