/**
 * @module
 * `/v1/webhook-endpoints`: register receivers for a tenant's events (Standard Webhooks), read, update,
 * delete them, rotate their secrets, read their delivery log and retry a delivery. Handlers are thin;
 * the work is in ../endpoints.ts and ../deliveries.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { requireScope, scoped, scopeSecurity } from '../../tenants/auth.js';
import { jsonBody } from '../../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  IDEMPOTENT_REPLAYED,
  IdempotencyHeaderSchema,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  setCreatedHeaders,
  v1Responses,
} from '../../http/responses.js';
import type { TenantEnv } from '../../tenants/auth.js';
import { listDeliveries, retryDelivery } from '../deliveries.js';
import {
  registerEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from '../endpoints.js';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointSchema,
  DeliveryListSchema,
  DeliverySchema,
  EndpointDeliveriesQuery,
  RotatedSecretSchema,
  UpdateWebhookEndpointSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '../schemas.js';

/** Named examples of `POST /v1/webhook-endpoints` bodies. */
export const CREATE_ENDPOINT_EXAMPLES = {
  all: { summary: 'Every event', value: { url: 'https://hooks.example.com/tribunal' } },
  some: {
    summary: 'Some events, with a description',
    value: {
      url: 'https://ci.example.com/hooks/verdicts',
      events: ['evaluation.succeeded', 'evaluation.failed'],
      description: 'CI verdicts',
    },
  },
};

/** Named examples of `PATCH /v1/webhook-endpoints/{id}` bodies. */
export const UPDATE_ENDPOINT_EXAMPLES = {
  enable: { summary: 'Re-enable after a 410', value: { enabled: true } },
  events: { summary: 'Change the events', value: { events: ['batch.completed'], description: null } },
};

const EndpointParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { description: 'Endpoint id (`we_…`).' }, example: 'we_3f1c9a0e5b7d4c2a8e6f1b0d9c8a7e6f' }),
});
const DeliveryParams = EndpointParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { description: 'Delivery id (`dlv_…`).' }, example: 'dlv_0a1b2c3d4e5f60718293a4b5c6d7e8f9' }),
});

const BAD_BODY = errorResponse(
  ['invalid_json', 'invalid_request', 'url_not_allowed'],
  'the body or the query fails its schema (see `issues`), or the URL guard refuses the URL (the message names the rule).',
);
const TAGS = ['webhooks'];

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createWebhookEndpoint',
  tags: TAGS,
  summary: 'Register a webhook endpoint',
  description:
    'Tribunal POSTs the tenant\'s events to `url`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`). ' +
    "The answer carries the endpoint's secret, **shown only here**. Deliveries are retried with backoff for about a day; a 410 answer disables the endpoint. At most 20 endpoints per tenant.",
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateWebhookEndpointSchema, examples: CREATE_ENDPOINT_EXAMPLES } },
    },
  },
  responses: v1Responses({
    201: {
      ...jsonResponse(
        CreatedWebhookEndpointSchema,
        'Registered (also the answer to an idempotent replay, with the same secret); store `secret` now.',
      ),
      headers: z.object({
        Location: z.string().openapi({ description: "The endpoint's URL (relative)." }),
        'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
      }),
    },
    400: BAD_BODY,
    409: errorResponse(
      ['limit_exceeded', 'idempotency_conflict'],
      'the tenant already has 20 endpoints, or the `Idempotency-Key` was used with a different body.',
    ),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listWebhookEndpoints',
  tags: TAGS,
  summary: 'List webhook endpoints',
  description: 'Every endpoint of the tenant, oldest first, without secrets.',
  ...scoped('read'),
  request: { query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(WebhookEndpointListSchema, 'The endpoints.'), 400: BAD_QUERY }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getWebhookEndpoint',
  tags: TAGS,
  summary: 'Get a webhook endpoint',
  description: 'The endpoint without its secret; `enabled` is false after a 410 answer or a disable, with the reason.',
  ...scoped('read'),
  request: { params: EndpointParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(WebhookEndpointSchema, 'The endpoint.'),
    400: BAD_QUERY,
    404: notFound('webhook endpoint'),
  }),
});

const update = createRoute({
  method: 'patch',
  path: '/{id}',
  operationId: 'updateWebhookEndpoint',
  tags: TAGS,
  summary: 'Update a webhook endpoint',
  description:
    'Changes the fields sent: `url` (checked by the URL guard; pending deliveries go to the new URL), `events` (null = every type), `description`, ' +
    '`enabled` (`false` fails its pending deliveries; `true` re-enables, then retry failed deliveries by hand).',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: EndpointParams,
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: UpdateWebhookEndpointSchema, examples: UPDATE_ENDPOINT_EXAMPLES } },
    },
  },
  responses: v1Responses({
    200: jsonResponse(WebhookEndpointSchema, 'The updated endpoint.'),
    400: BAD_BODY,
    404: notFound('webhook endpoint'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteWebhookEndpoint',
  tags: TAGS,
  summary: 'Delete a webhook endpoint',
  description: 'Deletes the endpoint and its delivery log; its pending deliveries are dropped.',
  ...scoped('evaluations:write'),
  request: { params: EndpointParams, query: NoQuery },
  responses: v1Responses({ 204: { description: 'Deleted.' }, 400: BAD_QUERY, 404: notFound('webhook endpoint') }),
});

const rotate = createRoute({
  method: 'post',
  path: '/{id}/rotate-secret',
  operationId: 'rotateWebhookEndpointSecret',
  tags: TAGS,
  summary: "Rotate an endpoint's secret",
  description:
    'A new secret, **shown only here**. For 24 hours deliveries carry two signatures (new and previous secret, space-separated in `webhook-signature`), so the receiver can switch without losing events.',
  ...scoped('evaluations:write'),
  request: { params: EndpointParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(RotatedSecretSchema, 'The new secret.'),
    400: BAD_QUERY,
    404: notFound('webhook endpoint'),
  }),
});

const deliveries = createRoute({
  method: 'get',
  path: '/{id}/deliveries',
  operationId: 'listWebhookEndpointDeliveries',
  tags: TAGS,
  summary: "An endpoint's delivery log",
  description:
    "Deliveries to this endpoint, newest first, each with its attempts (status code or error, duration, the answer's first bytes), status and next try.",
  ...scoped('read'),
  request: { params: EndpointParams, query: EndpointDeliveriesQuery },
  responses: v1Responses({
    200: jsonResponse(DeliveryListSchema, 'A page of deliveries.'),
    400: errorResponse(['invalid_request'], 'an unknown or invalid query parameter (see `issues`).'),
    404: notFound('webhook endpoint'),
  }),
});

const retry = createRoute({
  method: 'post',
  path: '/{id}/deliveries/{deliveryId}/retry',
  operationId: 'retryWebhookEndpointDelivery',
  tags: TAGS,
  summary: 'Retry a delivery',
  description:
    'Sends the delivery again now, whatever its status, with a fresh retry window. Same event, same `webhook-id`: receivers deduplicate.',
  ...scoped('evaluations:write'),
  request: { params: DeliveryParams, query: NoQuery },
  responses: v1Responses({
    202: jsonResponse(DeliverySchema, 'Queued again.'),
    400: BAD_QUERY,
    404: notFound('webhook endpoint or delivery'),
    409: errorResponse(['endpoint_disabled'], 'the endpoint is disabled: re-enable it first.'),
  }),
});

/** Routes under `/v1/webhook-endpoints`. */
export const webhookEndpoints = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const { endpoint, replayed } = await registerEndpoint(c.env, c.var.tenant, c.req.valid('json'), key);
    setCreatedHeaders(c, `/v1/webhook-endpoints/${endpoint.id}`, replayed);
    return c.json(endpoint, 201);
  })
  .openapi(list, async (c) => c.json({ data: await listEndpoints(c.env, c.var.tenant) }, 200))
  .openapi(get, async (c) => c.json(await getEndpoint(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(update, async (c) =>
    c.json(await updateEndpoint(c.env, c.var.tenant, c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(remove, async (c) => {
    await deleteEndpoint(c.env, c.var.tenant, c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(rotate, async (c) => c.json(await rotateEndpointSecret(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(deliveries, async (c) => {
    const { id } = c.req.valid('param');
    await getEndpoint(c.env, c.var.tenant, id);
    return c.json(
      await listDeliveries(c.env, c.var.tenant, { ...c.req.valid('query'), endpoint: id }, c.var.auth.limits),
      200,
    );
  })
  .openapi(retry, async (c) => {
    const { id, deliveryId } = c.req.valid('param');
    await getEndpoint(c.env, c.var.tenant, id);
    return c.json(await retryDelivery(c.env, c.var.tenant, deliveryId, id), 202);
  });
