/**
 * @module
 * `GET /v1/usage`: the caller's tenant's usage (calls, tokens, cost) from the per-call usage rows, grouped
 * by day, model, preset or key, as JSON or CSV. The admin API serves any tenant's
 * (`GET /v1/admin/tenants/{id}/usage`, ./admin.ts) with the same query and answer.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { UsageQuerySchema, UsageReportSchema } from './schemas.js';
import { usageResponse } from '../admin/service.js';
import { scoped } from './auth.js';
import type { AppEnv } from '../http/types.js';
import { errorResponse, v1Responses } from '../http/responses.js';

/** The 200 of a usage route: JSON by default, CSV on request. */
export const USAGE_OK = {
  description: 'The report: JSON, or CSV (`format=csv` or `Accept: text/csv`) with a header row and one row per group.',
  content: {
    'application/json': { schema: UsageReportSchema },
    'text/csv': {
      schema: z.string().openapi({
        example:
          'day,calls,prompt_tokens,cached_prompt_tokens,completion_tokens,cost_usd,estimated\r\n2026-11-02,12,8120,0,940,0.00178,false\r\n',
      }),
    },
  },
};

/** The 400 of a usage route. */
export const USAGE_BAD_QUERY = errorResponse(
  ['invalid_request'],
  'an unknown or malformed query parameter, or `to` not after `from` (see `issues`).',
);

const report = createRoute({
  method: 'get',
  path: '/',
  operationId: 'getUsage',
  tags: ['usage'],
  summary: 'Usage and cost',
  description:
    'LLM calls, prompt / cached prompt / completion tokens and cost (USD) of this tenant in `[from, to)`, grouped by UTC `day`, `model`, `preset` ' +
    'or `key` (the API key that created the evaluation), summed from the per-call usage rows (written when an evaluation ends). ' +
    'CSV with `format=csv` or `Accept: text/csv`.',
  ...scoped('read'),
  request: { query: UsageQuerySchema },
  responses: v1Responses({ 200: USAGE_OK, 400: USAGE_BAD_QUERY }),
});

/** Routes under `/v1/usage`. */
export const usage = new OpenAPIHono<AppEnv>().openapi(report, async (c) => {
  const r = await usageResponse(c.env, c.var.tenant, c.req.valid('query'), c.req.header('Accept'));
  if ('csv' in r) return c.body(r.csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  return c.json(r.json, 200);
});
