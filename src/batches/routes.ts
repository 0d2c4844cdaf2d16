/**
 * @module
 * `/v1/batches`: submit many items at once (JSON or NDJSON, up to 10,000), follow the batch's counts,
 * page through its results as NDJSON, list batches, cancel. Handlers stay thin; the work is in
 * src/batches/service.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { batchBody, NDJSON_TYPE, ndjsonPage, ndjsonPageResponse } from './body.js';
import {
  BatchAcceptedSchema,
  BatchIdParams,
  BatchListQuery,
  BatchListSchema,
  BatchResultLineSchema,
  BatchResultsQuery,
  BatchSchema,
  CREATE_BATCH_EXAMPLES,
  CreateBatchRequestSchema,
  MAX_BATCH_ITEMS,
} from './schemas.js';
import { cancelBatch, createBatch, listBatchesView, requireBatch, resultsOf, viewBatch } from './service.js';
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
import { IdempotencyHeaderSchema } from '../http/responses.js';

const NDJSON_EXAMPLE = [
  '{"preset":"fastchat-pair","webhook":{"url":"https://ci.example.com/hooks/tribunal"}}',
  '{"id":"q1","task":{"kind":"pairwise","question":"Capital of Australia?","answerA":"Canberra.","answerB":"Sydney."}}',
  '{"id":"q2","task":{"kind":"pairwise","question":"2 + 2?","answerA":"4","answerB":"5"},"metadata":{"run":"nightly-42"}}',
].join('\n');

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createBatch',
  tags: ['batches'],
  summary: 'Submit a batch',
  description:
    `Judges 1-${MAX_BATCH_ITEMS} items with one judge (\`preset\` + \`config\`), one evaluation per item. Every item is validated before anything is stored: ` +
    'a bad item is a 400 naming it (`items.3.task.answerA`) and nothing is created. Answers 202 once every item is stored and queued; ' +
    'follow `GET /v1/batches/{id}` for counts and `GET /v1/batches/{id}/results` for the verdicts. ' +
    '`webhook.url` also receives the signed `batch.completed` event.\n\n' +
    `**Body:** JSON (\`application/json\`), or NDJSON (\`${NDJSON_TYPE}\`): line 1 is the request without \`items\` (\`{"preset": …}\`), ` +
    'then one item per line (line n is `items[n-2]`). The body limit is `MAX_BATCH_BODY_BYTES` (16 MiB by default).\n\n' +
    '**Retries:** send an `Idempotency-Key`: the same key and body return the same batch (202, `Idempotent-Replayed: true`), ' +
    'another body is 409 `idempotency_conflict`.',
  middleware: [requireScope('evaluations:write'), byok(), batchBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': { schema: CreateBatchRequestSchema, examples: CREATE_BATCH_EXAMPLES },
        [NDJSON_TYPE]: {
          schema: z.string().openapi({
            description: 'Line 1: the request without `items`; then one `BatchItem` per line.',
            example: NDJSON_EXAMPLE,
          }),
        },
      },
    },
  },
  responses: v1Responses(
    certifyResponses(
      judgeBodyResponses({
        ...acceptedResponses(
          BatchAcceptedSchema,
          'batch',
          'Accepted: every item is stored and queued (also the answer to an idempotent replay).',
        ),
      }),
    ),
  ),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listBatches',
  tags: ['batches'],
  summary: 'List batches',
  description:
    "The tenant's batches (meta-evaluations included, `kind: meta_evaluation`), newest first, with their counts; page with `cursor`.",
  ...scoped('read'),
  request: { query: BatchListQuery },
  responses: v1Responses({
    200: jsonResponse(BatchListSchema, 'One page of batches.'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one this API returned.',
    ),
  }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getBatch',
  tags: ['batches'],
  summary: 'Get a batch',
  description:
    'Status and counts by item status (kept on the batch, each item counted once when it ends), verdict statistics (win rates, mean score) ' +
    'over the stored verdicts, and the LLM calls, tokens and cost billed for every item.',
  ...scoped('read'),
  request: { params: BatchIdParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(BatchSchema, 'The batch.'), 400: BAD_QUERY, 404: notFound('batch') }),
});

const results = createRoute({
  method: 'get',
  path: '/{id}/results',
  operationId: 'getBatchResults',
  tags: ['batches'],
  summary: 'Batch results (NDJSON)',
  description:
    'One JSON line per item in request order: its id, evaluation id, status, verdict summary and error. Items not ended yet appear with their ' +
    'current status. Paged: the `X-Next-Cursor` header (and `Link: <…>; rel="next"`) gives the next page; absent on the last one.',
  ...scoped('read'),
  request: { params: BatchIdParams, query: BatchResultsQuery },
  responses: v1Responses({
    200: ndjsonPageResponse(BatchResultLineSchema, 'BatchResultLine'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema, or the cursor is not one this API returned for this batch.',
    ),
    404: notFound('batch'),
  }),
});

const cancel = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  operationId: 'cancelBatch',
  tags: ['batches'],
  summary: 'Cancel a batch',
  description:
    'Items that have not started never start; running items make no new LLM calls (calls already sent are still recorded and billed). ' +
    'The batch is `cancelling` until its last item ends, then `cancelled`. Repeating the request is harmless. No body.',
  ...scoped('evaluations:write'),
  request: { params: BatchIdParams, query: NoQuery },
  responses: v1Responses({
    202: jsonResponse(BatchSchema, 'Cancelling: the batch as it is now.'),
    400: BAD_QUERY,
    404: notFound('batch'),
    409: errorResponse(['already_ended'], 'every item of the batch had ended before.'),
  }),
});

/** What the routes are given by the composition (src/app.ts): certified mode's calibration. */
export interface BatchRoutesDeps {
  certify: CertifyJudge;
}

/** Routes under `/v1/batches`. */
export const batchRoutes = ({ certify }: BatchRoutesDeps) =>
  new OpenAPIHono<TenantEnv>()
    .openapi(create, async (c) => {
      const key = c.req.valid('header')['Idempotency-Key'] ?? null;
      const request = c.req.valid('json');
      // batchBody() turned an NDJSON body into the request object, so the string form never reaches here.
      if (typeof request === 'string') throw new Error('batchBody() did not convert the NDJSON body');
      const { body, replayed } = await createBatch(
        c.env,
        c.var.tenant,
        request,
        key,
        { keyId: c.var.auth.keyId, limits: c.var.auth.limits },
        certify,
      );
      setCreatedHeaders(c, body.links.self, replayed);
      return c.json(body, 202);
    })
    .openapi(list, async (c) =>
      c.json(await listBatchesView(c.env, c.var.tenant, c.req.valid('query'), c.var.auth.limits), 200),
    )
    .openapi(get, async (c) => {
      const b = await requireBatch(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(await viewBatch(c.env, b), 200);
    })
    .openapi(results, async (c) => {
      const b = await requireBatch(c.env, c.var.tenant, c.req.valid('param').id);
      const { cursor, limit } = c.req.valid('query');
      return ndjsonPage(await resultsOf(c.env, b, cursor, limit), `/v1/batches/${b.id}/results`, limit);
    })
    .openapi(cancel, async (c) => {
      const b = await requireBatch(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(await cancelBatch(c.env, b), 202);
    });
