/**
 * @module
 * The webhook API's zod schemas (endpoints, deliveries, the tenant's signing secret), used by the route
 * definitions (./routes/) for validation and the OpenAPI document. Times are ISO 8601 UTC.
 */
import { z } from '@hono/zod-openapi';
import { WEBHOOK_EVENT_TYPES, WebhookEventTypeSchema } from './outbox.js';
import { MAX_URL_CHARS } from './url-guard.js';

/** Most endpoints per tenant (20): each event fans out to every subscribed endpoint in one transaction. */
export const MAX_ENDPOINTS_PER_TENANT = 20;

/** Longest endpoint description, characters (500). */
export const MAX_DESCRIPTION_CHARS = 500;

/** A receiver URL as sent (the URL guard checks it after the schema: 400 `url_not_allowed`). */
export const WebhookUrlSchema = z
  .string()
  .min(1)
  .max(MAX_URL_CHARS)
  .openapi({
    description:
      'An `https` URL of a public host. Refused with 400 `url_not_allowed` naming the rule: other schemes (plain `http` only to loopback when the deployment sets ' +
      '`WEBHOOK_ALLOW_LOOPBACK=true`), credentials in the URL, IP literals in private, loopback, link-local, CGNAT, multicast, reserved or cloud-metadata ranges (any IPv4 notation, IPv4-mapped IPv6 included).',
    example: 'https://hooks.example.com/tribunal',
  });

const eventsField = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((a) => new Set(a).size === a.length, 'event types must be unique')
  .openapi({
    description: 'Event types to receive; absent or null = every type.',
    example: ['evaluation.succeeded', 'evaluation.failed'],
  });

/** Body of `POST /v1/webhook-endpoints`. */
export const CreateWebhookEndpointSchema = z
  .object({
    url: WebhookUrlSchema,
    events: eventsField.optional(),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest' });
/** Body of `POST /v1/webhook-endpoints`. */
export type CreateWebhookEndpoint = z.infer<typeof CreateWebhookEndpointSchema>;

/** Body of `PATCH /v1/webhook-endpoints/{id}`: the fields to change. */
export const UpdateWebhookEndpointSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: eventsField.nullable().optional(),
    description: z.string().max(MAX_DESCRIPTION_CHARS).nullable().optional(),
    enabled: z
      .boolean()
      .optional()
      .openapi({ description: '`true` re-enables an endpoint disabled by a 410 or by hand; `false` disables it.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'send at least one field to change')
  .meta({ id: 'UpdateWebhookEndpointRequest' });
/** Body of `PATCH /v1/webhook-endpoints/{id}`. */
export type UpdateWebhookEndpoint = z.infer<typeof UpdateWebhookEndpointSchema>;

/** An endpoint as the API shows it (never its secret, except in the answer that creates or rotates it). */
export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(WebhookEventTypeSchema).nullable(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    /** Why it is disabled (e.g. the receiver answered 410 Gone). */
    disabledReason: z.string().nullable(),
    disabledAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()
  .meta({ id: 'WebhookEndpoint' });
/** An endpoint as the API shows it. */
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

const secretField = z.string().openapi({
  description:
    'The signing secret (`whsec_` + base64), shown only in this answer: store it now. Verify deliveries with it (Standard Webhooks).',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

/** Answer to `POST /v1/webhook-endpoints`: the endpoint and its secret, shown once. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: secretField }).meta({
  id: 'CreatedWebhookEndpoint',
});

/** Answer to `GET /v1/webhook-endpoints`. */
export const WebhookEndpointListSchema = z
  .object({ data: z.array(WebhookEndpointSchema) })
  .strict()
  .meta({ id: 'WebhookEndpointList' });

/** Answer to a secret rotation: the new secret, shown once; the previous one keeps signing until `previousSecretExpiresAt`. */
export const RotatedSecretSchema = z
  .object({ id: z.string(), secret: secretField, previousSecretExpiresAt: z.string().nullable() })
  .strict()
  .meta({ id: 'RotatedSecret' });

/** Lifecycle of a delivery: `pending` (retrying) → `delivered` | `failed`. */
export const DeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']).meta({ id: 'WebhookDeliveryStatus' });

/** One attempt of a delivery. */
export const DeliveryAttemptSchema = z
  .object({
    attempt: z.number().int().positive(),
    at: z.string(),
    /** The receiver's status code; null when it did not answer (timeout, network error, URL refused). */
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int().nonnegative(),
    /** The first bytes of the receiver's answer (at most 1 KiB). */
    responseExcerpt: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'WebhookDeliveryAttempt' });

/** One event's delivery to one receiver, with its attempts. */
export const DeliverySchema = z
  .object({
    id: z.string(),
    /** The event id: the `webhook-id` header of every attempt. */
    eventId: z.string(),
    eventType: WebhookEventTypeSchema,
    /** The evaluation, batch or meta-evaluation the event is about. */
    subjectId: z.string(),
    /** The endpoint, or null for a one-off `webhook.url`. */
    endpointId: z.string().nullable(),
    /** The one-off URL (null for an endpoint: see the endpoint's `url`). */
    url: z.string().nullable(),
    status: DeliveryStatusSchema,
    attempts: z.number().int().nonnegative(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    attemptLog: z.array(DeliveryAttemptSchema),
  })
  .strict()
  .meta({ id: 'WebhookDelivery' });
/** A delivery as the API shows it. */
export type Delivery = z.infer<typeof DeliverySchema>;

/** A page of deliveries, newest first. */
export const DeliveryListSchema = z
  .object({
    data: z.array(DeliverySchema),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last.' }),
  })
  .strict()
  .meta({ id: 'WebhookDeliveryList' });

const limitParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .default(20)
  .openapi({ param: { description: 'Page size, 1-100 (default 20).' }, example: 20 });
const cursorParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .openapi({ param: { description: "The previous page's `nextCursor`." } });
const statusParam = DeliveryStatusSchema.optional().openapi({
  param: { description: 'Only deliveries in this status.' },
});

/** Query of `GET /v1/webhook-endpoints/{id}/deliveries`. */
export const EndpointDeliveriesQuery = z
  .object({ status: statusParam, limit: limitParam, cursor: cursorParam })
  .strict();

/** Query of `GET /v1/webhook-deliveries`. */
export const DeliveriesQuery = z
  .object({
    status: statusParam,
    subject: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({
        param: { description: 'Only deliveries of events about this evaluation, batch or meta-evaluation id.' },
      }),
    endpoint: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ param: { description: 'Only deliveries to this endpoint (`one-off` for one-off URLs).' } }),
    limit: limitParam,
    cursor: cursorParam,
  })
  .strict();

/** Answer to `GET /v1/webhook-signing-secret`. */
export const SigningSecretStatusSchema = z
  .object({
    exists: z.boolean(),
    createdAt: z.string().nullable(),
    previousSecretExpiresAt: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'WebhookSigningSecretStatus' });

/** Answer to `POST /v1/webhook-signing-secret`: the new secret, shown once. */
export const SigningSecretCreatedSchema = z
  .object({ secret: secretField, createdAt: z.string(), previousSecretExpiresAt: z.string().nullable() })
  .strict()
  .meta({ id: 'WebhookSigningSecret' });

/** A one-off callback on a request (`webhook: {url}`), signed with the tenant's signing secret. */
export const OneOffWebhookSchema = z
  .object({ url: WebhookUrlSchema })
  .strict()
  .meta({
    id: 'OneOffWebhook',
    description:
      "Also POST this request's events (`evaluation.succeeded` | `failed` | `cancelled`) to `url`, signed (Standard Webhooks) with the tenant's signing secret: " +
      'create it once with `POST /v1/webhook-signing-secret` (400 `signing_secret_missing` otherwise).',
  });
