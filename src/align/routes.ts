/**
 * @module
 * `POST /v1/rubrics/{id}/align` and `GET /v1/rubrics/{id}/alignments/{alignmentId}`, mounted at `/v1/rubrics`
 * before the rubric routes.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { byok } from '../http/byok.js';
import { jsonBody } from '../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  jsonResponse,
  NOT_JSON,
  NoQuery,
  notFound,
  PAYLOAD_TOO_LARGE,
  v1Responses,
} from '../http/responses.js';
import { RubricIdParams } from '../rubrics/schemas.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { AlignmentParams, AlignmentSchema, AlignRequestSchema } from './schemas.js';
import { startAlignment, viewAlignment } from './service.js';

const align = createRoute({
  method: 'post',
  path: '/{id}/align',
  operationId: 'alignRubric',
  tags: ['rubrics'],
  summary: 'Align a rubric to your labels',
  description:
    "Learns a new version of the rubric from the labels of an annotation queue over it (the queue's version is the base), as a job: 202 " +
    'with `links.self`. The labelled items are split once: `holdout` of them are held out (judged by both versions, learned from by neither). ' +
    "`few-shot` puts the judge's most confident mistakes in the criteria as examples, `instructions` has the LLM write rules into the criteria " +
    'from the disagreements, `auto` tries both and keeps the best on a validation split of the learning items. A pointwise rubric aligns by ' +
    "`thresholds` (or `auto`, which picks it): cut-offs on the judge's score and each aspect's, learned from the learning items, stored as the new " +
    "version's `thresholds`; its verdicts carry the bands as `label`. The job ends `succeeded` with " +
    "the new `version` and `heldOut: {base, aligned, gain}` (Cohen's κ with bootstrap 95% intervals), or `failed` with `error`. The `tag` " +
    "(default `prod`) moves to the new version only when the gain's interval lies above 0; the job says whether it moved. Every call is judged " +
    'through the pipeline and billed to the tenant, once: a repeated step finds what it made.',
  middleware: [requireScope('evaluations:write'), byok(), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: RubricIdParams,
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: AlignRequestSchema,
          examples: {
            fewShot: {
              summary: 'Few-shot, 30% held out',
              description:
                "The judge's mistakes on the queue's labels become examples; `prod` moves if the gain holds.",
              value: { queue: 'aq_0123456789abcdef0123456789abcdef', method: 'few-shot' },
            },
            thresholds: {
              summary: 'Score cut-offs (pointwise)',
              description: "A pointwise rubric's judge read in the humans' bands, per aspect.",
              value: { queue: 'aq_0123456789abcdef0123456789abcdef', method: 'thresholds' },
            },
            auto: {
              summary: 'The best method, another tag',
              description:
                'Few-shot and instructions compared on a validation split; `staging` moves if the gain holds.',
              value: { queue: 'aq_0123456789abcdef0123456789abcdef', holdout: 0.25, tag: 'staging' },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    202: jsonResponse(AlignmentSchema, 'The job started (`status: running`): read `links.self`.'),
    400: errorResponse(
      ['invalid_json', 'invalid_request', 'invalid_config', 'unknown_preset', 'unknown_method', 'byok_disabled'],
      'the body fails its schema, names no queue of this rubric, a method that does not fit the rubric, or an invalid judge (see `issues`).',
    ),
    404: notFound('rubric'),
    409: errorResponse(
      ['conflict', 'rubric_archived'],
      'the queue has too few labelled items (the message says how many more), or the rubric is archived.',
    ),
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
    501: errorResponse(['byok_not_supported'], 'X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet).'),
  }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}/alignments/{alignmentId}',
  operationId: 'getAlignment',
  tags: ['rubrics'],
  summary: 'An alignment job',
  description:
    'Where the job is (`status`, `step`), then its new `version`, `heldOut` agreement and what its tag did, or its `error`.',
  ...scoped('read'),
  request: { params: AlignmentParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(AlignmentSchema, 'The job.'),
    400: BAD_QUERY,
    404: notFound('rubric or alignment'),
  }),
});

/** The alignment routes under `/v1/rubrics`. */
export const rubricAlignments = new OpenAPIHono<TenantEnv>()
  .openapi(align, async (c) => {
    const { id } = c.req.valid('param');
    const body = await startAlignment(c.env, c.var.tenant, id, c.req.valid('json'), { keyId: c.var.auth.keyId });
    return c.json(body, 202);
  })
  .openapi(get, async (c) => {
    const { id, alignmentId } = c.req.valid('param');
    return c.json(await viewAlignment(c.env, c.var.tenant, id, alignmentId), 200);
  });
