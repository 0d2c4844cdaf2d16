/**
 * @module
 * `/v1/admin`: the operator's API for tenants (create, list, read, change limits and quotas, usage) and
 * API keys (create — the key is shown once —, list, read, revoke). Every route needs scope `admin`: the
 * deployment's `ADMIN_TOKEN`, or a managed key carrying `admin` (see ../tenants/auth.ts). The work is
 * in src/admin/service.ts; `npm run admin` (src/cli/admin.ts) drives these routes from a terminal.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ApiKeySchema,
  CreatedKeySchema,
  CreateKeyRequestSchema,
  CreateTenantRequestSchema,
  KeyIdSchema,
  KeyListSchema,
  PageQuery,
  TenantIdSchema,
  TenantListSchema,
  TenantSchema,
  UpdateTenantRequestSchema,
  UsageQuerySchema,
} from '../tenants/schemas.js';
import {
  changeTenant,
  createKey,
  createTenant,
  keyView,
  requireKnownTenant,
  requireTenant,
  tenantView,
} from './service.js';
import { usageResponse } from '../tenants/usage-routes.js';
import { getKey, listKeys, listTenants, revokeKey } from '../tenants/rows.js';
import { ApiError } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import { requireScope, scopeSecurity } from '../tenants/auth.js';
import type { TenantEnv } from '../tenants/auth.js';
import {
  BAD_QUERY,
  errorResponse,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import { USAGE_BAD_QUERY, USAGE_OK } from '../tenants/usage-routes.js';
import { carryOverShards, controlDb } from '../config/d1-shards.js';

const TenantParams = z.object({
  id: TenantIdSchema.openapi({ param: { description: 'Tenant id.' }, example: 'tn_k3v7q2mx5hd4wj6n' }),
});
const KeyParams = z.object({
  id: KeyIdSchema.openapi({ param: { description: 'Key id (not the key).' }, example: 'key_p4r2t5x6c3v5b7nm' }),
});

const BAD_BODY = errorResponse(
  ['invalid_json', 'invalid_request'],
  'the body, path or query fails its schema (see `issues`).',
);

/** What every admin route shares: its tag, the `admin` scope (enforced and documented). */
const ADMIN = { tags: ['admin'], middleware: [requireScope('admin')], security: scopeSecurity('admin') };
/** The same, for routes with a JSON body. */
const ADMIN_WITH_BODY = {
  tags: ['admin'],
  middleware: [requireScope('admin'), jsonBody()],
  security: scopeSecurity('admin'),
};

const createTenantRoute = createRoute({
  ...ADMIN_WITH_BODY,
  method: 'post',
  path: '/tenants',
  operationId: 'adminCreateTenant',
  summary: 'Create a tenant',
  description:
    'A customer (or team) whose keys, evaluations and usage are kept apart from every other; limits left out are the deployment defaults.',
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateTenantRequestSchema,
          examples: {
            capped: {
              summary: 'A tenant with quotas',
              value: {
                name: 'Acme Corp',
                limits: {
                  rateLimit: { requests: 120, windowSeconds: 60 },
                  maxRunning: 20,
                  monthlySpendCapUsd: 250,
                  monthlyEvaluationCap: 50_000,
                },
              },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    201: jsonResponse(TenantSchema, 'Created.'),
    400: BAD_BODY,
    409: errorResponse(['conflict'], 'a tenant with the given `id` exists.'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

const listTenantsRoute = createRoute({
  ...ADMIN,
  method: 'get',
  path: '/tenants',
  operationId: 'adminListTenants',
  summary: 'List tenants',
  description: "Tenants ordered by id, a page at a time (`limit`, then `after` = the previous page's `next`).",
  request: { query: z.object(PageQuery).strict() },
  responses: v1Responses({ 200: jsonResponse(TenantListSchema, 'A page of tenants.'), 400: BAD_QUERY }),
});

const getTenantRoute = createRoute({
  ...ADMIN,
  method: 'get',
  path: '/tenants/{id}',
  operationId: 'adminGetTenant',
  summary: 'Get a tenant',
  description:
    'The tenant, its limits, and `current`: evaluations and spend this month, evaluations running now, when the quotas reset.',
  request: { params: TenantParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(TenantSchema, 'The tenant.'), 400: BAD_QUERY, 404: notFound('tenant') }),
});

const updateTenantRoute = createRoute({
  ...ADMIN_WITH_BODY,
  method: 'patch',
  path: '/tenants/{id}',
  operationId: 'adminUpdateTenant',
  summary: 'Change a tenant',
  description:
    'Renames the tenant or changes its limits and quotas: fields given replace, a limit set to `null` goes back to the deployment default (quotas: no cap). ' +
    'Rates and caps apply from the next request or start; evaluations already running are not stopped.',
  request: {
    params: TenantParams,
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: UpdateTenantRequestSchema,
          examples: {
            raise: {
              summary: 'Raise the spend cap, default rate',
              value: { limits: { monthlySpendCapUsd: 500, rateLimit: null } },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    200: jsonResponse(TenantSchema, 'The tenant as changed.'),
    400: BAD_BODY,
    404: notFound('tenant'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

const tenantUsageRoute = createRoute({
  ...ADMIN,
  method: 'get',
  path: '/tenants/{id}/usage',
  operationId: 'adminGetTenantUsage',
  summary: "A tenant's usage",
  description:
    'The usage report of any tenant (also one with no `tenants` row that has made an evaluation or a billed call, e.g. an API_KEYS tenant): ' +
    'the same query and answer as `GET /v1/usage`. 404 for an id the deployment has never seen.',
  request: { params: TenantParams, query: UsageQuerySchema },
  responses: v1Responses({ 200: USAGE_OK, 400: USAGE_BAD_QUERY, 404: notFound('tenant') }),
});

const createKeyRoute = createRoute({
  ...ADMIN_WITH_BODY,
  method: 'post',
  path: '/keys',
  operationId: 'adminCreateKey',
  summary: 'Create an API key',
  description:
    'A new `trb_…` key for a tenant, shown in this answer only (Tribunal keeps its sha-256). Default scopes `evaluations:write` and `read`. ' +
    'Give each client its own key, so one can be revoked without the others.',
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateKeyRequestSchema,
          examples: {
            ci: {
              summary: 'A CI key that only reads',
              value: { tenantId: 'tn_k3v7q2mx5hd4wj6n', label: 'ci', scopes: ['read'] },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    201: jsonResponse(CreatedKeySchema, 'Created: the key and its record.'),
    400: BAD_BODY,
    404: notFound('tenant'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

const listKeysRoute = createRoute({
  ...ADMIN,
  method: 'get',
  path: '/keys',
  operationId: 'adminListKeys',
  summary: 'List API keys',
  description:
    'Keys (of one tenant with `tenantId`) ordered by id, a page at a time; revoked and expired keys included, with their status.',
  request: {
    query: z
      .object({
        ...PageQuery,
        tenantId: TenantIdSchema.optional().openapi({ param: { description: "Only this tenant's keys." } }),
      })
      .strict(),
  },
  responses: v1Responses({ 200: jsonResponse(KeyListSchema, 'A page of keys.'), 400: BAD_QUERY }),
});

const getKeyRoute = createRoute({
  ...ADMIN,
  method: 'get',
  path: '/keys/{id}',
  operationId: 'adminGetKey',
  summary: 'Get an API key',
  description: "The key's record: tenant, scopes, label, status and times (never the key itself).",
  request: { params: KeyParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(ApiKeySchema, 'The key.'), 400: BAD_QUERY, 404: notFound('key') }),
});

const revokeKeyRoute = createRoute({
  ...ADMIN,
  method: 'post',
  path: '/keys/{id}/revoke',
  operationId: 'adminRevokeKey',
  summary: 'Revoke an API key',
  description:
    'The key is refused from its next request on (keys are checked against D1 on every request; nothing caches them). Revoking again changes nothing.',
  request: { params: KeyParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(ApiKeySchema, 'The key, revoked.'),
    400: BAD_QUERY,
    404: notFound('key'),
  }),
});

/** What one carry-over call did (src/config/d1-carry-over.ts). */
const CarryOverSchema = z
  .object({
    moved: z
      .record(z.string(), z.number().int().min(0))
      .openapi({ description: 'Rows this call moved out of the control database into their shards, by table.' }),
    done: z.boolean().openapi({
      description: 'True once the control database holds no tenant row: later calls return at once. False: call again.',
    }),
  })
  .openapi('ShardCarryOver');

const carryOverRoute = createRoute({
  ...ADMIN,
  method: 'post',
  path: '/shards/carry-over',
  operationId: 'adminCarryOverShards',
  summary: 'Carry a one-database state over into the D1 shards',
  description:
    "After `D1_SHARDS` is raised from 0 on a deployment with data: moves each tenant's rows from the control database `DB` into its shard, at most `maxRows` records (with their transcripts, attempts, …) a call, until `done`. Idempotent and resumable: a repeat, or a call cut short, moves nothing twice and loses nothing (docs/scale.md). `npm run admin -- shards:carry-over` calls it until done.",
  request: {
    query: z
      .object({
        maxRows: z.coerce
          .number()
          .int()
          .min(1)
          .max(2000)
          .default(500)
          .openapi({
            param: { description: 'Records moved by this call at most, 1-2000 (default 500).' },
            example: 500,
          }),
      })
      .strict(),
  },
  responses: v1Responses({ 200: jsonResponse(CarryOverSchema, 'What this call moved.'), 400: BAD_QUERY }),
});

/** Next-page cursor: the last id when the page is full. */
function nextOf(items: readonly { id: string }[], limit: number): string | null {
  return items.length === limit ? (items.at(-1)?.id ?? null) : null;
}

/** Routes under `/v1/admin`. */
export const admin = new OpenAPIHono<TenantEnv>()
  .openapi(createTenantRoute, async (c) => {
    const t = await createTenant(c.env, c.req.valid('json'));
    c.header('Location', `/v1/admin/tenants/${t.id}`);
    return c.json(await tenantView(c.env, t), 201);
  })
  .openapi(listTenantsRoute, async (c) => {
    const { limit, after } = c.req.valid('query');
    const page = await listTenants(controlDb(c.env), { limit, after });
    return c.json(
      { tenants: await Promise.all(page.map((t) => tenantView(c.env, t))), next: nextOf(page, limit) },
      200,
    );
  })
  .openapi(getTenantRoute, async (c) =>
    c.json(await tenantView(c.env, await requireTenant(c.env, c.req.valid('param').id), true), 200),
  )
  .openapi(updateTenantRoute, async (c) =>
    c.json(await tenantView(c.env, await changeTenant(c.env, c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(tenantUsageRoute, async (c) => {
    await requireKnownTenant(c.env, c.req.valid('param').id);
    const r = await usageResponse(c.env, c.req.valid('param').id, c.req.valid('query'), c.req.header('Accept'));
    if ('csv' in r) return c.body(r.csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
    return c.json(r.json, 200);
  })
  .openapi(createKeyRoute, async (c) => {
    const { key, record } = await createKey(c.env, c.req.valid('json'));
    c.header('Location', `/v1/admin/keys/${record.id}`);
    // The key itself must not be cached anywhere on the way.
    c.header('Cache-Control', 'no-store');
    return c.json({ key, apiKey: keyView(record) }, 201);
  })
  .openapi(listKeysRoute, async (c) => {
    const { limit, after, tenantId } = c.req.valid('query');
    const page = await listKeys(controlDb(c.env), { tenantId, limit, after });
    return c.json({ keys: page.map((k) => keyView(k)), next: nextOf(page, limit) }, 200);
  })
  .openapi(getKeyRoute, async (c) => {
    const k = await getKey(controlDb(c.env), c.req.valid('param').id);
    if (!k) throw new ApiError(404, 'not_found', `no key "${c.req.valid('param').id}"`);
    return c.json(keyView(k), 200);
  })
  .openapi(carryOverRoute, async (c) =>
    c.json(await carryOverShards(c.env, Date.now(), c.req.valid('query').maxRows), 200),
  )
  .openapi(revokeKeyRoute, async (c) => {
    const k = await revokeKey(controlDb(c.env), c.req.valid('param').id, Date.now());
    if (!k) throw new ApiError(404, 'not_found', `no key "${c.req.valid('param').id}"`);
    return c.json(keyView(k), 200);
  });
