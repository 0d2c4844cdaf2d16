/**
 * @module
 * `/v1/annotation-queues`: create, read and list queues, the caller's next item, labels (an adjudicator's
 * too), one item with its labels; the export (JSONL, CSV) and the import of labels from a file are
 * ./exchange-routes.ts, mounted here.
 *
 * An annotator is the `x-annotator` header when sent (several people under one key), else the key id
 * (`anonymous` for a deployment without managed keys); a body's `annotator` must agree with the header.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { jsonBody } from '../http/json-body.js';
import {
  BAD_QUERY,
  errorResponse,
  IDEMPOTENT_REPLAYED,
  IdempotencyHeaderSchema,
  jsonResponse,
  NoQuery,
  NOT_JSON,
  notFound,
  PAYLOAD_TOO_LARGE,
  setCreatedHeaders,
  v1Responses,
} from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { itemsFromEvaluations } from './exchange.js';
import { annotationExchange } from './exchange-routes.js';
import { AnnotatorHeader, annotatorOf, ItemParams, QueueParams, TAGS } from './route-params.js';
import {
  CreateQueueRequestSchema,
  NextItemSchema,
  PostLabelRequestSchema,
  QueueItemSchema,
  QueueSchema,
} from './schemas.js';
import { createQueue, itemView, listQueuesView, nextItem, postLabel, queueView, requireQueue } from './service.js';

const bodyErrors = (why: string) => ({
  400: errorResponse(['invalid_json', 'invalid_request'], why),
  413: PAYLOAD_TOO_LARGE,
  415: NOT_JSON,
});

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createAnnotationQueue',
  tags: TAGS,
  summary: 'Create an annotation queue',
  description:
    'Items to label by one rubric version: `items: [{id, task}]` sent, or `fromEvaluations: {filter}` (your succeeded evaluations of the ' +
    "rubric's kind, newest first; each keeps its evaluation id as item id and brings the judge's verdict as a `judge` label when it was judged by " +
    "that rubric version, or by no rubric on an aspect whose description is the rubric's criteria word for word). `rubric` " +
    '(`rb_…`, `rb_…@n`, `rb_…#tag`) is fixed to its version now. Each item waits for `labelsPerItem` labels from different annotators; when they ' +
    'disagree (pairwise: no strict majority; pointwise: no majority score and a spread over one point) it needs an adjudicator. ' +
    "`blind` hides the judge's verdict from annotators. Send an `Idempotency-Key` to make a retry safe.",
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: IdempotencyHeaderSchema,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: CreateQueueRequestSchema,
          examples: {
            items: {
              summary: 'Items sent, two labels each',
              description: 'Two replies to compare by the refund-policy rubric, each labelled by two annotators.',
              value: {
                name: 'Refund replies, week 12',
                rubric: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b#prod',
                items: [
                  {
                    id: 'ticket-17',
                    task: {
                      kind: 'pairwise',
                      question: 'I bought headphones 45 days ago and they broke. Can I get my money back?',
                      answerA:
                        'Sorry, refunds are only within 30 days; I can offer store credit for the full price instead.',
                      answerB: 'Sure, I have refunded you.',
                    },
                  },
                ],
                labelsPerItem: 2,
              },
            },
            fromEvaluations: {
              summary: 'Items from evaluations, blind',
              description: "Last night's evaluations judged by version 3, the judge's verdict hidden from annotators.",
              value: {
                name: 'Nightly sample',
                rubric: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b@3',
                fromEvaluations: {
                  filter: {
                    rubric: 'rb_0f8e2c1d9b7a4e6f8a1b2c3d4e5f6a7b@3',
                    metadata: { run: 'nightly-42' },
                    limit: 50,
                  },
                },
                blind: true,
              },
            },
          },
        },
      },
    },
  },
  responses: v1Responses({
    201: {
      ...jsonResponse(QueueSchema, 'Created (also the answer to an idempotent replay).'),
      headers: z.object({
        Location: z.string().openapi({ description: "The queue's URL (relative)." }),
        'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
      }),
    },
    ...bodyErrors(
      'the body fails its schema (see `issues`): neither or both of `items` and `fromEvaluations`, a duplicate item id, a task of the other kind or one the rubric cannot judge (`items.N.task`), a filter that finds nothing (`fromEvaluations.filter`).',
    ),
    404: notFound('rubric, version or tag'),
    409: errorResponse(
      ['idempotency_conflict', 'rubric_archived'],
      'the `Idempotency-Key` was used with a different body, or the rubric is archived and named without a version.',
    ),
  }),
});

const ListQuery = z
  .object({
    cursor: z
      .string()
      .optional()
      .openapi({ param: { description: 'The `nextCursor` of the previous page (opaque).' } }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(20)
      .openapi({ param: { description: 'Per page, 1-100 (default 20).' } }),
  })
  .strict();

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listAnnotationQueues',
  tags: TAGS,
  summary: 'List annotation queues',
  description: "The tenant's queues with their progress, newest first; page with `cursor`.",
  ...scoped('read'),
  request: { query: ListQuery },
  responses: v1Responses({
    200: jsonResponse(
      z
        .object({
          data: z.array(QueueSchema),
          nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last one.'),
        })
        .strict()
        .meta({ id: 'AnnotationQueueList' }),
      'One page of queues.',
    ),
    400: BAD_QUERY,
  }),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getAnnotationQueue',
  tags: TAGS,
  summary: 'Get an annotation queue',
  description: 'The queue with its items per status (`pending`, `labelled`, `needsAdjudication`, `adjudicated`).',
  ...scoped('read'),
  request: { params: QueueParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(QueueSchema, 'The queue.'), 400: BAD_QUERY, 404: notFound('queue') }),
});

const next = createRoute({
  method: 'get',
  path: '/{id}/next',
  operationId: 'nextAnnotationItem',
  tags: TAGS,
  summary: "The caller's next item to label",
  description:
    'The first item, in queue order, that this annotator has not labelled and that still waits for labels, with what a label must look like ' +
    "(the rubric's kind, scale and aspects) and the judge's verdict (null in a blind queue). 204 when none is left for this annotator. " +
    'Annotators are told apart by key, or by `x-annotator` under one key.',
  ...scoped('read'),
  request: { params: QueueParams, query: NoQuery, headers: AnnotatorHeader },
  responses: v1Responses({
    200: jsonResponse(NextItemSchema, 'The next item.'),
    204: { description: 'No item is left for this annotator.' },
    400: BAD_QUERY,
    404: notFound('queue'),
  }),
});

const getItem = createRoute({
  method: 'get',
  path: '/{id}/items/{itemId}',
  operationId: 'getAnnotationItem',
  tags: TAGS,
  summary: 'One item with its labels',
  description:
    'Every label of the item (annotators, the judge, an adjudicator), where it stands, and its label once it has one.',
  ...scoped('read'),
  request: { params: ItemParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(QueueItemSchema, 'The item.'),
    400: BAD_QUERY,
    404: notFound('queue or item'),
  }),
});

const label = createRoute({
  method: 'post',
  path: '/{id}/items/{itemId}/labels',
  operationId: 'labelAnnotationItem',
  tags: TAGS,
  summary: 'Label an item',
  description:
    "The annotator's label (`winner` pairwise; `score` and/or `aspects` pointwise, on the rubric's scales), provenance `human`. A second label " +
    'by the same annotator replaces the first. `adjudicate: true` gives the adjudicator’s label, which settles the item whatever the ' +
    'annotators said (the way out of `needs_adjudication`). Answers the item with its labels and where it stands.',
  middleware: [requireScope('evaluations:write'), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: ItemParams,
    query: NoQuery,
    headers: AnnotatorHeader,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: PostLabelRequestSchema,
          examples: {
            pairwise: {
              summary: 'A winner',
              value: { label: { winner: 'A' }, comment: 'B promises a refund the policy does not allow' },
            },
            pointwise: {
              summary: 'Scores per aspect',
              value: { label: { score: 4, aspects: { tone: 5, policy: 3 } } },
            },
            adjudicate: { summary: "The adjudicator's label", value: { label: { winner: 'B' }, adjudicate: true } },
          },
        },
      },
    },
  },
  responses: v1Responses({
    200: jsonResponse(QueueItemSchema, 'The item with its labels.'),
    ...bodyErrors(
      'the label does not fit the rubric (`label.winner`, `label.score`, `label.aspects.<name>`: the kind, a score off the scale, an aspect it does not have), or `annotator` differs from `x-annotator`.',
    ),
    404: notFound('queue or item'),
  }),
});

/** Routes under `/v1/annotation-queues`. */
export const annotationQueues = new OpenAPIHono<TenantEnv>()
  .openapi(create, async (c) => {
    const key = c.req.valid('header')['Idempotency-Key'] ?? null;
    const body = c.req.valid('json');
    const from = body.fromEvaluations ? itemsFromEvaluations(c.env, c.var.tenant, body.fromEvaluations) : undefined;
    const { queue, replayed } = await createQueue(c.env, c.var.tenant, body, key, from);
    setCreatedHeaders(c, queue.links.self, replayed);
    return c.json(queue, 201);
  })
  .openapi(list, async (c) => c.json(await listQueuesView(c.env, c.var.tenant, c.req.valid('query')), 200))
  .openapi(get, async (c) =>
    c.json(await queueView(c.env, await requireQueue(c.env, c.var.tenant, c.req.valid('param').id)), 200),
  )
  .openapi(next, async (c) => {
    const who = annotatorOf(c, c.req.valid('header')['x-annotator']);
    const item = await nextItem(c.env, c.var.tenant, c.req.valid('param').id, who);
    return item ? c.json(item, 200) : c.body(null, 204);
  })
  .openapi(getItem, async (c) => {
    const { id, itemId } = c.req.valid('param');
    return c.json(await itemView(c.env, await requireQueue(c.env, c.var.tenant, id), itemId), 200);
  })
  .openapi(label, async (c) => {
    const { id, itemId } = c.req.valid('param');
    const body = c.req.valid('json');
    const who = annotatorOf(c, c.req.valid('header')['x-annotator'], body.annotator);
    return c.json(await postLabel(c.env, c.var.tenant, id, itemId, body, who), 200);
  })
  // The label files' export and import, after the routes above as before the split.
  .route('/', annotationExchange);
