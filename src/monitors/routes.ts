/**
 * @module
 * `/v1/monitors`: create, list, get (with counts), update (and pause or resume), delete. Handlers stay thin; the
 * work is in ./service.ts, the matching in ./runner.ts (inside each trace's object).
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
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
  v1Responses,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import {
  CreateMonitorRequestSchema,
  MAX_MONITORS,
  MonitorListSchema,
  MonitorParams,
  MonitorSchema,
  UpdateMonitorRequestSchema,
  MonitorListQuery,
} from './schemas.js';
import { createMonitor, listMonitorsView, patchMonitor, readMonitor, removeMonitor } from './service.js';

const TAGS = ['monitors'];

/** Named examples of `POST /v1/monitors` bodies. */
const CREATE_MONITOR_EXAMPLES = {
  span: {
    summary: 'Every tenth answer of a model, scored for helpfulness',
    value: {
      name: 'support answers',
      filter: { service: 'support-agent', model: 'gpt-4o' },
      scope: 'span',
      sampleRate: 0.1,
      judge: { preset: 'geval-summeval', aspect: { name: 'helpfulness', scale: { min: 1, max: 5 } } },
      dailyBudgetUsd: 5,
    },
  },
  trace: {
    summary: 'Every agent run, judged as a trajectory',
    value: {
      name: 'agent runs',
      filter: { service: 'support-agent' },
      scope: 'trace',
      sampleRate: 1,
      judge: { preset: 'trajectory-judge' },
    },
  },
};

/** Named examples of `PATCH /v1/monitors/{id}` bodies. */
const UPDATE_MONITOR_EXAMPLES = {
  pause: { summary: 'Pause a monitor', value: { paused: true } },
  rate: { summary: 'Sample one in four, without a daily budget', value: { sampleRate: 0.25, dailyBudgetUsd: null } },
};

const BAD_BODY = errorResponse(
  [
    'invalid_json',
    'invalid_request',
    'invalid_config',
    'unknown_preset',
    'unknown_method',
    'task_kind_unsupported',
    'invalid_rubric',
    'rubric_task_mismatch',
    'rubric_unsupported',
    'url_not_allowed',
    'signing_secret_missing',
  ],
  'the body fails its schema (see `issues`), or the judge does not resolve or does not take the task the scope builds (named under `judge.`), or the webhook URL is refused or cannot be signed yet.',
);

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createMonitor',
  tags: TAGS,
  summary: 'Create a monitor',
  description:
    'Judges the spans (`scope: span`) or whole traces (`scope: trace`) of `POST /v1/traces` that match `filter`, a deterministic `sampleRate` of them, ' +
    'each once, as an ordinary evaluation with `source: {traceId, spanId, monitorId}` (webhooks, usage, budgets, tiers and the viewer apply). ' +
    `Spans that arrived before the monitor are not judged. At most ${MAX_MONITORS} monitors per tenant.`,
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateMonitorRequestSchema, examples: CREATE_MONITOR_EXAMPLES } },
    },
  },
  responses: v1Responses({
    201: jsonResponse(MonitorSchema, 'Created.'),
    400: BAD_BODY,
    404: RUBRIC_NOT_FOUND,
    409: errorResponse(['limit_exceeded'], `the tenant already has ${MAX_MONITORS} monitors.`),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
    503: llmUnavailable('the deployment has no usable LLM settings.'),
  }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listMonitors',
  tags: TAGS,
  summary: 'List monitors',
  description:
    "The tenant's monitors, newest first, with their counts, a page at a time: `limit` (1-100, default 100: every monitor) and `cursor` " +
    "(the previous page's `nextCursor`; null on the last page).",
  ...scoped('read'),
  request: { query: MonitorListQuery },
  responses: v1Responses({ 200: jsonResponse(MonitorListSchema, 'The monitors.'), 400: BAD_QUERY }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getMonitor',
  tags: TAGS,
  summary: 'Get a monitor',
  description:
    'The monitor and its `counts` since it was created: matched, sampled, its evaluations that succeeded or failed, and the sampled matches the daily budget skipped.',
  ...scoped('read'),
  request: { params: MonitorParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(MonitorSchema, 'The monitor.'),
    400: BAD_QUERY,
    404: notFound('monitor'),
  }),
});

const update = createRoute({
  method: 'patch',
  path: '/{id}',
  operationId: 'updateMonitor',
  tags: TAGS,
  summary: 'Update, pause or resume a monitor',
  description:
    'Changes the given fields (`null` clears `tier`, `dailyBudgetUsd` or `webhook`); `paused: true` stops matching, `false` resumes. ' +
    'Trace objects read monitors at most every 5 s, so a change reaches spans arriving from then on.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: MonitorParams,
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: UpdateMonitorRequestSchema, examples: UPDATE_MONITOR_EXAMPLES } },
    },
  },
  responses: v1Responses({
    200: jsonResponse(MonitorSchema, 'The monitor as changed.'),
    400: BAD_BODY,
    404: errorResponse(['not_found'], 'no monitor with this id for this tenant, or the `judge.rubric` names none.'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
    503: llmUnavailable('the deployment has no usable LLM settings.'),
  }),
});

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteMonitor',
  tags: TAGS,
  summary: 'Delete a monitor',
  description: 'Nothing more is matched; the evaluations it made stay.',
  ...scoped('evaluations:write'),
  request: { params: MonitorParams, query: NoQuery },
  responses: v1Responses({ 204: { description: 'Deleted.' }, 400: BAD_QUERY, 404: notFound('monitor') }),
});

/** Routes under `/v1/monitors`. */
export const monitors = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const body = await createMonitor(c.env, c.var.tenant, c.req.valid('json'));
    c.header('Location', `/v1/monitors/${body.id}`);
    return c.json(body, 201);
  })
  .openapi(list, async (c) => c.json(await listMonitorsView(c.env, c.var.tenant, c.req.valid('query')), 200))
  .openapi(get, async (c) => c.json(await readMonitor(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(update, async (c) =>
    c.json(await patchMonitor(c.env, c.var.tenant, c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(remove, async (c) => {
    await removeMonitor(c.env, c.var.tenant, c.req.valid('param').id);
    return c.body(null, 204);
  });
