/**
 * @module
 * The OpenAI wire format as Tribunal speaks it: the chat-completion request it accepts (strict: every
 * parameter either works, is documented as having no effect, or is refused with a reason), the
 * completion, chunk, model and error bodies, and the verdict the assistant message carries as JSON.
 * One zod schema each, for validation, the OpenAPI document and the typed client alike.
 */
import { z } from '@hono/zod-openapi';
import { ErrorCodeSchema, IssueSchema } from '../http/errors.js';
import { EvaluationLinksSchema, MetadataSchema } from '../evaluations/schemas.js';
import { WinnerSchema } from '../engine/verdict.js';
import { CacheModeSchema } from '../verdict-cache/schemas.js';

/** A text part of a message's content (`{ type: "text", text }`); other part types are refused. */
const ContentPartSchema = z.object({ type: z.string().min(1), text: z.string().optional() }).loose();

/** A chat message as the request carries it; only one user message is read (see ./task-text.ts). */
export const ChatRequestMessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(ContentPartSchema)]).nullable(),
    name: z.string().max(256).optional(),
  })
  .strict()
  .meta({ id: 'ChatRequestMessage' });
/** A message of the request. */
export type ChatRequestMessage = z.infer<typeof ChatRequestMessageSchema>;

/**
 * Parameters accepted and documented as having no effect: a judge preset fixes each agent's sampling
 * (the papers' settings) and token limits, and the verdict is short. They are accepted so OpenAI clients
 * that always send them work; the answer lists the ones sent in the `Tribunal-Unused-Parameters` header.
 */
export const NO_EFFECT_PARAMETERS = [
  'temperature',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
  'max_tokens',
  'max_completion_tokens',
] as const;

/** OpenAI parameters refused with 400, each with the reason the error message gives. */
export const REFUSED_PARAMETERS = {
  tools: 'a judge calls no tools',
  tool_choice: 'a judge calls no tools',
  parallel_tool_calls: 'a judge calls no tools',
  functions: 'a judge calls no functions',
  function_call: 'a judge calls no functions',
  logprobs: "a debate's verdict has no token log-probabilities",
  top_logprobs: "a debate's verdict has no token log-probabilities",
  logit_bias: "the preset fixes its agents' sampling",
  stop: 'stop sequences would cut the verdict',
  seed: 'the debate is not reproducible by a seed (replies are stored instead: GET /v1/evaluations/{id}/transcript)',
  audio: 'a judge answers in text only',
  modalities: 'a judge answers in text only',
  prediction: "a judge's answer is its verdict; nothing can be predicted",
  web_search_options: 'a judge searches nothing',
  reasoning_effort: "the preset fixes its agents' models and settings (pick the model with tribunal/<preset>@<model>)",
  verbosity: 'the verdict has a fixed shape',
  service_tier: 'the deployment decides how provider calls are made',
  store: 'every judge request is stored as an evaluation (GET /v1/evaluations/{id}); it cannot be turned off',
  prompt_cache_key: "Tribunal sends its own, one per evaluation, so a debate's calls share one cache route",
  prompt_cache_retention: "the provider's cache retention is the deployment's",
  safety_identifier: 'not supported; put an identifier in metadata (stored with the evaluation)',
  user: 'not supported; put an identifier in metadata (stored with the evaluation)',
} as const satisfies Readonly<Record<string, string>>;

const noEffect = (what: string) =>
  z.number().nullable().optional().describe(`Accepted, no effect: ${what}. Listed in \`Tribunal-Unused-Parameters\`.`);

/** Body of `POST /v1/chat/completions`. Unknown parameters are refused. */
export const ChatCompletionRequestSchema = z
  .object({
    model: z.string().min(1).max(300).describe('`tribunal/<preset>` or `tribunal/<preset>@<model>` (GET /v1/models).'),
    messages: z
      .array(ChatRequestMessageSchema)
      .min(1)
      .describe(
        'Exactly one `user` message holding the task: a JSON Task or plain text with markers (docs/integrations.md).',
      ),
    stream: z
      .boolean()
      .nullable()
      .optional()
      .describe('Stream the debate as `chat.completion.chunk` server-sent events, then the verdict.'),
    stream_options: z
      .object({ include_usage: z.boolean().optional().describe("Send a last chunk with the whole debate's usage.") })
      .strict()
      .nullable()
      .optional(),
    // A union: `.nullable()` on a literal leaves null out of the document's `enum`.
    n: z
      .union([z.literal(1), z.null()])
      .optional()
      .describe('Only 1: a request is one evaluation (send n requests for n verdicts).'),
    response_format: z
      .object({ type: z.enum(['text', 'json_object']) })
      .strict()
      .nullable()
      .optional()
      .describe(
        '`text` or `json_object`: the answer is always a JSON object (`json_schema` is refused: the verdict has its own schema).',
      ),
    metadata: z
      .union([MetadataSchema, z.null()])
      .optional()
      .describe('Stored with the evaluation and shown by GET /v1/evaluations/{id}.'),
    temperature: noEffect("each agent's temperature is the preset's (the paper's setting)"),
    top_p: noEffect('the preset fixes its sampling'),
    presence_penalty: noEffect('the preset fixes its sampling'),
    frequency_penalty: noEffect('the preset fixes its sampling'),
    // At least 1, as OpenAI requires: a value OpenAI refuses is refused here too, though it has no effect.
    max_tokens: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .describe(
        "Accepted (at least 1), no effect: the preset fixes its agents' token limits. Listed in `Tribunal-Unused-Parameters`.",
      ),
    max_completion_tokens: z.number().int().min(1).nullable().optional().describe('As `max_tokens`.'),
    cache: CacheModeSchema.optional().describe(
      "Tribunal's own parameter (OpenAI SDKs send it through `extra_body`): the verdict cache, as `cache` of POST /v1/evaluations " +
        '(`use` by default: the same task to the same model answers from the cache with 0 LLM calls).',
    ),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.stream_options != null && body.stream !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['stream_options'],
        message: 'stream_options is only allowed when stream is true',
      });
    }
  })
  .meta({ id: 'ChatCompletionRequest' });
/** Body of `POST /v1/chat/completions`. */
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** Where the rationale was taken from: one reply of the transcript. */
export const RationaleSourceSchema = z
  .object({ callId: z.string(), agent: z.string(), label: z.string(), stage: z.string() })
  .strict()
  .meta({ id: 'RationaleSource' });

/** The verdict as the assistant message's content carries it (JSON text). */
export const JudgeVerdictSchema = z
  .object({
    evaluationId: z.string(),
    /** The model as requested. */
    model: z.string(),
    preset: z.string(),
    method: z.string(),
    taskKind: z.enum(['pairwise', 'pointwise']),
    /** Pairwise: the better answer, or `tie`. */
    winner: WinnerSchema.optional(),
    /** Pairwise methods that score: the scores of A and B. */
    scores: z.object({ a: z.number(), b: z.number() }).strict().optional(),
    /** Pointwise: the score on the aspect's scale. */
    score: z.number().optional(),
    /** Pointwise: the aspect's scale, inclusive. */
    scale: z.object({ min: z.number().int(), max: z.number().int() }).strict().optional(),
    /** 0-1 (see the Verdict schema). */
    confidence: z.number().min(0).max(1),
    /** Pairwise with both orders: whether swapping the answers changed the outcome; null otherwise. */
    positionFlip: z.boolean().nullable(),
    /** A short excerpt of the decisive reply (at most 600 characters); empty when no reply parsed. */
    rationale: z.string(),
    /** The reply the rationale comes from; null when none parsed. (A union: `.nullable()` would mark the component itself nullable in the document.) */
    rationaleFrom: z.union([RationaleSourceSchema, z.null()]),
    /** Replies that never parsed. */
    unparsed: z.number().int().nonnegative(),
    /** LLM calls made, repairs included. */
    calls: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    links: EvaluationLinksSchema,
  })
  .strict()
  .meta({ id: 'JudgeVerdict', description: "The assistant message's content, as JSON text." });
/** The verdict an assistant message carries. */
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

/** OpenAI's usage object: the whole debate's tokens. */
export const ChatUsageSchema = z
  .object({
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    total_tokens: z.number().int().nonnegative(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative() }).strict(),
  })
  .strict()
  .meta({ id: 'ChatUsage' });
/** OpenAI's usage object. */
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

/** Answer to a non-streamed `POST /v1/chat/completions`. */
export const ChatCompletionSchema = z
  .object({
    /** `chatcmpl-<evaluation id>`. */
    id: z.string(),
    object: z.literal('chat.completion'),
    /** Unix seconds when the evaluation was created. */
    created: z.number().int(),
    model: z.string(),
    choices: z
      .array(
        z
          .object({
            index: z.literal(0),
            message: z
              .object({
                role: z.literal('assistant'),
                content: z.string().describe('The JudgeVerdict as JSON text.'),
                refusal: z.null(),
              })
              .strict(),
            finish_reason: z.literal('stop'),
            logprobs: z.null(),
          })
          .strict(),
      )
      .length(1),
    usage: ChatUsageSchema,
  })
  .strict()
  .meta({ id: 'ChatCompletion' });
/** Answer to a non-streamed chat completion. */
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

/** A model object of `GET /v1/models`. */
export const ModelSchema = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: z.number().int(),
    owned_by: z.literal('tribunal'),
    tribunal: z
      .object({
        preset: z.string(),
        method: z.string(),
        taskKind: z.enum(['pairwise', 'pointwise', 'trajectory']),
        description: z.string(),
        paper: z.string(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Model' });

/** Answer to `GET /v1/models`. */
export const ModelListSchema = z
  .object({ object: z.literal('list'), data: z.array(ModelSchema) })
  .strict()
  .meta({ id: 'ModelList' });

/** Stable codes of the OpenAI-shaped errors: Tribunal's codes plus the judge-as-model ones. */
export const OpenAIErrorCodeSchema = z.union([
  ErrorCodeSchema,
  z.enum(['verdict_timeout', 'evaluation_failed', 'evaluation_cancelled']),
]);
/** A stable code of an OpenAI-shaped error. */
export type OpenAIErrorCode = z.infer<typeof OpenAIErrorCodeSchema>;

/** OpenAI's error `type`s as Tribunal uses them (by HTTP status: ./errors.ts). */
export const OpenAIErrorTypeSchema = z.enum([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'timeout_error',
  'server_error',
]);

/**
 * Error body of the OpenAI-compatible routes, in OpenAI's shape so its SDKs read it (`err.code`,
 * `err.param`, `err.type`, `err.error`): `code` is Tribunal's stable code, `param` the first failing field.
 */
export const OpenAIErrorBodySchema = z
  .object({
    error: z
      .object({
        message: z.string(),
        type: OpenAIErrorTypeSchema,
        code: OpenAIErrorCodeSchema,
        param: z.string().nullable(),
        issues: z.array(IssueSchema).optional(),
        requestId: z.string().optional(),
        /** The evaluation to poll (`verdict_timeout`) or read (`evaluation_failed`, `evaluation_cancelled`). */
        evaluationId: z.string().optional(),
        links: EvaluationLinksSchema.optional(),
        /** Why the evaluation failed or was cancelled: its own error code and message. */
        evaluationError: z.object({ code: z.string(), message: z.string() }).strict().optional(),
        /** `quota_exceeded`: when the tenant's monthly quota is available again (ISO 8601). */
        resetAt: z.string().optional(),
        /** `labels_needed` (certified mode on an Evals run): how many more labelled items are needed. */
        labelsNeeded: z.number().int().positive().optional(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'OpenAIError' });
/** Error body of the OpenAI-compatible routes. */
export type OpenAIErrorBody = z.infer<typeof OpenAIErrorBodySchema>;
