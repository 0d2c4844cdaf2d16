/**
 * @module
 * `GET /v1/rubrics/{id}/versions/{version}/agreement`, mounted at `/v1/rubrics` before the rubric routes.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { BAD_QUERY, errorResponse, jsonResponse, NoQuery, notFound, v1Responses } from '../http/responses.js';
import { RubricVersionParams } from '../rubrics/schemas.js';
import type { TenantEnv } from '../tenants/auth.js';
import { scoped } from '../tenants/auth.js';
import { RubricAgreementSchema } from './agreement-schemas.js';
import { versionAgreement } from './agreement.js';

const agreement = createRoute({
  method: 'get',
  path: '/{id}/versions/{version}/agreement',
  operationId: 'getRubricAgreement',
  tags: ['rubrics'],
  summary: "A version's agreement with your labels",
  description:
    "Judges the labelled items of the version's annotation queues with the version (`rb_…@{version}`, the golden check's judge), once: a " +
    'second read with no new label finds the same run, and items judged before come from the verdict cache. While it runs: 202, ' +
    "`status: running`, read `links.self` again. Then 200: pairwise Cohen's `kappa` and `accuracy` with intervals and the confusion matrix, " +
    'pointwise Pearson `r`, Spearman `rho` and Kendall `tau` with intervals, `n`, and each disagreement linked to its evaluation and item.',
  ...scoped('evaluations:write'),
  request: { params: RubricVersionParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(RubricAgreementSchema, 'The agreement (`status: completed`).'),
    202: jsonResponse(RubricAgreementSchema, 'The judge is running (`status: running`): read `links.self` again.'),
    400: BAD_QUERY,
    404: notFound('rubric or version'),
    409: errorResponse(['conflict'], 'the version has no labelled item yet.'),
  }),
});

/** The agreement route under `/v1/rubrics`. */
export const rubricAgreement = new OpenAPIHono<TenantEnv>().openapi(agreement, async (c) => {
  const { id, version } = c.req.valid('param');
  const body = await versionAgreement(c.env, c.var.tenant, id, version, {
    keyId: c.var.auth.keyId,
    limits: c.var.auth.limits,
  });
  return body.status === 'running' ? c.json(body, 202) : c.json(body, 200);
});
