/**
 * @module
 * The HTTP API: `app` (mounted by the Worker entry, src/index.ts) and `AppType` for a typed client:
 *
 * ```ts
 * import { hc } from 'hono/client';
 * import type { AppType } from './src/api/app.js';
 * const client = hc<AppType>('https://tribunal.example.com', { headers: { Authorization: 'Bearer …' } });
 * const res = await client.v1.evaluations.$post({ json: { preset: 'chateval-faireval', task }, header: {} });
 * if (res.status === 202) console.log((await res.json()).id); // narrowed by status: errors are typed too
 * ```
 *
 * Every route is an `@hono/zod-openapi` definition, so the OpenAPI document (`GET /openapi.json`, ./openapi.ts)
 * is generated from the same definitions that validate requests and type this client. Public: `/health`,
 * `/openapi.json`, `/docs`. Everything under `/v1` needs a bearer token when `ADMIN_TOKEN` or `API_KEYS` is
 * set (./middleware/auth.ts), and each route one scope (`requireScope` in its definition); requests of a key
 * are rate-limited (./middleware/rate-limit.ts).
 * Errors are always `{ error: { code, message, issues? } }` (./errors.ts); a known path with another method
 * is 405 with `Allow` (./method-not-allowed.ts).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono, Schema } from 'hono';
import { onError, validationHook } from './errors.js';
import { notFoundOrMethodNotAllowed } from './method-not-allowed.js';
import { auth } from './middleware/auth.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { openApiDocument, openApiRoute } from './openapi.js';
import { admin } from './routes/admin.js';
import { evaluations } from './routes/evaluations.js';
import { metaEvaluations } from './routes/meta-evaluations.js';
import { methods } from './routes/methods.js';
import { service } from './routes/service.js';
import { usage } from './routes/usage.js';
import type { AppEnv } from './types.js';

/** The API as a hono app: `app.fetch(request, env, ctx)`. Validation failures go through {@link validationHook}. */
export const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

app.use(requestId());
// Who is calling (c.var.tenant, c.var.auth), then the key's request rate; each route checks its scope.
app.use('/v1/*', auth(), rateLimit());
app.onError(onError);
app.notFound(notFoundOrMethodNotAllowed(() => app.routes));

// Only its type is used (hono's RPC typing); building it registers the routes.
const _routes = app
  .route('/', service)
  .route('/v1/evaluations', evaluations)
  .route('/v1/methods', methods)
  .route('/v1/meta-evaluations', metaEvaluations)
  .route('/v1/usage', usage)
  .route('/v1/admin', admin)
  .openapi(openApiRoute, (c) => c.json(openApiDocument(app), 200));

/** True for the input type of {@link NoQuery}-style query schemas (`{}` or `{ [k: string]: never }`). */
type IsEmptyQuery<Q> = [keyof Q] extends [never] ? true : string extends keyof Q ? ([Q[string]] extends [never] ? true : false) : false;
/** A route's input without the query of a route that takes no query parameters. */
type WithoutEmptyQuery<I> = I extends { query: infer Q } ? (IsEmptyQuery<Q> extends true ? Omit<I, 'query'> : I) : I;
/**
 * The routes' schema as a client sees it: a route without query parameters asks for no `query` argument
 * (the server still refuses unknown ones with 400).
 */
type ClientSchema<S extends Schema> = { [P in keyof S]: { [M in keyof S[P]]: ClientEndpoint<S[P][M]> } };
/** Distributes over the endpoint's per-status variants, so a client still narrows responses by status. */
type ClientEndpoint<E> = E extends { input: infer I } ? Omit<E, 'input'> & { input: WithoutEmptyQuery<I> } : E;
type RoutesSchema = typeof _routes extends OpenAPIHono<AppEnv, infer S> ? S : never;

/** Route types for `hc<AppType>()`: inputs, and every documented response (errors included) by status. */
export type AppType = Hono<AppEnv, ClientSchema<RoutesSchema>>;
