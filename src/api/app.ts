/**
 * @module
 * The HTTP API: `app` (mounted by the Worker entry, src/index.ts) and `AppType` for a typed client:
 *
 * ```ts
 * import { hc } from 'hono/client';
 * import type { AppType } from './src/api/app.js';
 * const client = hc<AppType>('https://tribunal.example.com', { headers: { Authorization: 'Bearer …' } });
 * const res = await client.v1.evaluations.$post({ json: { preset: 'chateval-faireval', task } });
 * ```
 *
 * Public: `/health`, `/openapi.json`, `/docs`. Everything under `/v1` needs a bearer token when the
 * `API_KEYS` secret is set. Errors are always `{ error: { code, message, issues? } }` (./errors.ts).
 */
import { Hono } from 'hono';
import { notFound, onError } from './errors.js';
import { auth } from './middleware/auth.js';
import { requestId } from './middleware/request-id.js';
import { service } from './routes/docs.js';
import { evaluations } from './routes/evaluations.js';
import { metaEvaluations } from './routes/meta-evaluations.js';
import { methods } from './routes/methods.js';
import type { AppEnv } from './types.js';

/** The API as a hono app: `app.fetch(request, env, ctx)`. */
export const app = new Hono<AppEnv>();

app.use(requestId());
app.use('/v1/*', auth());
app.onError(onError);
app.notFound(notFound);

// Only its type is used (hono's RPC typing); building it registers the routes.
const _routes = app
  .route('/', service)
  .route('/v1/evaluations', evaluations)
  .route('/v1/methods', methods)
  .route('/v1/meta-evaluations', metaEvaluations);

/** Route types for `hc<AppType>()`. */
export type AppType = typeof _routes;
