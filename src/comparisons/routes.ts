/**
 * @module
 * `/v1/comparisons`: candidates compared over items (JSON or NDJSON, up to 10,000 items × 8 candidates)
 * as pairwise evaluations on the batch machinery; the result with pair tallies, the win matrix, the
 * Bradley–Terry ranking, the judge's rates and the CI gate; results as NDJSON pages; list; cancel. Handlers
 * stay thin; the work is in ./service.ts and ./results.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { batchBody, NDJSON_TYPE, ndjsonPage, ndjsonPageResponse } from '../batches/body.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { byok } from '../http/byok.js';
import type { TenantEnv } from '../tenants/auth.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import {
  acceptedResponses,
  BAD_QUERY,
  errorResponse,
  certifyResponses,
  judgeBodyResponses,
  jsonResponse,
  NoQuery,
  notFound,
  v1Responses,
  setCreatedHeaders,
} from '../http/responses.js';
import { preferWaitHeaders, preferWaitMs, preferWaitResponse, setWaitedOut } from '../http/prefer.js';
import { comparisonResults } from './results.js';
import {
  COMPARISON_EXAMPLE,
  ComparisonIdParams,
  ComparisonListQuery,
  ComparisonResultsQuery,
  CreateComparisonRequestSchema,
  MAX_CANDIDATES,
  MAX_COMPARISON_ITEMS,
} from './schemas.js';
import {
  ComparisonAcceptedSchema,
  ComparisonListSchema,
  ComparisonResultLineSchema,
  ComparisonSchema,
} from './answer-schemas.js';
import { cancelComparison, createComparison, listComparisons, requireComparison, viewComparison } from './service.js';
import { awaitComparisonEnded } from './wait.js';

const NDJSON_EXAMPLE = [
  '{"preset":"fastchat-pair","candidates":["v1","v2"],"design":{"baseline":"v1"},"gate":{"candidate":"v2","baseline":"v1"}}',
  '{"id":"q1","question":"Capital of Australia?","outputs":{"v1":"Sydney.","v2":"Canberra."}}',
  '{"id":"q2","question":"2 + 2?","outputs":{"v1":"5","v2":"4"}}',
].join('\n');

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createComparison',
  tags: ['comparisons'],
  summary: 'Compare candidates',
  description:
    `Judges 2-${MAX_CANDIDATES} candidates' outputs on 1-${MAX_COMPARISON_ITEMS} items, pair by pair (\`design\`: every pair, or each against a baseline), ` +
    "as a batch of kind `comparison` (its window, budget, cancel and counts are a batch's). Each pair is judged in both presentation orders: " +
    'inside one evaluation when the judge calibrates position itself (most pairwise presets: `evaluationsPerPair` 1), else as two evaluations ' +
    '(AB and BA, combined by agree-or-tie). Every item is validated before anything is stored: a missing output is a 400 naming ' +
    '`items.3.outputs.v2`. Follow `GET /v1/comparisons/{id}`; `webhook.url` and subscribed endpoints receive `comparison.completed` once, ' +
    "with the gate's outcome, or send `Prefer: wait=<seconds>` to get the ended comparison, gate included, in this response (200, as " +
    '`GET /v1/comparisons/{id}` shows it, header `Preference-Applied`) when it ends in time: a CI runner that cannot receive a webhook ' +
    'waits here (again, with the same `Idempotency-Key`, for a longer run).\n\n' +
    `**Body:** JSON, or NDJSON (\`${NDJSON_TYPE}\`): line 1 is the request without \`items\`, then one item per line. ` +
    '**Retries:** an `Idempotency-Key` returns the same comparison for the same body.',
  middleware: [requireScope('evaluations:write'), byok(), batchBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: preferWaitHeaders('the ended comparison, its statistics and gate included'),
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateComparisonRequestSchema,
          examples: {
            gate: {
              summary: 'A CI gate: the candidate against what ships',
              description: 'Every candidate against the baseline, with the gate a deploy waits on.',
              value: COMPARISON_EXAMPLE,
            },
          },
        },
        [NDJSON_TYPE]: {
          schema: z.string().openapi({
            description: 'Line 1: the request without `items`; then one `ComparisonItem` per line.',
            example: NDJSON_EXAMPLE,
          }),
        },
      },
    },
  },
  responses: v1Responses(
    certifyResponses(
      judgeBodyResponses({
        ...preferWaitResponse(
          ComparisonSchema,
          'comparison',
          'Ended within the `Prefer: wait` time: the comparison with its final statistics and gate.',
        ),
        ...acceptedResponses(
          ComparisonAcceptedSchema,
          'comparison',
          'Accepted: every pair evaluation is stored and queued (also the answer to an idempotent replay).',
          { preferWait: true },
        ),
      }),
    ),
  ),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listComparisons',
  tags: ['comparisons'],
  summary: 'List comparisons',
  description:
    "The tenant's comparisons, newest first, with their counts and the gate's final outcome; page with `cursor`.",
  ...scoped('read'),
  request: { query: ComparisonListQuery },
  responses: v1Responses({
    200: jsonResponse(ComparisonListSchema, 'One page of comparisons.'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one this API returned.',
    ),
  }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getComparison',
  tags: ['comparisons'],
  summary: 'Get a comparison',
  description:
    'Counts, then the statistics (`basis`: `final` once every evaluation ended, stored; `live` while it runs): `pairs` (wins, ties, losses, ' +
    "`winRate` with its interval), the win `matrix`, the `ranking` by Bradley–Terry strength with bootstrap intervals, the `judge`'s flip and " +
    'tie rates, the `gate` and a one-line `summary`; and the calls, tokens and cost of every evaluation.',
  ...scoped('read'),
  request: { params: ComparisonIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(ComparisonSchema, 'The comparison.'),
    400: BAD_QUERY,
    404: notFound('comparison'),
  }),
});

const results = createRoute({
  method: 'get',
  path: '/{id}/results',
  operationId: 'getComparisonResults',
  tags: ['comparisons'],
  summary: 'Comparison results (NDJSON)',
  description:
    'One JSON line per item in request order: each pair with its winner (a candidate, `tie` or null), its flip and its evaluations, and how the ' +
    'item went for the gate. The last page ends with a `summary` line (the gate and ranking as of now). Paged by `X-Next-Cursor` / `Link`.',
  ...scoped('read'),
  request: { params: ComparisonIdParams, query: ComparisonResultsQuery },
  responses: v1Responses({
    200: ndjsonPageResponse(ComparisonResultLineSchema, 'ComparisonResultLine'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one of this comparison.',
    ),
    404: notFound('comparison'),
  }),
});

const cancel = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  operationId: 'cancelComparison',
  tags: ['comparisons'],
  summary: 'Cancel a comparison',
  description:
    "As a batch's cancel: evaluations not started never start; the comparison is `cancelling` until the last one ends, then `cancelled`, and " +
    '`comparison.completed` carries the statistics of what was judged. Repeating it is harmless. No body.',
  ...scoped('evaluations:write'),
  request: { params: ComparisonIdParams, query: NoQuery },
  responses: v1Responses({
    202: jsonResponse(ComparisonSchema, 'Cancelling: the comparison as it is now.'),
    400: BAD_QUERY,
    404: notFound('comparison'),
    409: errorResponse(['already_ended'], 'every evaluation of the comparison had ended before.'),
  }),
});

/** What the routes are given by the composition (src/app.ts): certified mode's calibration. */
export interface ComparisonRoutesDeps {
  certify: CertifyJudge;
}

/** Routes under `/v1/comparisons`. */
export const comparisonRoutes = ({ certify }: ComparisonRoutesDeps) =>
  new OpenAPIHono<TenantEnv>()
    .openapi(create, async (c) => {
      const headers = c.req.valid('header');
      const key = headers['Idempotency-Key'] ?? null;
      const waitMs = preferWaitMs(headers.Prefer);
      const request = c.req.valid('json');
      if (typeof request === 'string') throw new Error('batchBody() did not convert the NDJSON body');
      const { body, replayed } = await createComparison(
        c.env,
        c.var.tenant,
        request,
        key,
        { keyId: c.var.auth.keyId, limits: c.var.auth.limits },
        certify,
      );
      setCreatedHeaders(c, body.links.self, replayed);
      // From the wait's start: a slow create must not count toward it.
      const started = Date.now();
      const ended = waitMs > 0 ? await awaitComparisonEnded(c.env, c.var.tenant, body.id, waitMs) : null;
      if (ended) {
        c.header('Preference-Applied', `wait=${waitMs / 1000}`);
        return c.json(body.warnings ? { ...ended, warnings: body.warnings } : ended, 200);
      }
      setWaitedOut(c, waitMs, started);
      return c.json(body, 202);
    })
    .openapi(list, async (c) =>
      c.json(await listComparisons(c.env, c.var.tenant, c.req.valid('query'), c.var.auth.limits), 200),
    )
    .openapi(get, async (c) => {
      const ref = await requireComparison(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(await viewComparison(c.env, ref), 200);
    })
    .openapi(results, async (c) => {
      const ref = await requireComparison(c.env, c.var.tenant, c.req.valid('param').id);
      const { cursor, limit } = c.req.valid('query');
      const page = await comparisonResults(c.env, ref, cursor, limit);
      return ndjsonPage(page, `/v1/comparisons/${ref.batch.id}/results`, limit);
    })
    .openapi(cancel, async (c) => {
      const ref = await requireComparison(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(await cancelComparison(c.env, ref), 202);
    });
