/**
 * @module
 * `/v1/meta-evaluations`: judge a labelled batch and read its agreement report.
 */
import { withWarnings } from '../http/warnings.js';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { CREATE_META_EVALUATION_EXAMPLES, META_EVALUATION_ID_EXAMPLE } from './examples.js';
import { byok } from '../http/byok.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { jsonBody } from '../http/json-body.js';
import { calibrateMetaEvaluation, createMetaEvaluation, viewMetaEvaluation } from './service.js';
import type { TenantEnv } from '../tenants/auth.js';
import {
  acceptedResponses,
  BAD_QUERY,
  IdempotencyHeaderSchema,
  judgeBodyResponses,
  jsonResponse,
  notFound,
  NoQuery,
  NOT_JSON,
  PAYLOAD_TOO_LARGE,
  v1Responses,
  setCreatedHeaders,
} from '../http/responses.js';
import {
  CalibrateRequestSchema,
  CalibrateResultSchema,
  CreateMetaEvaluationRequestSchema,
  MetaEvaluationAcceptedSchema,
  MetaEvaluationSchema,
} from './schemas.js';
import { errorResponse } from '../http/responses.js';

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

const calibrate = createRoute({
  method: 'post',
  path: '/{id}/calibrate',
  operationId: 'calibrateMetaEvaluation',
  tags: ['meta-evaluations'],
  summary: 'Calibrate a cascade (Trust or Escalate)',
  description:
    "From this labelled run of a `cascade` config (best with `runAllStages: true`), each stage's confidence threshold for a target " +
    'agreement 1 − `alpha` with risk `delta`, by fixed-sequence testing as in Jung et al. 2024: the thresholds, the coverage and the ' +
    'agreement on the covered items with the guarantee stated, and the cascade config that applies them (items below every threshold ' +
    'then come back without a winner, `details.cascade.abstained`). Stored: `GET /v1/meta-evaluations/{id}` shows the latest.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: MetaEvaluationIdParams,
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CalibrateRequestSchema,
          examples: {
            paper: {
              summary: "The paper's target",
              description: 'Agreement with humans ≥ 80% (alpha 0.2) with probability ≥ 90% (delta 0.1).',
              value: { alpha: 0.2, delta: 0.1 },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    200: jsonResponse(CalibrateResultSchema, 'The calibration and the calibrated config.'),
    400: errorResponse(
      ['invalid_request', 'invalid_json'],
      'the body fails its schema, or the run is not a finished pairwise cascade run with labels (see `issues`).',
    ),
    404: notFound('meta-evaluation'),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
  }),
});

/** Routes under `/v1/meta-evaluations`. */
export const metaEvaluations = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const { id, status, itemsTotal, replayed, warnings } = await createMetaEvaluation(
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
    setCreatedHeaders(c, self, replayed);
    const body: z.infer<typeof MetaEvaluationAcceptedSchema> = {
      id,
      status,
      itemsTotal,
      links: { self },
      ...withWarnings(warnings),
    };
    return c.json(body, 202);
  })
  .openapi(get, async (c) => c.json(await viewMetaEvaluation(c.env, c.var.tenant, c.req.valid('param').id), 200))
  .openapi(calibrate, async (c) =>
    c.json(await calibrateMetaEvaluation(c.env, c.var.tenant, c.req.valid('param').id, c.req.valid('json')), 200),
  );
