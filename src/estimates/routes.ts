/**
 * @module
 * `POST /v1/estimates`: what an evaluation, a batch or a comparison would cost, without an LLM call or a
 * stored row. The work is in src/estimates/service.ts; a comparison's body is another feature's form,
 * handed in by the composition ({@link estimatesRoutes}): the comparisons reach this feature through the
 * batches, so it cannot import them.
 */
import type { z } from '@hono/zod-openapi';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { bodyValidationHook, invalidRequest, toIssues } from '../http/errors.js';
import { requireScope, scopeSecurity } from '../tenants/auth.js';
import type { EstimateResponse } from './schemas.js';
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

/**
 * Another body the route takes: one with `key` (a field no evaluation or batch body has) is validated by
 * `schema` and estimated by `estimate`.
 */
export interface EstimateForm<T extends object> {
  key: string;
  schema: z.ZodType<T>;
  estimate: (env: Bindings, tenant: string, body: T) => Promise<EstimateResponse>;
  /** Named examples of the form's bodies, for the document. */
  examples: Record<string, { summary: string; description: string; value: unknown }>;
}

const estimateRoute = <T extends object>(form: EstimateForm<T>) =>
  createRoute({
    method: 'post',
    path: '/',
    operationId: 'createEstimate',
    tags: ['estimates'],
    summary: 'Estimate calls, tokens and cost',
    description:
      'Takes the body of `POST /v1/evaluations` (`task`), of a batch (`items`) or of a comparison (`candidates`: its evaluations are items × pairs × ' +
      'evaluations per pair, each pair in both presentation orders), validated the same way, and answers what it would spend: ' +
      'LLM calls (min / max differ for adaptive protocols such as DEBATE or SAMRE with early stop), prompt and completion tokens and USD cost ' +
      '(min / expected / max), in total and per model, and whether a `budget` fits. Makes no LLM call and stores nothing. ' +
      'The protocol is run against a synthetic LLM along its shortest and longest paths, prompts counted with the cl100k_base tokenizer; ' +
      '`assumptions` says how each figure was made. Batches over 100 items are estimated from an even sample of 100, scaled. ' +
      'With `include: ["prompts"]` it also answers `prompts`: the requests one evaluation sends before any reply (a debate\'s first round), rendered exactly as the provider receives them.',
    middleware: [requireScope('read'), jsonBody()] as const,
    security: scopeSecurity('read'),
    request: {
      query: NoQuery,
      body: {
        required: true,
        content: {
          'application/json': {
            schema: EstimateRequestSchema.or(form.schema),
            examples: { ...ESTIMATE_EXAMPLES, ...form.examples },
          },
        },
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

/** Routes under `/v1/estimates`, taking `form`'s bodies too (a comparison's, from src/app.ts). */
export function estimatesRoutes<T extends object>(form: EstimateForm<T>) {
  const isForm = (body: unknown): boolean => typeof body === 'object' && body !== null && form.key in body;
  // A union's issues say only "invalid input": the body's own form names the field instead (the
  // validator hands a failed check the raw body as `data`).
  const hook = bodyValidationHook((error, raw) => {
    const parsed = (isForm(raw) ? form.schema : EstimateRequestSchema).safeParse(raw);
    throw invalidRequest(toIssues(parsed.success ? error : parsed.error, undefined, 'field', raw), 'request body');
  });
  return new OpenAPIHono<TenantEnv>().openapi(
    estimateRoute(form),
    async (c) => {
      const body = c.req.valid('json');
      return c.json(
        isForm(body)
          ? await form.estimate(c.env, c.var.tenant, body as T)
          : await estimate(c.env, c.var.tenant, body as z.infer<typeof EstimateRequestSchema>),
        200,
      );
    },
    hook,
  );
}
