/**
 * @module
 * `GET /v1/usage`: the caller's tenant's usage (calls, tokens, cost) from the per-call usage rows, grouped
 * by day, model, preset or key, as JSON or CSV. The admin API serves any tenant's
 * (`GET /v1/admin/tenants/{id}/usage`, ../admin/routes.ts) with the same query and answer.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Bindings } from '../config/bindings.js';
import { invalidRequest } from '../http/errors.js';
import { monthOf } from './quota.js';
import { UsageQuerySchema, UsageReportSchema } from './schemas.js';
import { usageCsv, usageReport } from './usage-report.js';
import { hitSums } from '../verdict-cache/rows.js';
import { scoped } from './auth.js';
import type { TenantEnv } from './auth.js';
import { errorResponse, v1Responses } from '../http/responses.js';
import type { EffectiveLimits } from './limits.js';
import { spreadDbs } from './rows.js';

const iso = (ms: number) => new Date(ms).toISOString();

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
    "LLM calls, prompt / cached prompt / completion tokens, cost (USD) and what the providers' prompt caches saved (USD) of this tenant in " +
    '`[from, to)`, grouped by UTC `day`, `model`, `preset` or `key` (the API key that created the evaluation), summed from the per-call usage rows ' +
    '(written when an evaluation ends); and `verdictCache`: evaluations created in the range that the verdict cache served (no call, $0) and ' +
    'the USD those verdicts had cost. CSV (the rows only) with `format=csv` or `Accept: text/csv`.',
  ...scoped('read'),
  request: { query: UsageQuerySchema },
  responses: v1Responses({ 200: USAGE_OK, 400: USAGE_BAD_QUERY }),
});

/** Routes under `/v1/usage`. */
export const usage = new OpenAPIHono<TenantEnv>().openapi(report, async (c) => {
  const r = await usageResponse(c.env, c.var.tenant, c.req.valid('query'), c.req.header('Accept'), c.var.auth.limits);
  if ('csv' in r) return c.body(r.csv, 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  return c.json(r.json, 200);
});

/** The usage report of `tenant` for a usage query, as JSON or as CSV (`format=csv`, or `Accept: text/csv`). */
export async function usageResponse(
  env: Bindings,
  tenant: string,
  query: z.infer<typeof UsageQuerySchema>,
  accept: string | undefined,
  limits?: EffectiveLimits | null,
): Promise<{ csv: string } | { json: z.infer<typeof UsageReportSchema> }> {
  const now = Date.now();
  const from = query.from === undefined ? monthOf(now).start : Date.parse(query.from);
  const to = query.to === undefined ? now : Date.parse(query.to);
  if (!(to > from)) throw invalidRequest([{ path: 'to', message: `must be after from (${iso(from)})` }], 'query');
  const csv = query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/i.test(accept ?? ''));
  // Every D1 shard the tenant's evaluations may be in (its spread): each rolls up its own, added up here.
  const dbs = await spreadDbs(env, tenant, limits);
  if (csv)
    return {
      csv: usageCsv(query.groupBy, (await usageReport(dbs, tenant, { from, to, groupBy: query.groupBy })).rows),
    };
  const [{ rows, totals }, hits] = await Promise.all([
    usageReport(dbs, tenant, { from, to, groupBy: query.groupBy }),
    Promise.all(dbs.map((db) => hitSums(db, tenant, from, to))),
  ]);
  const verdictCache = {
    hits: hits.reduce((n, h) => n + h.hits, 0),
    savedUsd: hits.reduce((n, h) => n + h.savedUsd, 0),
  };
  return { json: { tenant, from: iso(from), to: iso(to), groupBy: query.groupBy, rows, totals, verdictCache } };
}
