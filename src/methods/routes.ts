/**
 * @module
 * `GET /v1/methods`: every method and every preset with its config resolved against the method's
 * defaults, so callers see exactly what a preset runs.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { METHODS, PRESETS, resolveMethodConfig } from '../engine/registry.js';
import { scoped } from '../tenants/auth.js';
import { fullConfigField } from './method-config.js';
import type { TenantEnv } from '../tenants/auth.js';
import { BAD_QUERY, jsonResponse, NoQuery, v1Responses } from '../http/responses.js';

/** A preset with its config resolved against the method's defaults. */
export const PresetInfoSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    /** The paper and section it reproduces. */
    paper: z.string(),
    taskKind: z.enum(['pairwise', 'pointwise', 'trajectory']),
    method: z.string(),
    config: fullConfigField('The full config this preset runs (defaults filled).'),
  })
  .strict()
  .meta({ id: 'PresetInfo' });

/** A judge method. */
export const MethodInfoSchema = z
  .object({
    id: z.string(),
    paper: z.string(),
    /** The task kinds it judges: a method that scores pointwise tasks also judges trajectories (judged so). */
    taskKinds: z.array(z.enum(['pairwise', 'pointwise', 'trajectory'])),
  })
  .strict()
  .meta({ id: 'MethodInfo' });

/** Answer to `GET /v1/methods`. */
export const MethodsResponseSchema = z
  .object({ methods: z.array(MethodInfoSchema), presets: z.array(PresetInfoSchema) })
  .strict()
  .meta({ id: 'MethodsResponse' });

type MethodsResponse = z.infer<typeof MethodsResponseSchema>;

let cached: MethodsResponse | null = null;

/** The methods list (built once per isolate: presets are static). */
export function methodsResponse(): MethodsResponse {
  cached ??= {
    methods: [...METHODS.values()].map((m) => ({
      id: m.method,
      paper: m.paper,
      taskKinds: m.taskKinds.includes('pointwise') ? [...m.taskKinds, 'trajectory' as const] : [...m.taskKinds],
    })),
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
export const methods = new OpenAPIHono<TenantEnv>().openapi(list, (c) => {
  c.header('Cache-Control', 'public, max-age=300');
  return c.json(methodsResponse(), 200);
});
