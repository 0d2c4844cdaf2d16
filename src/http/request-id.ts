/**
 * @module
 * Request id middleware: a random id per request, in `c.var.requestId` and the `X-Request-Id` header.
 */
import { createMiddleware } from 'hono/factory';
import type { KernelEnv } from './kernel-env.js';

/** Sets `requestId` (a UUID) and echoes it as `X-Request-Id` on every response, errors included. */
export const requestId = () =>
  createMiddleware<KernelEnv>(async (c, next) => {
    const id = crypto.randomUUID();
    c.set('requestId', id);
    await next();
    c.header('X-Request-Id', id);
  });
