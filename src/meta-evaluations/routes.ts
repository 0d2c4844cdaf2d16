/**
 * @module
 * `/v1/meta-evaluations`: judge a labelled batch and read its agreement report.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { CREATE_META_EVALUATION_EXAMPLES, META_EVALUATION_ID_EXAMPLE } from './examples.js';
import { byok } from '../http/byok.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { jsonBody } from '../http/json-body.js';
import { createMetaEvaluation, viewMetaEvaluation } from './service.js';
import type { TenantEnv } from '../tenants/auth.js';
import {
  acceptedResponses,
  BAD_QUERY,
  IdempotencyHeaderSchema,
  judgeBodyResponses,
  jsonResponse,
  notFound,
  NoQuery,
  v1Responses,
} from '../http/responses.js';
import { CreateMetaEvaluationRequestSchema, MetaEvaluationAcceptedSchema, MetaEvaluationSchema } from './schemas.js';

/** Path of `/v1/meta-evaluations/{id}`. */
export const MetaEvaluationIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { description: 'Meta-evaluation id (`me_…`).' }, example: META_EVALUATION_ID_EXAMPLE }),
});

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createMetaEvaluation',
  tags: ['meta-evaluations'],
  summary: 'Judge a labelled batch',
  description:
    'Measures how well a judge agrees with human labels: 1-500 labelled items of one task kind with unique ids, one evaluation per item, ' +
    'all with the same judge (a labelled batch: it is also listed by `GET /v1/batches`). Errors about an item name it (`items.3.task`).\n\n' +
    '**Retries:** send an `Idempotency-Key`: the same key and body return the same meta-evaluation (202, `Idempotent-Replayed: true`), ' +
    'another body is 409 `idempotency_conflict`.',
  middleware: [requireScope('evaluations:write'), byok(), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': { schema: CreateMetaEvaluationRequestSchema, examples: CREATE_META_EVALUATION_EXAMPLES },
      },
    },
  },
  responses: v1Responses(
    judgeBodyResponses({
      ...acceptedResponses(
        MetaEvaluationAcceptedSchema,
        'meta-evaluation',
        'Accepted: every item is queued (also the answer to an idempotent replay).',
      ),
    }),
  ),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getMetaEvaluation',
  tags: ['meta-evaluations'],
  summary: 'Get a meta-evaluation',
  description:
    "Progress, and once every item ended the agreement report: accuracy and Cohen's κ for pairwise items; Pearson, Spearman and Kendall correlations for pointwise ones.",
  ...scoped('read'),
  request: { params: MetaEvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(MetaEvaluationSchema, 'The meta-evaluation.'),
    400: BAD_QUERY,
    404: notFound('meta-evaluation'),
  }),
});

/** Routes under `/v1/meta-evaluations`. */
export const metaEvaluations = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const { id, status, itemsTotal, replayed } = await createMetaEvaluation(
      c.env,
      c.var.tenant,
      c.req.valid('json'),
      key,
      {
        keyId: c.var.auth.keyId,
        limits: c.var.auth.limits,
      },
    );
    const self = `/v1/meta-evaluations/${id}`;
    c.header('Location', self);
    if (replayed) c.header('Idempotent-Replayed', 'true');
    const body: z.infer<typeof MetaEvaluationAcceptedSchema> = { id, status, itemsTotal, links: { self } };
    return c.json(body, 202);
  })
  .openapi(get, async (c) => c.json(await viewMetaEvaluation(c.env, c.var.tenant, c.req.valid('param').id), 200));
