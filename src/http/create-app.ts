/**
 * @module
 * The kernel's app factory: an `OpenAPIHono` app with what every route shares and no route of its own: the validation hook (a failed zod check is 400 `invalid_request` naming each field), the
 * request id, the error handler (./errors.ts) and the 404 / 405 answer (./method-not-allowed.ts). The
 * composition (src/app.ts) mounts the features' routes on it.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { onError, validationHook } from './errors.js';
import { notFoundOrMethodNotAllowed } from './method-not-allowed.js';
import { requestId } from './request-id.js';
import type { KernelEnv } from './kernel-env.js';

/** A new app for the environment `E` (the kernel's, extended by the features' variables). */
export function createApp<E extends KernelEnv>(): OpenAPIHono<E> {
  const app = new OpenAPIHono<E>({ defaultHook: validationHook });
  app.use(requestId());
  app.onError(onError);
  app.notFound(notFoundOrMethodNotAllowed(() => app.routes));
  return app;
}
