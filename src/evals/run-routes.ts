/**
 * @module
 * `/v1/evals/{eval_id}/runs` (create, list, retrieve, cancel, delete) and their output items (list,
 * retrieve). A run's work goes through the batches queue (./run-queue.ts); reading a stalled run (its
 * message lost, or its worker dead) queues it again. Handlers stay thin; the work is in ./run-service.ts.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { jsonBody } from '../http/json-body.js';
import { withWarnings } from '../http/warnings.js';
import { CREATE_RUN_EXAMPLES } from './examples.js';
import {
  BAD_QUERY,
  CREATE_TOO_MANY,
  errorResponse,
  IdempotencyHeaderSchema,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import { inOpenAiShape } from '../openai/errors.js';
import { markReplayed, REPLAY_HEADERS } from '../openai/idempotency.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import type { TenantEnv } from '../tenants/auth.js';
import { queueRun, stalled } from './run-queue.js';
import {
  CreateRunRequestSchema,
  OutputItemIdParams,
  OutputItemListQuerySchema,
  OutputItemListSchema,
  OutputItemSchema,
  RunDeletedSchema,
  RunIdParams,
  RunListQuerySchema,
  RunListSchema,
  RunSchema,
} from './run-schemas.js';
import {
  cancelRunView,
  createRun,
  deleteRunView,
  getItemView,
  listItemsView,
  listRunsView,
  requireRun,
  viewRun,
} from './run-service.js';
import { EvalIdParams } from './schemas.js';
import { requireEval } from './service.js';

/** Queues stalled runs again, after the answer (a lost send is repeated by the next read). */
function kick(c: Context<TenantEnv>, ids: readonly string[]): void {
  for (const id of ids) c.executionCtx.waitUntil(queueRun(c.env, c.var.tenant, id));
}

const origin = (c: Context<TenantEnv>) => new URL(c.req.url).origin;

/** The tenant's run the path names, or 404. */
const runAt = (c: Context<TenantEnv>, p: { eval_id: string; run_id: string }) =>
  requireRun(c.env, c.var.tenant, p.eval_id, p.run_id);

const create = createRoute({
  method: 'post',
  path: '/{eval_id}/runs',
  operationId: 'createEvalRun',
  tags: ['evals'],
  summary: 'Create a run',
  description:
    "OpenAI's `evals.runs.create`: grades each item of the data source with the eval's testing criteria. `jsonl` takes the items (and their " +
    'samples, when the eval reads `{{sample.*}}`) inline (`file_content`); `completions` samples `model` on each item from `input_messages` ' +
    "through the deployment's LLM first (`responses`: through its Responses API). `service_tier` and `cache` are Tribunal's: the tier of " +
    "the run's model calls and the verdict cache of its model graders. Answers at once (`queued`); poll the run, then read its output items. Each item counts as one " +
    "evaluation against the tenant's monthly caps, and each model call is billed in `GET /v1/usage` once.\n\n" +
    '**Retries:** send an `Idempotency-Key` (the `openai` SDK retries a POST by itself and sends none of its own; without a key a ' +
    'retry after a lost answer runs, and bills, the items twice): the same key and body answer the run made first (as it is now, ' +
    'header `Idempotent-Replayed: true`); the same key with another body or another eval is 409 `idempotency_conflict`, and 404 ' +
    'once the run it made is deleted.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: EvalIdParams,
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateRunRequestSchema, examples: CREATE_RUN_EXAMPLES } },
    },
  },
  responses: inOpenAiShape(
    v1Responses({
      200: {
        ...jsonResponse(RunSchema, 'The run, queued (or, replaying an `Idempotency-Key`, as it is now).'),
        headers: REPLAY_HEADERS,
      },
      400: errorResponse(
        ['invalid_json', 'invalid_request', 'tier_unsupported'],
        "the body fails its schema, a template names a field the item schema lacks, an item (inline or a line of the file) the eval's `item_schema` refuses (a wrong type, a required field missing; `issues` name its line and field, checked before any call), a data source Tribunal does not read (the message says what to send), or a `service_tier` the provider does not offer (`tier_unsupported`).",
      ),
      404: errorResponse(
        ['not_found'],
        'no eval with this id for this tenant, or the run this `Idempotency-Key` made was deleted.',
      ),
      413: PAYLOAD_TOO_LARGE,
      415: NOT_JSON,
      429: CREATE_TOO_MANY,
      409: errorResponse(
        ['idempotency_conflict', 'labels_needed'],
        'the `Idempotency-Key` was used with a different body or eval, or (`certify`) the rubric version of a judge grader has too few labelled items to calibrate on: `error.labelsNeeded` says how many more.',
      ),
      503: errorResponse(
        ['llm_not_configured', 'calibration_pending'],
        "the run calls a model and the deployment's LLM settings are unusable, or (`certify`) a judge grader is still judging its rubric version's labelled items (`Retry-After`; nothing was created: send the request again).",
      ),
    }),
  ),
});

const list = createRoute({
  method: 'get',
  path: '/{eval_id}/runs',
  operationId: 'listEvalRuns',
  tags: ['evals'],
  summary: 'List runs',
  description: "The eval's runs, oldest first by default; `status` filters them, and `after` pages on from a run id.",
  ...scoped('read'),
  request: { params: EvalIdParams, query: RunListQuerySchema },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(RunListSchema, 'One page of runs.'),
      400: errorResponse(['invalid_request'], 'a query parameter fails its schema.'),
      404: notFound('eval'),
    }),
  ),
});

const get = createRoute({
  method: 'get',
  path: '/{eval_id}/runs/{run_id}',
  operationId: 'getEvalRun',
  tags: ['evals'],
  summary: 'Get a run',
  description: 'Its status, `result_counts`, `per_testing_criteria_results` and `per_model_usage` so far.',
  ...scoped('read'),
  request: { params: RunIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(RunSchema, 'The run.'), 400: BAD_QUERY, 404: notFound('run') }),
  ),
});

const cancel = createRoute({
  method: 'post',
  path: '/{eval_id}/runs/{run_id}',
  operationId: 'cancelEvalRun',
  tags: ['evals'],
  summary: 'Cancel a run',
  description:
    'Items not graded yet are not graded; repeating it, or cancelling an ended run, changes nothing. No body.',
  ...scoped('evaluations:write'),
  request: { params: RunIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(RunSchema, 'The run as it is now.'),
      400: BAD_QUERY,
      404: notFound('run'),
    }),
  ),
});

const remove = createRoute({
  method: 'delete',
  path: '/{eval_id}/runs/{run_id}',
  operationId: 'deleteEvalRun',
  tags: ['evals'],
  summary: 'Delete a run',
  description:
    'The run and its output items are no longer found or listed under the eval. A run not ended yet is cancelled: its ' +
    'items not graded yet are not graded, and it sends `eval.run.canceled` as a cancel does (once: deleting again is 404; ' +
    "the event's links name the deleted run, so they answer 404).",
  ...scoped('evaluations:write'),
  request: { params: RunIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({ 200: jsonResponse(RunDeletedSchema, 'Deleted.'), 400: BAD_QUERY, 404: notFound('run') }),
  ),
});

const items = createRoute({
  method: 'get',
  path: '/{eval_id}/runs/{run_id}/output_items',
  operationId: 'listEvalRunOutputItems',
  tags: ['evals'],
  summary: "List a run's output items",
  description: 'The graded items so far, by their index in the data source; `status` filters `pass` or `fail`.',
  ...scoped('read'),
  request: { params: RunIdParams, query: OutputItemListQuerySchema },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(OutputItemListSchema, 'One page of output items.'),
      400: errorResponse(
        ['invalid_request'],
        'a query parameter fails its schema, or `after` is not an item of this run.',
      ),
      404: notFound('run'),
    }),
  ),
});

const item = createRoute({
  method: 'get',
  path: '/{eval_id}/runs/{run_id}/output_items/{output_item_id}',
  operationId: 'getEvalRunOutputItem',
  tags: ['evals'],
  summary: 'Get an output item',
  description: "One graded item: its `datasource_item`, `sample` and each grader's `results`.",
  ...scoped('read'),
  request: { params: OutputItemIdParams, query: NoQuery },
  responses: inOpenAiShape(
    v1Responses({
      200: jsonResponse(OutputItemSchema, 'The output item.'),
      400: BAD_QUERY,
      404: notFound('output item'),
    }),
  ),
});

/** What the routes are given by the composition (src/app.ts): certified mode's calibration. */
export interface RunRoutesDeps {
  certify: CertifyJudge;
}

/** Routes under `/v1/evals` for runs and output items. */
export const runRoutes = ({ certify }: RunRoutesDeps) =>
  new OpenAPIHono<TenantEnv>()
    .openapi(create, async (c) => {
      const ev = await requireEval(c.env, c.var.tenant, c.req.valid('param').eval_id);
      const by = { keyId: c.var.auth.keyId, limits: c.var.auth.limits };
      const key = c.req.valid('header')['Idempotency-Key'];
      const { run, warnings, replayed } = await createRun(c.env, ev, c.req.valid('json'), by, certify, key);
      markReplayed(c, replayed);
      return c.json({ ...(await viewRun(c.env, run, origin(c))), ...withWarnings(warnings) }, 200);
    })
    .openapi(list, async (c) => {
      const ev = await requireEval(c.env, c.var.tenant, c.req.valid('param').eval_id);
      const page = await listRunsView(c.env, ev, c.req.valid('query'), origin(c));
      kick(c, page.stalled);
      return c.json(page.body, 200);
    })
    .openapi(get, async (c) => {
      const run = await runAt(c, c.req.valid('param'));
      if (stalled(run, Date.now())) kick(c, [run.id]);
      return c.json(await viewRun(c.env, run, origin(c)), 200);
    })
    .openapi(cancel, async (c) =>
      c.json(await cancelRunView(c.env, await runAt(c, c.req.valid('param')), origin(c)), 200),
    )
    .openapi(remove, async (c) => c.json(await deleteRunView(c.env, await runAt(c, c.req.valid('param'))), 200))
    .openapi(items, async (c) =>
      c.json(await listItemsView(c.env, await runAt(c, c.req.valid('param')), c.req.valid('query')), 200),
    )
    .openapi(item, async (c) => {
      const p = c.req.valid('param');
      return c.json(await getItemView(c.env, await runAt(c, p), p.output_item_id), 200);
    });
