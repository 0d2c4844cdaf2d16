/**
 * @module
 * `/v1/rubrics`: create a rubric (version 1), add immutable versions, list and read rubrics and versions,
 * move and remove tags, archive. Versions never change: PUT, PATCH or DELETE on a version is 405. Handlers
 * stay thin; the work is in ./service.ts. The golden check (`…/versions/{version}/check`) is the
 * rubric-checks capability's (src/rubric-checks/), mounted at the same base.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { jsonBody } from '../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  IDEMPOTENT_REPLAYED,
  IdempotencyHeaderSchema,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
  setCreatedHeaders,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { deleteTag } from './tag-rows.js';
import { RUBRIC_EXAMPLES } from './examples.js';
import { TRAJECTORY_RUBRIC_EXAMPLES } from './templates.js';
import {
  CreateRubricRequestSchema,
  CreateRubricVersionRequestSchema,
  ListRubricsQuery,
  ListVersionsQuery,
  PutTagRequestSchema,
  RubricCreatedSchema,
  RubricIdParams,
  RubricListSchema,
  RubricSchema,
  RubricTagParams,
  RubricTagSchema,
  RubricVersionListSchema,
  RubricVersionParams,
  RubricVersionSchema,
} from './schemas.js';
import {
  addVersion,
  archive,
  createRubric,
  listRubricsView,
  listVersionsView,
  requireRubric,
  setTag,
  viewRubric,
  viewVersion,
} from './service.js';
import { tenantDb } from '../config/d1-shards.js';

const TAGS = ['rubrics'];

const created = {
  ...jsonResponse(
    RubricCreatedSchema,
    'Created (also the answer to an idempotent replay): the rubric with its new version.',
  ),
  headers: z.object({
    Location: z.string().openapi({ description: "The new version's URL (relative)." }),
    'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
  }),
};

const bodyErrors = (why: string) => ({
  400: errorResponse(['invalid_json', 'invalid_request'], why),
  413: PAYLOAD_TOO_LARGE,
  415: NOT_JSON,
});

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createRubric',
  tags: TAGS,
  summary: 'Create a rubric',
  description:
    'Your own criteria as a resource: `{name, kind, criteria, scale?, aspects?, evaluationSteps?, examples?}` becomes version 1 of a new rubric `rb_…`. ' +
    '`criteria` replaces each preset template\'s criteria slot and nothing else (docs/fidelity.md, "Your own criteria"); `aspects` (pointwise, up to 16) are scored ' +
    'one by one with a weighted overall; `examples` are golden items `{task, expected, expectedAspects?, note?}` that `POST …/versions/{n}/check` runs.\n\n' +
    'Name it in any judging request as `rubric: "rb_…"` (latest), `"rb_…@1"` or `"rb_…#prod"`. Send an `Idempotency-Key` to make a retry safe.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateRubricRequestSchema,
          examples: { ...RUBRIC_EXAMPLES, ...TRAJECTORY_RUBRIC_EXAMPLES },
        },
      },
    },
  },
  responses: v1Responses({
    201: created,
    ...bodyErrors(
      'the body fails its schema (see `issues`, each naming its field): empty or oversized criteria, a scale with max ≤ min, weights that are not positive, duplicate aspect names, more than 16 aspects, an example of the other kind or off the scale.',
    ),
    409: errorResponse(['idempotency_conflict'], 'the `Idempotency-Key` was used with a different body.'),
  }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listRubrics',
  tags: TAGS,
  summary: 'List rubrics',
  description:
    "The tenant's rubrics, newest first, with their tags; page with `cursor` (the previous page's `nextCursor`).",
  ...scoped('read'),
  request: { query: ListRubricsQuery },
  responses: v1Responses({
    200: jsonResponse(RubricListSchema, 'One page of rubrics.'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one this API returned.',
    ),
  }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getRubric',
  tags: TAGS,
  summary: 'Get a rubric',
  description: 'Its name, kind, latest version, tags (with their minimum agreement) and whether it is archived.',
  ...scoped('read'),
  request: { params: RubricIdParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(RubricSchema, 'The rubric.'), 400: BAD_QUERY, 404: notFound('rubric') }),
});

const addVersionRoute = createRoute({
  method: 'post',
  path: '/{id}/versions',
  operationId: 'createRubricVersion',
  tags: TAGS,
  summary: 'Add a version',
  description:
    'A whole new rubric body becomes the next version (latest + 1); versions never change afterwards. `kind` may be left out (it cannot change); ' +
    '`name` renames the rubric. `rb_…` alone names the new version from now on; tags stay where they point until moved. An archived rubric takes no new version (409).',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: RubricIdParams,
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateRubricVersionRequestSchema,
          examples: {
            stricter: {
              summary: 'Stricter criteria',
              value: {
                criteria:
                  'Which reply follows our refund policy better: refunds within 30 days of delivery, store credit after that. The better reply quotes the rule.',
              },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    201: created,
    ...bodyErrors("the body fails its schema (see `issues`), or its `kind` is not the rubric's."),
    404: notFound('rubric'),
    409: errorResponse(
      ['idempotency_conflict', 'rubric_archived'],
      'the `Idempotency-Key` was used with a different body, or the rubric is archived.',
    ),
  }),
});

const listVersions = createRoute({
  method: 'get',
  path: '/{id}/versions',
  operationId: 'listRubricVersions',
  tags: TAGS,
  summary: 'List versions',
  description:
    "The rubric's versions, newest first, each with its tags, steps and check (examples counted, not listed).",
  ...scoped('read'),
  request: { params: RubricIdParams, query: ListVersionsQuery },
  responses: v1Responses({
    200: jsonResponse(RubricVersionListSchema, 'One page of versions.'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one this API returned.',
    ),
    404: notFound('rubric'),
  }),
});

const getVersion = createRoute({
  method: 'get',
  path: '/{id}/versions/{version}',
  operationId: 'getRubricVersion',
  tags: TAGS,
  summary: 'Get a version',
  description:
    "The version as created (criteria, scale, aspects, steps, examples, its hash), its tags, the evaluation steps G-Eval's auto-CoT wrote for it (`steps`) and its golden check " +
    "(`check`, with the agreement once every example ended). Versions are immutable: PUT, PATCH and DELETE are 405. Archived rubrics' versions stay readable.",
  ...scoped('read'),
  request: { params: RubricVersionParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(RubricVersionSchema, 'The version.'),
    400: BAD_QUERY,
    404: notFound('rubric or version'),
  }),
});

const putTag = createRoute({
  method: 'put',
  path: '/{id}/tags/{tag}',
  operationId: 'putRubricTag',
  tags: TAGS,
  summary: 'Point a tag at a version',
  description:
    'Creates the tag or moves it; `rb_…#<tag>` names that version from the next request on (a trigger naming it follows at its next delivery). ' +
    "`minAgreement` sets the tag's policy (absent: kept; null: none): the tag moves only to a version whose golden check has that figure at least that high, else 409 naming the figure.",
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: RubricTagParams,
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: PutTagRequestSchema,
          examples: {
            move: { summary: 'Move the tag', value: { version: 2 } },
            guarded: {
              summary: 'Move it, and require a checked agreement from now on',
              value: { version: 2, minAgreement: { metric: 'accuracy', min: 0.8 } },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    200: jsonResponse(RubricTagSchema, 'The tag as it is now.'),
    ...bodyErrors(
      "the body or the path fails its schema (see `issues`), or the metric is not one of this kind's check.",
    ),
    404: notFound('rubric or version'),
    409: errorResponse(
      ['agreement_below_minimum', 'rubric_archived'],
      "the version's golden check is missing, running or below the tag's `minAgreement` (the message names the figure), or the rubric is archived.",
    ),
  }),
});

const removeTag = createRoute({
  method: 'delete',
  path: '/{id}/tags/{tag}',
  operationId: 'deleteRubricTag',
  tags: TAGS,
  summary: 'Remove a tag',
  description: '`rb_…#<tag>` is a 404 from then on (a trigger naming it fails its next delivery). Idempotent.',
  ...scoped('evaluations:write'),
  request: { params: RubricTagParams, query: NoQuery },
  responses: v1Responses({
    204: { description: 'Removed (also when there was no such tag).' },
    400: BAD_QUERY,
    404: notFound('rubric'),
  }),
});

const archiveRoute = createRoute({
  method: 'post',
  path: '/{id}/archive',
  operationId: 'archiveRubric',
  tags: TAGS,
  summary: 'Archive a rubric',
  description:
    'Every version stays readable (and every evaluation that used one keeps its record). From now on `rb_…` and `rb_…#tag` are refused with 409 `rubric_archived`; ' +
    '`rb_…@n` still judges (a pinned version keeps working). No new version or tag move. Idempotent.',
  ...scoped('evaluations:write'),
  request: { params: RubricIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(RubricSchema, 'The archived rubric.'),
    400: BAD_QUERY,
    404: notFound('rubric'),
  }),
});

const base = new OpenAPIHono<TenantEnv>();
// Versions are immutable: a method that would change one is refused with a reason, before routing finds no route.
base.use('/:id/versions/:version', async (c, next) => {
  if (['PUT', 'PATCH', 'DELETE'].includes(c.req.method)) {
    c.header('Allow', 'GET, HEAD');
    throw new ApiError(
      405,
      'method_not_allowed',
      `${c.req.method} is not allowed on a rubric version: versions are immutable; add one with POST /v1/rubrics/{id}/versions`,
    );
  }
  await next();
});

/** Routes under `/v1/rubrics`. */
export const rubrics = base
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const { body, replayed } = await createRubric(c.env, c.var.tenant, c.req.valid('json'), key);
    setCreatedHeaders(c, `/v1/rubrics/${body.id}/versions/${body.version}`, replayed);
    return c.json(body, 201);
  })
  .openapi(list, async (c) => c.json(await listRubricsView(c.env, c.var.tenant, c.req.valid('query')), 200))
  .openapi(get, async (c) => c.json(await viewRubric(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(addVersionRoute, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const { body, replayed } = await addVersion(c.env, c.var.tenant, c.req.valid('param').id, c.req.valid('json'), key);
    setCreatedHeaders(c, `/v1/rubrics/${body.id}/versions/${body.version}`, replayed);
    return c.json(body, 201);
  })
  .openapi(listVersions, async (c) =>
    c.json(await listVersionsView(c.env, c.var.tenant, c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(getVersion, async (c) => {
    const { id, version } = c.req.valid('param');
    return c.json(await viewVersion(c.env, c.var.tenant, id, version), 200);
  })
  .openapi(putTag, async (c) => {
    const { id, tag } = c.req.valid('param');
    return c.json(await setTag(c.env, c.var.tenant, id, tag, c.req.valid('json')), 200);
  })
  .openapi(removeTag, async (c) => {
    const { id, tag } = c.req.valid('param');
    await requireRubric(c.env, c.var.tenant, id);
    await deleteTag(tenantDb(c.env, c.var.tenant), id, tag);
    return c.body(null, 204);
  })
  .openapi(archiveRoute, async (c) => c.json(await archive(c.env, c.var.tenant, c.req.valid('param').id), 200));
