/**
 * @module
 * What the annotation-queue routes share (./routes.ts, ./exchange-routes.ts): their tag, the path parameters
 * (`{id}`, `{itemId}`), the `x-annotator` header, and who the caller labels as.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { invalidRequest } from '../http/errors.js';
import type { TenantEnv } from '../tenants/auth.js';
import { ANNOTATOR, QUEUE_ID } from './schemas.js';

/** The OpenAPI tag of every annotation-queue route. */
export const TAGS = ['annotation-queues'];

/** Who labels when neither the header nor the body says and the key has no id. */
const ANONYMOUS = 'anonymous';

/** The `{id}` path parameter: a queue id (`aq_` and 32 hex characters). */
export const QueueParams = z.object({
  id: z
    .string()
    .regex(QUEUE_ID, 'a queue id: aq_ and 32 hex characters')
    .openapi({ param: { description: 'Queue id (`aq_…`).' }, example: 'aq_5d0c9e1f2a3b4c5d6e7f8a9b0c1d2e3f' }),
});

/** `{id}` and `{itemId}`: an item's id in the queue, 1-256 characters. */
export const ItemParams = QueueParams.extend({
  itemId: z
    .string()
    .min(1)
    .max(256)
    .openapi({ param: { description: "The item's id in the queue." }, example: 'ticket-17' }),
});

/** The optional `x-annotator` header: who labels under a shared key (1-128 printable ASCII characters). */
export const AnnotatorHeader = z.object({
  'x-annotator': z
    .string()
    .regex(ANNOTATOR, 'an annotator: 1-128 printable ASCII characters, not starting or ending with a space')
    .optional()
    .openapi({
      param: { description: 'Who is labelling, when several people share one key. Default: the key id.' },
      example: 'ana',
    }),
});

/** The caller's annotator: the header, else the key id; a body's `annotator` must agree with the header. */
export function annotatorOf(c: Context<TenantEnv>, header: string | undefined, inBody?: string): string {
  if (inBody !== undefined && header !== undefined && inBody !== header)
    throw invalidRequest(
      [{ path: 'annotator', message: `"${inBody}" differs from the x-annotator header "${header}"; send one` }],
      'request body',
    );
  return inBody ?? header ?? c.var.auth.keyId ?? ANONYMOUS;
}
