/**
 * @module
 * `POST /v1/estimates`: what an evaluation or a batch would cost, without an LLM call or a stored row.
 * The work is in src/estimates/service.ts.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { requireScope, scopeSecurity } from '../tenants/auth.js';
import { EstimateRequestSchema, EstimateSchema, ESTIMATE_EXAMPLES } from './schemas.js';
import { estimate } from './service.js';
import { jsonBody } from '../http/json-body.js';
import type { TenantEnv } from '../tenants/auth.js';
import {
  errorResponse,
  jsonResponse,
  llmUnavailable,
  NoQuery,
  NOT_JSON,
  PAYLOAD_TOO_LARGE,
  RUBRIC_NOT_FOUND,
  v1Responses,
} from '../http/responses.js';

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createEstimate',
  tags: ['estimates'],
  summary: 'Estimate calls, tokens and cost',
  description:
    'Takes the body of `POST /v1/evaluations` (`task`) or of a batch (`items`), validated the same way, and answers what it would spend: ' +
    'LLM calls (min / max differ for adaptive protocols such as DEBATE or SAMRE with early stop), prompt and completion tokens and USD cost ' +
    '(min / expected / max), in total and per model, and whether a `budget` fits. Makes no LLM call and stores nothing. ' +
    'The protocol is run against a synthetic LLM along its shortest and longest paths, prompts counted with the cl100k_base tokenizer; ' +
    '`assumptions` says how each figure was made. Batches over 100 items are estimated from an even sample of 100, scaled.',
  middleware: [requireScope('read'), jsonBody()] as const,
  security: scopeSecurity('read'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: EstimateRequestSchema, examples: ESTIMATE_EXAMPLES } },
    },
  },
  responses: v1Responses({
    200: jsonResponse(EstimateSchema, 'The estimate.'),
    400: errorResponse(
      [
        'invalid_json',
        'invalid_request',
        'invalid_config',
        'unknown_preset',
        'unknown_method',
        'task_kind_unsupported',
      ],
      'the body or the query fails its schema (see `issues`), or the judge config is invalid for a task, as on POST /v1/evaluations.',
    ),
    404: RUBRIC_NOT_FOUND,
    413: PAYLOAD_TOO_LARGE,
    415: NOT_JSON,
    503: llmUnavailable(),
  }),
});

/** Routes under `/v1/estimates`. */
export const estimates = new OpenAPIHono<TenantEnv>().openapi(create, async (c) =>
  c.json(await estimate(c.env, c.var.tenant, c.req.valid('json')), 200),
);
