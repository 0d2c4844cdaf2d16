/**
 * @module
 * `POST /v1/rubrics/{id}/versions/{version}/check`, mounted at `/v1/rubrics` before the rubric routes, and
 * the middleware that stores a finished check's report on its version before a version is read or a tag moves
 * (so `minAgreement` and `GET …/versions/{n}` see the agreement as soon as the last example has ended).
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { byok } from '../http/byok.js';
import { jsonBody } from '../http/json-body.js';
import {
  acceptedResponses,
  IdempotencyHeaderSchema,
  judgeBodyResponses,
  NoQuery,
  notFound,
  v1Responses,
  setCreatedHeaders,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scopeSecurity } from '../tenants/auth.js';
import { CheckRequestSchema, RubricCheckSchema, RubricVersionParams } from '../rubrics/schemas.js';
import { settleRubric, settleVersion, startCheck } from './service.js';

/** A labelled pairwise example, as a check request may send it. */
const SENT_EXAMPLE = {
  task: {
    kind: 'pairwise' as const,
    question: 'I bought headphones 45 days ago and they broke. Can I get my money back?',
    answerA: 'Sorry, refunds are only within 30 days; I can offer store credit for the full price instead.',
    answerB: 'Sure, I have refunded you.',
  },
  expected: 'A' as const,
};

const check = createRoute({
  method: 'post',
  path: '/{id}/versions/{version}/check',
  operationId: 'checkRubricVersion',
  tags: ['rubrics'],
  summary: 'Check a version against its golden examples',
  description:
    "Runs the version's golden examples (or the `examples` sent) with the judge given (`preset` and/or `config`, as on POST /v1/evaluations) as a " +
    "meta-evaluation judged by `rb_…@{version}`. Once every example ended, the agreement (accuracy and Cohen's κ pairwise; Pearson, Spearman and " +
    "Kendall pointwise, with CIs) is stored on the version (`check` in `GET …/versions/{version}`), where a tag's `minAgreement` reads it. " +
    'A new check replaces the earlier one. Send an `Idempotency-Key` to make a retry safe.',
  middleware: [requireScope('evaluations:write'), byok(), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: RubricVersionParams,
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CheckRequestSchema,
          examples: {
            stored: {
              summary: "The version's own examples",
              description: 'Runs the golden examples stored with the version, judged by rubric-judge.',
              value: { preset: 'rubric-judge' },
            },
            sent: {
              summary: 'Examples sent with the request',
              description: 'Runs these labelled examples instead of the stored ones.',
              value: { preset: 'rubric-judge', examples: [SENT_EXAMPLE] },
            },
          },
        },
      },
    },
  },
  responses: v1Responses(
    judgeBodyResponses({
      ...acceptedResponses(
        RubricCheckSchema,
        'rubric check',
        'Accepted: every example is queued (also the answer to an idempotent replay).',
      ),
      404: notFound('rubric or version'),
    }),
  ),
});

const base = new OpenAPIHono<TenantEnv>();
// A finished check's report is stored before anything reads it.
base.use('/:id/versions/:version', async (c, next) => {
  const version = Number(c.req.param('version'));
  if (c.req.method === 'GET' && Number.isInteger(version) && version > 0)
    await settleVersion(c.env, c.var.tenant, c.req.param('id'), version);
  await next();
});
// The body is not read here (its size limit is the route's): every running check of the rubric is settled.
base.use('/:id/tags/:tag', async (c, next) => {
  if (c.req.method === 'PUT') await settleRubric(c.env, c.var.tenant, c.req.param('id'));
  await next();
});

/** The golden check's route under `/v1/rubrics` (mounted before the rubric routes, for its middleware). */
export const rubricChecks = base.openapi(check, async (c) => {
  const { id, version } = c.req.valid('param');
  const key = c.req.valid('header')['Idempotency-Key'] ?? null;
  const { check: body, replayed } = await startCheck(c.env, c.var.tenant, id, version, c.req.valid('json'), key, {
    keyId: c.var.auth.keyId,
    limits: c.var.auth.limits,
  });
  setCreatedHeaders(c, `/v1/rubrics/${id}/versions/${version}`, replayed);
  return c.json(body, 202);
});
