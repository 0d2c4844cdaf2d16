/**
 * @module
 * The OpenAI-compatible door (mounted under `/v1`): `POST /chat/completions` runs a judge named as a model
 * and answers with its verdict, `GET /models` lists the judges, `GET /models/{model}` reads one. The work
 * is in src/openai/ (conventions, wire format, following the evaluation); errors on these paths are in
 * OpenAI's shape (src/openai/errors.ts, applied in ../app.ts before auth).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import type { TenantEnv } from '../tenants/auth.js';
import { byok } from '../http/byok.js';
import { jsonBody } from '../http/json-body.js';
import { requireEvaluation } from '../evaluations/views.js';
import { jsonResponse, NoQuery } from '../http/responses.js';
import { CHAT_COMPLETION_EXAMPLES } from './examples.js';
import { chatValidationHook, shouldRetry } from './errors.js';
import { followToOutcome, judgeRequestOf, outcomeError, startJudge } from './completion.js';
import { listModels, modelEntry, ModelNameError, parseModelId } from './models.js';
import {
  ChatCompletionRequestSchema,
  ChatCompletionSchema,
  JudgeVerdictSchema,
  ModelListSchema,
  ModelSchema,
  OpenAIErrorBodySchema,
} from './schemas.js';
import { ChatCompletionStreamEventSchema } from './chunks.js';
import type { OpenAIErrorCode } from './schemas.js';
import { streamAnswer } from './stream.js';
import { chatCompletionOf, completionIdOf } from './answer.js';
import { openAiError } from './errors.js';
import { IdempotencyHeaderSchema } from '../http/responses.js';
import { configOf } from '../config/vars.js';

/** An OpenAI-shaped error response: `codes` are the stable `error.code` values this status carries. */
function openAiErrorResponse(codes: readonly OpenAIErrorCode[], why: string) {
  return jsonResponse(OpenAIErrorBodySchema, `${codes.map((c) => `\`${c}\``).join(', ')}: ${why}`);
}

const COMMON_ERRORS = {
  401: openAiErrorResponse(
    ['unauthorized'],
    'missing or unknown bearer token (only when the deployment sets ADMIN_TOKEN or API_KEYS).',
  ),
  403: openAiErrorResponse(['forbidden'], "the key lacks the scope this route needs (see the route's security)."),
  429: openAiErrorResponse(
    ['rate_limited'],
    "this key's request rate is used up: retry after `Retry-After` seconds (`RateLimit-Policy` / `RateLimit` on every answer).",
  ),
  500: openAiErrorResponse(['internal'], 'a bug; quote `requestId`.'),
};

const EVALUATION_HEADER = z
  .string()
  .openapi({ description: 'The evaluation this request created or found again (`GET /v1/evaluations/{id}`).' });

const chat = createRoute({
  method: 'post',
  path: '/chat/completions',
  operationId: 'createChatCompletion',
  tags: ['openai'],
  summary: 'Judge as a model (OpenAI chat completion)',
  description:
    'OpenAI-compatible: `model` is a judge, `tribunal/<preset>` or `tribunal/<preset>@<model>` (the preset with its default model replaced); ' +
    'the one user message is the task, a JSON Task or plain text with markers (`[QUESTION]` `[ANSWER A]` `[ANSWER B]`, or `[SOURCE]` `[OUTPUT]` `[ASPECT]`). ' +
    'Creates an ordinary evaluation (auth, limits, billing and `Idempotency-Key` as `POST /v1/evaluations`) and waits for its verdict up to `OPENAI_WAIT_SECONDS` (default 120): ' +
    "the assistant message is the verdict as JSON (JudgeVerdict), `usage` the whole debate's tokens. With `stream: true` the debate's replies arrive as " +
    '`chat.completion.chunk` events as they are stored, then the verdict, then `data: [DONE]`. Past the bound: 504 `verdict_timeout` with the evaluation id to poll. ' +
    '`temperature`, `top_p`, the penalties and the token limits are accepted and have no effect (the preset fixes them); `n` > 1, `tools`, `logprobs`, `stop`, `seed` and other ' +
    'parameters that would change the meaning are refused. Full conventions: docs/integrations.md.',
  middleware: [requireScope('evaluations:write'), byok(), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: ChatCompletionRequestSchema, examples: CHAT_COMPLETION_EXAMPLES } },
    },
  },
  responses: {
    200: {
      description:
        'The verdict (`stream` false), or the debate as server-sent events (`stream` true): each `data:` line a ChatCompletionChunk, then `data: [DONE]`; ' +
        'a stream that ends without a verdict ends with an OpenAIError `data:` line instead (ChatCompletionStreamEvent).',
      headers: z.object({
        'Tribunal-Evaluation-Id': EVALUATION_HEADER,
        'Tribunal-Unused-Parameters': z
          .string()
          .optional()
          .openapi({ description: 'No-effect parameters the request set, comma-separated.' }),
        'Idempotent-Replayed': z
          .literal('true')
          .optional()
          .openapi({ description: 'Present when this answers a retry with the same `Idempotency-Key`.' }),
      }),
      content: {
        'application/json': { schema: ChatCompletionSchema },
        // As OpenAI's own document does: the stream's schema is what each `data:` line carries.
        'text/event-stream': { schema: ChatCompletionStreamEventSchema },
      },
    },
    400: openAiErrorResponse(
      [
        'invalid_json',
        'invalid_request',
        'invalid_config',
        'unknown_preset',
        'task_kind_unsupported',
        'byok_disabled',
        'rubric_task_mismatch',
      ],
      "the body, a header or the query fails its schema, a refused parameter, no task in the message (see `issues`), an unknown judge, a task the preset does not take, or (`rubric_task_mismatch`, `param` `rubric`) the message's rubric is of the other kind than its task or contradicts its scale.",
    ),
    // As `POST /v1/evaluations` answers the same reference, and as OpenAI answers a model it does not have:
    // the SDKs raise NotFoundError with `param`.
    404: openAiErrorResponse(
      ['not_found'],
      "the message's `rubric` names no rubric, version or tag of the tenant (`param` `rubric`; the message names which).",
    ),
    ...COMMON_ERRORS,
    429: openAiErrorResponse(
      ['rate_limited', 'quota_exceeded'],
      "this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`; `Retry-After`: the first day of next month, UTC).",
    ),
    409: openAiErrorResponse(
      ['idempotency_conflict', 'evaluation_cancelled', 'rubric_archived'],
      "the `Idempotency-Key` was used with a different judge or task, the evaluation was cancelled, or the message's `rubric` names an archived rubric without its version (`param` `rubric`; the message names the version to use).",
    ),
    413: openAiErrorResponse(['payload_too_large'], 'body over MAX_BODY_BYTES.'),
    415: openAiErrorResponse(['unsupported_media_type'], 'Content-Type is not application/json.'),
    501: openAiErrorResponse(
      ['byok_not_supported'],
      'X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet).',
    ),
    502: openAiErrorResponse(
      ['evaluation_failed', 'rubric_steps_failed'],
      "the evaluation failed (its own error in `evaluationError`, e.g. an LLM failure after retries), or writing the rubric version's evaluation steps (G-Eval's auto-CoT) failed.",
    ),
    503: openAiErrorResponse(
      ['llm_not_configured', 'config_invalid', 'rubric_steps_pending'],
      "the deployment has no usable LLM settings, or its configuration is invalid (an operator must fix them), or the rubric version's evaluation steps are still being written (`Retry-After`).",
    ),
    504: openAiErrorResponse(
      ['verdict_timeout'],
      'no verdict within OPENAI_WAIT_SECONDS; the evaluation continues: poll `links.self`.',
    ),
  },
});

const list = createRoute({
  method: 'get',
  path: '/models',
  operationId: 'listModels',
  tags: ['openai'],
  summary: 'List judges as models',
  description:
    'Every preset as an OpenAI model object, `tribunal/<preset>` (its method, task kind and paper in `tribunal`). ' +
    "Any of them also takes `@<model>` to replace the preset's default model, e.g. `tribunal/chateval-faireval@gpt-4o-mini`; those are not listed.",
  ...scoped('read'),
  request: { query: NoQuery },
  responses: {
    200: jsonResponse(ModelListSchema, 'The judges.'),
    400: openAiErrorResponse(['invalid_request'], 'an unknown query parameter (see `issues`).'),
    ...COMMON_ERRORS,
  },
});

const retrieve = createRoute({
  method: 'get',
  path: '/models/{model}',
  operationId: 'retrieveModel',
  tags: ['openai'],
  summary: 'Get a judge as a model',
  description: 'One judge by model name (URL-encoded: `tribunal%2Fchateval-faireval`), with or without `@<model>`.',
  ...scoped('read'),
  request: {
    params: z.object({
      model: z
        .string()
        .min(1)
        .openapi({ param: { description: 'Model name, URL-encoded.' }, example: 'tribunal/chateval-faireval' }),
    }),
    query: NoQuery,
  },
  responses: {
    200: jsonResponse(ModelSchema, 'The judge.'),
    400: openAiErrorResponse(['invalid_request'], 'an unknown query parameter (see `issues`).'),
    404: openAiErrorResponse(['not_found'], 'no judge by this name.'),
    ...COMMON_ERRORS,
  },
});

const door = new OpenAPIHono<TenantEnv>();
// The verdict travels as JSON text in the message: a component of its own, so the document and the
// client generated from it name it.
door.openAPIRegistry.register('JudgeVerdict', JudgeVerdictSchema);

/** Routes of the OpenAI-compatible door, mounted under `/v1`. */
export const openai = door
  .openapi(
    chat,
    async (c) => {
      const key = c.req.valid('header')['Idempotency-Key'] ?? null;
      const req = judgeRequestOf(c.req.valid('json'));
      const { id, replayed } = await startJudge(c.env, c.var.tenant, req, key, {
        keyId: c.var.auth.keyId,
        limits: c.var.auth.limits,
      });
      const waitMs = configOf(c.env).OPENAI_WAIT_SECONDS * 1000;
      const deadline = Date.now() + waitMs;
      c.header('Tribunal-Evaluation-Id', id);
      if (req.unused.length > 0) c.header('Tribunal-Unused-Parameters', req.unused.join(', '));
      if (replayed) c.header('Idempotent-Replayed', 'true');
      if (req.stream) {
        const createdMs = replayed ? (await requireEvaluation(c.env, c.var.tenant, id)).createdAt : Date.now();
        const created = Math.floor(createdMs / 1000);
        const chunk = { id: completionIdOf(id), created, model: req.model.id, includeUsage: req.includeUsage };
        const body = streamAnswer({
          env: c.env,
          tenant: c.var.tenant,
          evaluationId: id,
          req,
          chunk,
          deadline,
          waitSeconds: waitMs / 1000,
          requestId: c.var.requestId,
        });
        return c.body(body, 200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Accel-Buffering': 'no',
        });
      }
      const outcome = await followToOutcome(c.env, c.var.tenant, id, req, deadline);
      if (outcome.kind === 'verdict') return c.json(chatCompletionOf(outcome.evaluation, outcome.verdict), 200);
      const { status, body } = outcomeError(outcome, waitMs / 1000);
      c.header('x-should-retry', String(shouldRetry(status, key !== null)));
      return c.json(body, status);
    },
    chatValidationHook,
  )
  .openapi(list, (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json({ object: 'list' as const, data: listModels() }, 200);
  })
  .openapi(retrieve, (c) => {
    const name = c.req.valid('param').model;
    try {
      const model = parseModelId(name);
      return c.json(modelEntry(model.preset, model.id), 200);
    } catch (err) {
      if (!(err instanceof ModelNameError)) throw err;
      return c.json(openAiError(404, 'not_found', err.message, { param: 'model' }), 404);
    }
  });
