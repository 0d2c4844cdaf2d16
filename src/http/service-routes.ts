/**
 * @module
 * Public service routes (no auth): `GET /health` (D1 reachable, and what `/v1` asks of a caller), `GET /docs`
 * (the API reference page) and `GET /docs/assets/{file}` (its scripts). `GET /openapi.json` is defined with the app itself (../app.ts),
 * since it documents every route.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { DOCS_ASSETS, DOCS_CSP, DOCS_HTML, DOCS_INIT_JS, SCALAR_ASSET } from './docs-page.js';
import type { KernelEnv } from './kernel-env.js';
import { log, messageOf } from '../log/log.js';
import { BAD_QUERY, errorResponse, jsonResponse, NoQuery } from './responses.js';
import { controlDb } from '../config/d1-shards.js';
import type { AuthMode } from '../config/vars.js';
import { authModeOf, ConfigError, configOf } from '../config/vars.js';

/** Answer to `GET /health`. */
export const HealthSchema = z
  .object({
    /** Always `tribunal`: lets a client (npm start) tell this service from another server on the port. */
    service: z.literal('tribunal'),
    status: z.enum(['ok', 'unavailable']),
    d1: z.enum(['ok', 'error']),
    /**
     * What `/v1` asks of a caller (see the description). Any request to `/v1` without a token shows it by its
     * status (401, 200, 503): said here so the viewer learns it without a refused request in the browser's console.
     */
    auth: z.enum(['key', 'open', 'closed']).openapi({
      description:
        'What /v1 asks of a caller: `key` (a bearer token), `open` (nothing: local development), `closed` (no token works: the deployment sets none, or its configuration is invalid: /v1 answers 503). A request to /v1 without a token shows as much by its status.',
    }),
  })
  .strict()
  .meta({ id: 'Health' });

/** The deployment's auth mode; `closed` when its configuration is invalid (every `/v1` request answers 503 then). */
function authOf(env: object): AuthMode {
  try {
    return authModeOf(configOf(env));
  } catch (e) {
    if (e instanceof ConfigError) return 'closed';
    throw e;
  }
}

const health = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  tags: ['service'],
  summary: 'Health',
  description: 'Checks D1 with a trivial query. No auth.',
  security: [],
  request: { query: NoQuery },
  responses: {
    200: jsonResponse(HealthSchema, 'Healthy.'),
    400: BAD_QUERY,
    503: jsonResponse(HealthSchema, 'D1 unreachable.'),
  },
});

const docs = createRoute({
  method: 'get',
  path: '/docs',
  operationId: 'getApiReference',
  tags: ['service'],
  summary: 'API reference page',
  description:
    'This reference as an HTML page (Scalar), with request examples and a client to try requests against this deployment. Served without any CDN.',
  security: [],
  request: { query: NoQuery },
  responses: {
    200: { description: 'HTML page.', content: { 'text/html': { schema: z.string() } } },
    400: BAD_QUERY,
  },
});

const docsAsset = createRoute({
  method: 'get',
  path: '/docs/assets/{file}',
  operationId: 'getApiReferenceAsset',
  tags: ['service'],
  summary: 'API reference page scripts',
  description:
    "The scripts `/docs` loads: `scalar.js` (Scalar's browser bundle, a static asset of this Worker) and `init.js` (its settings).",
  security: [],
  request: {
    params: z.object({
      file: z.enum(DOCS_ASSETS).openapi({ param: { description: 'Script name.' }, example: 'init.js' }),
    }),
    query: NoQuery,
  },
  responses: {
    200: { description: 'JavaScript.', content: { 'text/javascript': { schema: z.string() } } },
    400: BAD_QUERY,
    404: errorResponse(['not_found'], "the bundle is missing from this deployment's static assets."),
  },
});

/** Public service routes. */
export const service = new OpenAPIHono<KernelEnv>()
  .openapi(health, async (c) => {
    const auth = authOf(c.env);
    try {
      await controlDb(c.env).prepare('SELECT 1').first();
      return c.json({ service: 'tribunal', status: 'ok', d1: 'ok', auth } as const, 200);
    } catch (err) {
      log('error', 'api.health_d1_failed', { error: messageOf(err) });
      return c.json({ service: 'tribunal', status: 'unavailable', d1: 'error', auth } as const, 503);
    }
  })
  .openapi(docs, (c) => {
    c.header('Content-Security-Policy', DOCS_CSP);
    return c.html(DOCS_HTML);
  })
  .openapi(docsAsset, async (c) => {
    // Short: a deploy that moves to another Scalar version or settings shows up within minutes.
    c.header('Cache-Control', 'public, max-age=300');
    if (c.req.valid('param').file === 'init.js')
      return c.body(DOCS_INIT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    const asset = await c.env.ASSETS.fetch(new URL(SCALAR_ASSET, c.req.url));
    if (!asset.ok || asset.body === null) {
      log('error', 'api.docs_asset_missing', { status: asset.status });
      return c.json(
        { error: { code: 'not_found', message: 'the API reference bundle is not deployed with this Worker' } } as const,
        404,
      );
    }
    return c.body(asset.body, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
