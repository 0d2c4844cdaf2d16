/**
 * @module
 * `/v1/exports`: the tenant's export settings. Today one, `otlp`: each finished evaluation made of a trace sent as
 * an OTLP `gen_ai.evaluation.result` log record to the tenant's collector (./delivery.ts). Handlers are thin; the
 * work is in ./service.ts.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import type { TenantEnv } from '../tenants/auth.js';
import { jsonBody } from '../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import { ExportsRequestSchema, ExportsSchema } from './schemas.js';
import { getExports, putExports } from './service.js';

const TAGS = ['exports'];

/** Named examples of `PUT /v1/exports` bodies. */
export const PUT_EXPORTS_EXAMPLES = {
  otlp: {
    summary: 'Verdicts to a collector',
    value: {
      otlp: {
        endpoint: 'https://otlp.example.com',
        headers: { authorization: 'Bearer <the collector key>' },
        protocol: 'http/protobuf',
      },
    },
  },
  off: { summary: 'Stop exporting', value: { otlp: null } },
};

const get = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getExports',
  tags: TAGS,
  summary: 'Read the export settings',
  description:
    "The tenant's OTLP export (header names only: their values are never shown) with what its last delivery attempts came to, or `otlp: null`.",
  ...scoped('read'),
  request: { query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(ExportsSchema, 'The export settings.'), 400: BAD_QUERY }),
});

const put = createRoute({
  method: 'put',
  path: '/',
  operationId: 'putExports',
  tags: TAGS,
  summary: 'Set the export settings',
  description:
    'Replaces the OTLP export (`otlp: null` removes it). From then on each evaluation made of a trace (`source`: by a monitor or by hand) that ends ' +
    'succeeded or failed is POSTed once to `<endpoint>/v1/logs` as an OTLP log record `gen_ai.evaluation.result` (GenAI semantic conventions) ' +
    "with the judged span's trace and span ids. A 5xx, 408, 429, timeout or network error is retried with backoff for about a day; another " +
    'answer fails the delivery. The headers are secrets: send them again with each `PUT`.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: ExportsRequestSchema, examples: PUT_EXPORTS_EXAMPLES } },
    },
  },
  responses: v1Responses({
    200: jsonResponse(ExportsSchema, 'The export settings now.'),
    400: errorResponse(
      ['invalid_json', 'invalid_request', 'url_not_allowed'],
      'the body fails its schema (see `issues`: a header name, a value, a reserved header), or the URL guard refuses `otlp.endpoint` (the message names the rule).',
    ),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

/** Routes under `/v1/exports`. */
export const exportsRoutes = new OpenAPIHono<TenantEnv>()
  .openapi(get, async (c) => c.json(await getExports(c.env, c.var.tenant), 200))
  .openapi(put, async (c) => c.json(await putExports(c.env, c.var.tenant, c.req.valid('json')), 200));
