/**
 * @module
 * `/v1/evals` (create, list, retrieve, update, delete) and `/v1/fine_tuning/alpha/graders` (run, validate):
 * OpenAI's Evals API for the `openai` SDK pointed at `<deployment>/v1`. Handlers stay thin; the work is in
 * ./service.ts and ./grader-run.ts.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { jsonBody } from '../http/json-body.js';
import {
  CREATE_EVAL_EXAMPLES,
  RUN_GRADER_EXAMPLES,
  UPDATE_EVAL_EXAMPLES,
  VALIDATE_GRADER_EXAMPLES,
} from './examples.js';
import {
  BAD_QUERY,
  errorResponse,
  IdempotencyHeaderSchema,
  jsonResponse,
  llmUnavailable,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import { inOpenAiShape } from '../openai/errors.js';
import { markReplayed, REPLAY_HEADERS } from '../openai/idempotency.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import type { TenantEnv } from '../tenants/auth.js';
import { runGrader, validateGrader } from './grader-run.js';
import {
  CreateEvalRequestSchema,
  EvalDeletedSchema,
  EvalIdParams,
  EvalListQuerySchema,
  EvalListSchema,
  EvalSchema,
  GraderRunRequestSchema,
  GraderRunResponseSchema,
  GraderValidateRequestSchema,
  GraderValidateResponseSchema,
  UpdateEvalRequestSchema,
} from './schemas.js';
import { createEval, deleteEvalView, listEvalsView, requireEval, updateEvalView, viewEval } from './service.js';

/** The errors of a route with a JSON body that holds graders. */
const BODY_ERRORS = {
  400: errorResponse(
    ['invalid_json', 'invalid_request', 'unsupported_grader'],
    'the body fails its schema, a grader names a field the item schema lacks or a threshold outside its range (see `issues`), or a `python` grader (the message names the alternatives).',
  ),
  413: PAYLOAD_TOO_LARGE,
  415: NOT_JSON,
};

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createEval',
  tags: ['evals'],
  summary: 'Create an eval',
  description:
    "OpenAI's `evals.create`: a `custom` data source config (`item_schema`, `include_sample_schema`) and its testing criteria " +
    '(`string_check`, `text_similarity`, `label_model`, `score_model`, `multi`). Every grader is checked first: a template naming a field the ' +
    'item schema lacks, or a threshold outside its range, is a 400 naming the field; `python` is 400 `unsupported_grader`; `logs` and ' +
    '`stored_completions` are 400 saying what to send instead.\n\n' +
    '**Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own): the same key ' +
    'and body answer the eval made first (header `Idempotent-Replayed: true`); the same key with another body is 409 ' +
    '`idempotency_conflict`, and 404 once the eval it made is deleted.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateEvalRequestSchema, examples: CREATE_EVAL_EXAMPLES } },
    },
  },
  responses: inOpenAiShape(
    v1Responses({
      200: {
        ...jsonResponse(EvalSchema, 'The eval (also the answer to an idempotent replay).'),
        headers: REPLAY_HEADERS,
      },
      ...BODY_ERRORS,
      404: errorResponse(['not_found'], 'the eval this `Idempotency-Key` made was deleted.'),
      409: errorResponse(['idempotency_conflict'], 'the `Idempotency-Key` was used with a different body.'),
    }),
  ),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listEvals',
  tags: ['evals'],
  summary: 'List evals',
  description: "The tenant's evals, oldest first by default; page with `after` (the previous page's `last_id`).",
  ...scoped('read'),
  request: { query: EvalListQuerySchema },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(EvalListSchema, 'One page of evals.'),
      400: errorResponse(['invalid_request'], 'a query parameter fails its schema.'),
    }),
  ),
});

const get = createRoute({
  method: 'get',
  path: '/{eval_id}',
  operationId: 'getEval',
  tags: ['evals'],
  summary: 'Get an eval',
  description: 'The eval with its data source config and testing criteria, as it was created or last updated.',
  ...scoped('read'),
  request: { params: EvalIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(EvalSchema, 'The eval.'), 400: BAD_QUERY, 404: notFound('eval') }),
  ),
});

const update = createRoute({
  method: 'post',
  path: '/{eval_id}',
  operationId: 'updateEval',
  tags: ['evals'],
  summary: 'Update an eval',
  description: 'Sets `name` and/or `metadata` (null clears it); the config and criteria never change.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: EvalIdParams,
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: UpdateEvalRequestSchema, examples: UPDATE_EVAL_EXAMPLES } },
    },
  },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(EvalSchema, 'The eval as it is now.'),
      400: errorResponse(['invalid_json', 'invalid_request'], 'the body fails its schema (see `issues`).'),
      404: notFound('eval'),
      413: PAYLOAD_TOO_LARGE,
      415: NOT_JSON,
    }),
  ),
});

const remove = createRoute({
  method: 'delete',
  path: '/{eval_id}',
  operationId: 'deleteEval',
  tags: ['evals'],
  summary: 'Delete an eval',
  description:
    'The eval is no longer found or listed, and neither are its runs and their output items: in the same transaction each run ' +
    'is deleted as `DELETE …/runs/{run_id}` deletes it (its output items and stored model replies erased; a run still going ' +
    'is cancelled, its items not graded yet are not graded, and it sends `eval.run.canceled`, whose links then answer 404). ' +
    'Usage rows stay for billing. ' +
    'Deleting again is 404.',
  ...scoped('evaluations:write'),
  request: { params: EvalIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(EvalDeletedSchema, 'Deleted.'),
      400: BAD_QUERY,
      404: notFound('eval'),
    }),
  ),
});

/** Routes under `/v1/evals`. */
export const evals = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'];
    const { eval: ev, replayed } = await createEval(c.env, c.var.tenant, c.req.valid('json'), key);
    markReplayed(c, replayed);
    return c.json(ev, 200);
  })
  .openapi(list, async (c) => c.json(await listEvalsView(c.env, c.var.tenant, c.req.valid('query')), 200))
  .openapi(get, async (c) =>
    c.json(viewEval(await requireEval(c.env, c.var.tenant, c.req.valid('param').eval_id)), 200),
  )
  .openapi(update, async (c) =>
    c.json(await updateEvalView(c.env, c.var.tenant, c.req.valid('param').eval_id, c.req.valid('json')), 200),
  )
  .openapi(remove, async (c) => c.json(await deleteEvalView(c.env, c.var.tenant, c.req.valid('param').eval_id), 200));

const run = createRoute({
  method: 'post',
  path: '/run',
  operationId: 'runGrader',
  tags: ['evals'],
  summary: 'Run a grader',
  description:
    "OpenAI's `fineTuning.alpha.graders.run`: one grader on `model_sample` (`{{sample.output_text}}`) and `item` (`{{item.*}}`). " +
    "A model grader asks the deployment's LLM, or runs a Tribunal judge named as its model (`tribunal/<preset>`) as an evaluation. " +
    'Grader errors are reported in `metadata.errors` with reward 0.\n\n' +
    '**Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own; without a key ' +
    "each retry grades, and bills its model calls, again): the same key and body answer the first run's response without grading " +
    'again (header `Idempotent-Replayed: true`), for 24 hours; the same key with another body is 409 `idempotency_conflict`; ' +
    'while its first request still runs, 409 `idempotency_conflict` marked for a retry (`x-should-retry: true`, ' +
    '`retry-after-ms: 2000`), so the SDK waits and gets the first answer. A request that fails (such as 503) leaves its key free ' +
    'for a retry.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: GraderRunRequestSchema, examples: RUN_GRADER_EXAMPLES } },
    },
  },
  responses: inOpenAiShape(
    v1Responses({
      200: {
        ...jsonResponse(
          GraderRunResponseSchema,
          'The reward and what happened (also the answer to an idempotent replay).',
        ),
        headers: REPLAY_HEADERS,
      },
      ...BODY_ERRORS,
      409: errorResponse(
        ['idempotency_conflict'],
        'the `Idempotency-Key` was used with a different body, or its first request is still running.',
      ),
      503: llmUnavailable('a model grader needs LLM settings, and the deployment has no usable ones.'),
    }),
  ),
});

const validate = createRoute({
  method: 'post',
  path: '/validate',
  operationId: 'validateGrader',
  tags: ['evals'],
  summary: 'Validate a grader',
  description: 'Checks a grader as `/run` and an eval do; answers it back when it is valid.',
  middleware: [requireScope('read'), jsonBody()] as const,
  security: scopeSecurity('read'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: GraderValidateRequestSchema, examples: VALIDATE_GRADER_EXAMPLES } },
    },
  },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(GraderValidateResponseSchema, 'The grader.'), ...BODY_ERRORS }),
  ),
});

/** Routes under `/v1/fine_tuning/alpha/graders`. */
export const graders = new OpenAPIHono<TenantEnv>()
  .openapi(run, async (c) => {
    const by = { tenant: c.var.tenant, keyId: c.var.auth.keyId, limits: c.var.auth.limits };
    const key = c.req.valid('header')['Idempotency-Key'];
    const { response, replayed } = await runGrader(c.env, c.req.valid('json'), by, key);
    markReplayed(c, replayed);
    return c.json(response, 200);
  })
  .openapi(validate, (c) => c.json(validateGrader(c.req.valid('json').grader), 200));
