/**
 * @module
 * The app's answer when no route matches: 405 `method_not_allowed` with an `Allow` header when the path
 * exists under other methods (RFC 9110 §15.5.6), else 404 `not_found`. Both use the standard error body.
 */
import type { NotFoundHandler } from 'hono';
import { errorBody } from './errors.js';
import type { KernelEnv } from './kernel-env.js';

/** A registered route as hono lists it (`app.routes`). */
export interface RouteEntry {
  method: string;
  path: string;
}

/** A route path (`/v1/evaluations/:id/cancel`) as an exact, anchored pattern. */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Methods allowed on `path` (HEAD wherever GET is, as hono answers HEAD with the GET handler), sorted;
 * empty when no route has this path. Middleware entries (method `ALL`) do not count.
 */
export function allowedMethods(routes: readonly RouteEntry[], path: string): string[] {
  const methods = new Set<string>();
  for (const r of routes) {
    if (r.method === 'ALL' || !patternOf(r.path).test(path)) continue;
    methods.add(r.method);
    if (r.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}

/**
 * The not-found handler: 405 with `Allow` when the path exists under other methods, else 404.
 * @param routes the app's routes, read on each call (routes are registered after the handler is set).
 */
export function notFoundOrMethodNotAllowed<E extends KernelEnv>(
  routes: () => readonly RouteEntry[],
): NotFoundHandler<E> {
  return (c) => {
    const allowed = allowedMethods(routes(), c.req.path);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return c.json(
        errorBody(
          'method_not_allowed',
          `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(', ')}`,
        ),
        405,
      );
    }
    return c.json(errorBody('not_found', `no route for ${c.req.method} ${c.req.path}; see GET /docs`), 404);
  };
}
