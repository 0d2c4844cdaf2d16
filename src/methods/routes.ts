/**
 * @module
 * `GET /v1/methods`: every method and every preset with its config resolved against the method's
 * defaults, so callers see exactly what a preset runs.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import { METHODS, PRESETS, resolveMethodConfig } from '../engine/registry.js';
import { scoped } from '../tenants/auth.js';
import { MethodsResponseSchema } from '../evaluations/schemas.js';
import type { AppEnv } from '../http/types.js';
import { BAD_QUERY, jsonResponse, NoQuery, v1Responses } from '../http/responses.js';

type MethodsResponse = z.infer<typeof MethodsResponseSchema>;

let cached: MethodsResponse | null = null;

/** The methods list (built once per isolate: presets are static). */
export function methodsResponse(): MethodsResponse {
  cached ??= {
    methods: [...METHODS.values()].map((m) => ({ id: m.method, paper: m.paper, taskKinds: [...m.taskKinds] })),
    presets: PRESETS.map((p) => ({
      id: p.id,
      description: p.description,
      paper: p.paper,
      taskKind: p.taskKind,
      method: p.config.method,
      config: resolveMethodConfig(p.id, undefined),
    })),
  };
  return cached;
}

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listMethods',
  tags: ['methods'],
  summary: 'List methods and presets',
  description:
    'Each method with the paper it implements and the task kinds it accepts; each preset with its config resolved against the method defaults, ' +
    'its task kind and the paper section it reproduces. A preset id goes in `preset`; its config is the base that `config` overrides.',
  ...scoped('read'),
  request: { query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(MethodsResponseSchema, 'Methods and presets.'), 400: BAD_QUERY }),
});

/** Routes under `/v1/methods`. */
export const methods = new OpenAPIHono<AppEnv>().openapi(list, (c) => {
  c.header('Cache-Control', 'public, max-age=300');
  return c.json(methodsResponse(), 200);
});
