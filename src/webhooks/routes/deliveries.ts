/**
 * @module
 * `/v1/webhook-deliveries` (every delivery of the tenant, one-off URLs included, filterable by subject)
 * and `/v1/webhook-signing-secret` (the tenant's secret for one-off `webhook.url` callbacks).
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { scoped } from '../../tenants/auth.js';
import { BAD_QUERY, errorResponse, jsonResponse, notFound, NoQuery, v1Responses } from '../../http/responses.js';
import type { TenantEnv } from '../../tenants/auth.js';
import { listDeliveries, retryDelivery } from '../deliveries.js';
import {
  DeliveriesQuery,
  DeliveryListSchema,
  DeliverySchema,
  SigningSecretCreatedSchema,
  SigningSecretStatusSchema,
} from '../schemas.js';
import { createSigningSecret, rotateSigningSecret, signingSecretStatus } from '../signing-secret.js';

const TAGS = ['webhooks'];

const DeliveryParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { description: 'Delivery id (`dlv_…`).' }, example: 'dlv_0a1b2c3d4e5f60718293a4b5c6d7e8f9' }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listWebhookDeliveries',
  tags: TAGS,
  summary: 'The delivery log',
  description:
    "Every delivery of the tenant's events, newest first: to endpoints and to one-off `webhook.url`s (`endpoint=one-off`). " +
    'Filter by `subject` (an evaluation, batch or meta-evaluation id) to see what was sent about it.',
  ...scoped('read'),
  request: { query: DeliveriesQuery },
  responses: v1Responses({
    200: jsonResponse(DeliveryListSchema, 'A page of deliveries.'),
    400: errorResponse(['invalid_request'], 'an unknown or invalid query parameter (see `issues`).'),
  }),
});

const retry = createRoute({
  method: 'post',
  path: '/{id}/retry',
  operationId: 'retryWebhookDelivery',
  tags: TAGS,
  summary: 'Retry any delivery',
  description: 'As `POST /v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry`, also for one-off URLs.',
  ...scoped('evaluations:write'),
  request: { params: DeliveryParams, query: NoQuery },
  responses: v1Responses({
    202: jsonResponse(DeliverySchema, 'Queued again.'),
    400: BAD_QUERY,
    404: notFound('webhook delivery'),
    409: errorResponse(['endpoint_disabled'], 'its endpoint is disabled: re-enable it first.'),
  }),
});

/** Routes under `/v1/webhook-deliveries`. */
export const webhookDeliveries = new OpenAPIHono<TenantEnv>()
  .openapi(list, async (c) =>
    c.json(await listDeliveries(c.env, c.var.tenant, c.req.valid('query'), c.var.auth.limits), 200),
  )
  .openapi(retry, async (c) => c.json(await retryDelivery(c.env, c.var.tenant, c.req.valid('param').id), 202));

const getSecret = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getWebhookSigningSecret',
  tags: TAGS,
  summary: 'Signing secret status',
  description:
    'Whether the tenant has a signing secret for one-off `webhook.url` callbacks, and since when. The secret itself is never shown again.',
  ...scoped('read'),
  request: { query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(SigningSecretStatusSchema, 'Status.'), 400: BAD_QUERY }),
});

const createSecret = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createWebhookSigningSecret',
  tags: TAGS,
  summary: 'Create the signing secret',
  description:
    "Creates the tenant's signing secret (needed before any request carries `webhook: {url}`). The secret is **shown only in this answer**. " +
    'A tenant that has one gets 409 `conflict`: replacing it is `POST /v1/webhook-signing-secret/rotate`.',
  ...scoped('evaluations:write'),
  request: { query: NoQuery },
  responses: v1Responses({
    201: jsonResponse(SigningSecretCreatedSchema, 'The new secret.'),
    400: BAD_QUERY,
    409: errorResponse(['conflict'], 'the tenant already has a signing secret: rotate it instead.'),
  }),
});

const rotateSecret = createRoute({
  method: 'post',
  path: '/rotate',
  operationId: 'rotateWebhookSigningSecret',
  tags: TAGS,
  summary: 'Rotate the signing secret',
  description:
    "Replaces the tenant's signing secret. The new secret is **shown only in this answer**; the previous one still signs " +
    '(a second `v1,` signature) for 24 hours, so receivers can switch over.',
  ...scoped('evaluations:write'),
  request: { query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(SigningSecretCreatedSchema, 'The new secret.'),
    400: BAD_QUERY,
    404: errorResponse(['not_found'], 'the tenant has no signing secret yet: create it first.'),
  }),
});

/** Routes under `/v1/webhook-signing-secret`. */
export const webhookSigningSecret = new OpenAPIHono<TenantEnv>()
  .openapi(getSecret, async (c) => c.json(await signingSecretStatus(c.env, c.var.tenant), 200))
  .openapi(createSecret, async (c) => c.json(await createSigningSecret(c.env, c.var.tenant), 201))
  .openapi(rotateSecret, async (c) => c.json(await rotateSigningSecret(c.env, c.var.tenant), 200));
