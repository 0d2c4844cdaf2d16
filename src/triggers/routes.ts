/**
 * @module
 * `/v1/triggers` (create, list, get, delete, rotate the secret) and `/v1/hooks/{id}`, where senders POST
 * signed events. `/v1/hooks` is authenticated by the request's signature, not by a bearer token: the
 * app's auth middleware skips it explicitly (src/app.ts).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { jsonBody } from '../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  jsonResponse,
  llmUnavailable,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  RUBRIC_NOT_FOUND,
  RUBRIC_STEPS_ERRORS,
  v1Responses,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { RotatedSecretSchema } from '../webhooks/schemas.js';
import { receiveHook } from './hook.js';
import {
  CreatedTriggerSchema,
  CreateTriggerRequestSchema,
  HookAcceptedSchema,
  HookComparisonAcceptedSchema,
  HookIgnoredSchema,
  TriggerListSchema,
  TriggerSchema,
} from './schemas.js';
import { createTrigger, deleteTrigger, getTrigger, listTriggers, rotateTriggerSecret } from './triggers.js';

/** Named examples of `POST /v1/triggers` bodies. */
export const CREATE_TRIGGER_EXAMPLES = {
  pairwise: {
    summary: 'Two model outputs from a CI job',
    description: 'Each event carries a prompt and two candidate outputs; the verdict is pushed to a callback URL.',
    value: {
      preset: 'fastchat-pair',
      mapping: {
        task: { kind: 'pairwise', question: '/prompt', answerA: '/candidates/0/text', answerB: '/candidates/1/text' },
        metadata: { run: '/run_id' },
      },
      filter: [{ pointer: '/status', equals: 'completed' }],
      webhook: { url: 'https://ci.example.com/hooks/verdicts' },
      description: 'nightly eval run',
    },
  },
  template: {
    summary: 'A pointwise score, with a template',
    value: {
      preset: 'debate-summeval',
      mapping: {
        task: {
          kind: 'pointwise',
          source: { template: 'Title: {{/article/title}}\n\n{{/article/body}}' },
          output: '/summary',
          aspect: { value: { name: 'coherence', scale: { min: 1, max: 5 } } },
        },
      },
    },
  },
};

const TriggerParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { description: 'Trigger id (`trg_…`).' }, example: 'trg_5b2e8c1d0f3a4e6b9c7d2a1f0e3b4c5d' }),
});
const TAGS = ['triggers'];

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createTrigger',
  tags: TAGS,
  summary: 'Create a trigger',
  description:
    'A URL (`/v1/hooks/{id}`) that turns each signed incoming JSON event into one evaluation: `mapping` says where each task field is (JSON Pointer, template or constant), ' +
    '`filter` which events to judge. The answer carries the secret the sender signs with, **shown only here**. At most 100 triggers per tenant.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateTriggerRequestSchema, examples: CREATE_TRIGGER_EXAMPLES } },
    },
  },
  responses: v1Responses({
    201: jsonResponse(CreatedTriggerSchema, 'Created; give `secret` to the sender now.'),
    400: errorResponse(
      [
        'invalid_json',
        'invalid_request',
        'invalid_config',
        'unknown_preset',
        'unknown_method',
        'task_kind_unsupported',
        'url_not_allowed',
        'signing_secret_missing',
      ],
      "the body fails its schema (see `issues`), the judge does not resolve or does not take the mapping's task kind, or the callback URL is refused or cannot be signed yet.",
    ),
    404: RUBRIC_NOT_FOUND,
    409: errorResponse(['limit_exceeded'], 'the tenant already has 100 triggers.'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
    503: llmUnavailable('the deployment has no usable LLM settings.'),
  }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listTriggers',
  tags: TAGS,
  summary: 'List triggers',
  description: 'Every trigger of the tenant, oldest first, without secrets.',
  ...scoped('read'),
  request: { query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(TriggerListSchema, 'The triggers.'), 400: BAD_QUERY }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getTrigger',
  tags: TAGS,
  summary: 'Get a trigger',
  description: 'The trigger without its secret.',
  ...scoped('read'),
  request: { params: TriggerParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(TriggerSchema, 'The trigger.'),
    400: BAD_QUERY,
    404: notFound('trigger'),
  }),
});

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteTrigger',
  tags: TAGS,
  summary: 'Delete a trigger',
  description: 'Its URL answers 404 from now on; evaluations it created stay.',
  ...scoped('evaluations:write'),
  request: { params: TriggerParams, query: NoQuery },
  responses: v1Responses({ 204: { description: 'Deleted.' }, 400: BAD_QUERY, 404: notFound('trigger') }),
});

const rotate = createRoute({
  method: 'post',
  path: '/{id}/rotate-secret',
  operationId: 'rotateTriggerSecret',
  tags: TAGS,
  summary: "Rotate a trigger's secret",
  description:
    'A new secret, **shown only here**. Requests signed with the previous one are still accepted for 24 hours, so the sender can switch over.',
  ...scoped('evaluations:write'),
  request: { params: TriggerParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(RotatedSecretSchema, 'The new secret.'),
    400: BAD_QUERY,
    404: notFound('trigger'),
  }),
});

/** Routes under `/v1/triggers`. */
export const triggers = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const body = await createTrigger(c.env, c.var.tenant, c.req.valid('json'));
    c.header('Location', `/v1/triggers/${body.id}`);
    return c.json(body, 201);
  })
  .openapi(list, async (c) => c.json({ data: await listTriggers(c.env, c.var.tenant) }, 200))
  .openapi(get, async (c) => c.json(await getTrigger(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(remove, async (c) => {
    await deleteTrigger(c.env, c.var.tenant, c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(rotate, async (c) => c.json(await rotateTriggerSecret(c.env, c.var.tenant, c.req.valid('param').id), 200));

/** An example incoming event for the first example trigger above. */
export const HOOK_EXAMPLES = {
  event: {
    summary: 'A CI event',
    value: {
      status: 'completed',
      run_id: 'nightly-42',
      prompt: 'What is the capital of Australia?',
      candidates: [{ text: 'Canberra.' }, { text: 'Sydney.' }],
    },
  },
};

const hook = createRoute({
  method: 'post',
  path: '/{id}',
  operationId: 'receiveHook',
  tags: TAGS,
  summary: 'Send an event to a trigger',
  description:
    'For senders: any JSON body, signed with the trigger\'s secret — Standard Webhooks (`webhook-id`, `webhook-timestamp` within 5 minutes of now, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) ' +
    '(Svix senders work unchanged: the same scheme under `svix-id`, `svix-timestamp`, `svix-signature`), ' +
    "or GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` with `X-GitHub-Delivery`. No bearer token. " +
    'The delivery id (`webhook-id` / `svix-id` / `X-GitHub-Delivery`) makes it idempotent: a retry answers 202 with the same evaluation and judges nothing twice.',
  security: [],
  request: {
    params: TriggerParams,
    query: NoQuery,
    // Documented, not validated by a schema: the signature covers the raw bytes, which the handler reads itself.
    body: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', description: "The sender's event, any JSON." },
          examples: HOOK_EXAMPLES,
        },
      },
    },
  },
  responses: {
    202: jsonResponse(
      z.union([HookAcceptedSchema, HookComparisonAcceptedSchema]),
      'Accepted: the evaluation, or the comparison of a `comparison` trigger (also for a replayed delivery id).',
    ),
    200: jsonResponse(HookIgnoredSchema, 'Valid, but the filter (or a GitHub `ping`) skips it: nothing created.'),
    400: errorResponse(
      ['invalid_json', 'invalid_request', 'invalid_config', 'task_kind_unsupported'],
      'the body is not JSON, `X-GitHub-Delivery` is missing, or the mapped task does not suit the judge.',
    ),
    401: errorResponse(
      ['invalid_signature'],
      'missing, wrong or stale signature (timestamp more than 5 minutes away): nothing created.',
    ),
    404: notFound('trigger'),
    409: errorResponse(['idempotency_conflict'], 'this delivery id was used before with a different body.'),
    413: PAYLOAD_TOO_LARGE,
    422: errorResponse(
      ['mapping_failed'],
      'the mapping cannot fill a task field from this body (the message names it): nothing created.',
    ),
    429: errorResponse(
      ['quota_exceeded'],
      "the trigger's tenant reached its monthly evaluation or spend cap (`error.resetAt`; `Retry-After`: the first day of next month, UTC): nothing created; the sender may retry the delivery later.",
    ),
    500: errorResponse(['internal'], 'a bug; quote `requestId`.'),
    ...RUBRIC_STEPS_ERRORS,
  },
});

/** Routes under `/v1/hooks` (signature auth; see the module note). */
export const hooks = new OpenAPIHono<TenantEnv>().openapi(hook, async (c) => {
  const outcome = await receiveHook(c.env, c.req.valid('param').id, c.req.raw);
  if (outcome.kind === 'ignored') return c.json({ ignored: true as const, reason: outcome.reason }, 200);
  if (outcome.kind === 'comparison') {
    c.header('Location', outcome.body.links.self);
    const { id, status, links } = outcome.body;
    return c.json({ comparisonId: id, status, replayed: outcome.replayed, links }, 202);
  }
  const { body, replayed } = outcome.result;
  c.header('Location', body.links.self);
  return c.json({ evaluationId: body.id, status: body.status, replayed, links: body.links }, 202);
});
