/**
 * @module
 * The outbound events in the OpenAPI document's `webhooks` section (OpenAPI 3.1): what Tribunal POSTs to
 * a receiver for each event type, with the Standard Webhooks headers. Registered by the composition (src/app.ts).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import type { WebhookEventType } from './outbox.js';
import { WEBHOOK_EVENT_TYPES } from './outbox.js';

const HEADERS = z.object({
  'webhook-id': z.string().openapi({
    description: 'The event id: the same on every attempt, so receivers deduplicate.',
    example: 'msg_2f1e0d9c8b7a69584736251403f2e1d0',
  }),
  'webhook-timestamp': z.string().openapi({
    description: 'Unix seconds of this attempt; refuse values far from now (e.g. 5 minutes) to stop replays.',
    example: '1767225600',
  }),
  'webhook-signature': z.string().openapi({
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the `whsec_` secret; two space-separated signatures during a secret rotation.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

/** What the document says about one event type: its payload's `data` and when it is sent. */
export interface WebhookEventDoc {
  /** The schema of the payload's `data`. */
  data: z.ZodType;
  /** When the event is sent, and what `data` holds. */
  what: string;
}

/** The camel-cased operation id of an event's webhook: `evaluation.succeeded` → `evaluationSucceededEvent`. */
function operationIdOf(type: WebhookEventType): string {
  return `${type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Event`;
}

/**
 * Registers one webhook per event type, in {@link WEBHOOK_EVENT_TYPES} order. Each producer documents its
 * own events (`docs`: the evaluation's and the batch's, put together by the composition, src/app.ts).
 * @throws Error when a type has no documentation (a producer forgot its events).
 */
export function registerWebhookEvents(
  registry: OpenAPIHono['openAPIRegistry'],
  docs: Partial<Record<WebhookEventType, WebhookEventDoc>>,
): void {
  for (const type of WEBHOOK_EVENT_TYPES) {
    const doc = docs[type];
    if (!doc) throw new Error(`webhook event ${type} has no documentation`);
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: operationIdOf(type),
      tags: ['webhooks'],
      summary: `Event ${type}`,
      description:
        `${doc.what} POSTed to every enabled endpoint subscribed to \`${type}\` (signed with its secret) and to the request's one-off \`webhook.url\` (signed with the tenant's signing secret). ` +
        'Answer 2xx within 10 s; anything else, a timeout or a network error is retried with backoff for about a day; 410 disables the endpoint. Redirects are not followed.',
      request: {
        headers: HEADERS,
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z
                .object({
                  type: z.literal(type),
                  timestamp: z.string().openapi({ description: 'When the event happened (ISO 8601).' }),
                  data: doc.data,
                })
                .strict(),
            },
          },
        },
      },
      responses: {
        200: { description: 'Received (any 2xx).' },
        410: { description: 'Gone: Tribunal disables the endpoint and stops sending to it.' },
        500: { description: 'Any other answer: the delivery is retried with backoff.' },
      },
    });
  }
}
