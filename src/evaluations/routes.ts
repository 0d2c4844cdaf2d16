/**
 * @module
 * `/v1/evaluations`: create (202), list, read, task, transcript, cancel, live events and delete. Each route is one
 * definition (`createRoute`): its path, inputs and responses validate requests, type the handler and the
 * `hc` client, and document the operation. Handlers stay thin; the work is in ./service.ts.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { byok } from '../http/byok.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { jsonBody } from '../http/json-body.js';
import { preferWaitHeaders, preferWaitMs, preferWaitResponse, setWaitedOut } from '../http/prefer.js';
import { CANCEL_EXAMPLES, CREATE_EVALUATION_EXAMPLES, FIELD_EXAMPLES } from './examples.js';
import {
  CancelRequestSchema,
  CancelResponseSchema,
  CreateEvaluationRequestSchema,
  EvaluationAcceptedSchema,
  EvaluationSchema,
  EvaluationTaskSchema,
  TranscriptSchema,
} from './schemas.js';
import { createEvaluationJob } from './service.js';
import { awaitEnded, endedView, cancelEvaluation, requireEvaluation, viewTask, viewTranscript } from './views.js';
import type { TenantEnv } from '../tenants/auth.js';
import type { CertifyJudge } from './certified.js';
import type { SourceLinker } from './source.js';
import { recordSource, sourceOfRequest } from './source.js';
import { EvaluationListSchema, ListEvaluationsQuery } from './list-schemas.js';
import { deleteEvaluation, listEvaluationsView } from './list.js';
import { archivedTask, archivedTranscript, findEvaluation } from './archived.js';
import { forwardEvents } from './stub.js';
import { pollEvaluation } from './poll.js';
import { isTerminal } from './status.js';
import {
  acceptedResponses,
  BAD_QUERY,
  certifyResponses,
  PAYLOAD_TOO_LARGE,
  errorResponse,
  judgeBodyResponses,
  jsonResponse,
  notFound,
  NoQuery,
  v1Responses,
  setCreatedHeaders,
} from '../http/responses.js';

/** Path of `/v1/evaluations/{id}…`. */
export const EvaluationIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({
      param: { description: 'Evaluation id (`ev_…`), as returned by `POST /v1/evaluations`.' },
      example: FIELD_EXAMPLES.evaluationId,
    }),
});

/** Headers of `POST /v1/evaluations`: `Idempotency-Key` and `Prefer: wait=<seconds>`. */
const CreateHeadersSchema = preferWaitHeaders('the ended evaluation, verdict included');

const create = createRoute({
  method: 'post',
  path: '/',
  operationId: 'createEvaluation',
  tags: ['evaluations'],
  summary: 'Create an evaluation',
  description:
    'Validates the task and the judge (`preset` + `config` overrides), stores the job and queues it; never waits for the LLM. ' +
    'Poll `GET /v1/evaluations/{id}` or follow `/events` for the verdict, or send `Prefer: wait=<seconds>` to get it in this response ' +
    '(200, the evaluation as `GET /v1/evaluations/{id}` shows it, header `Preference-Applied`) when it ends in time.\n\n' +
    '**Retries:** send an `Idempotency-Key`. A retry with the same key and body returns the same evaluation ' +
    '(202 again, header `Idempotent-Replayed: true`); the same key with another body is 409 `idempotency_conflict`. ' +
    'Without a key, a retry after a lost response creates a second evaluation.',
  middleware: [requireScope('evaluations:write'), byok(), jsonBody()] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    headers: CreateHeadersSchema,
    body: {
      required: true,
      content: { 'application/json': { schema: CreateEvaluationRequestSchema, examples: CREATE_EVALUATION_EXAMPLES } },
    },
  },
  responses: v1Responses(
    certifyResponses(
      judgeBodyResponses({
        ...preferWaitResponse(
          EvaluationSchema,
          'evaluation',
          'Ended within the `Prefer: wait` time: the evaluation with its verdict (or its error).',
        ),
        ...acceptedResponses(
          EvaluationAcceptedSchema,
          'evaluation',
          'Accepted: queued (also the answer to an idempotent replay).',
          { preferWait: true },
        ),
      }),
    ),
  ),
});

const get = createRoute({
  method: 'get',
  path: '/{id}',
  operationId: 'getEvaluation',
  tags: ['evaluations'],
  summary: 'Get an evaluation',
  description:
    'Status, progress (live from the Durable Object while running), the verdict without its transcript, usage and cost, and the error if it failed.',
  ...scoped('read'),
  request: { params: EvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(EvaluationSchema, 'The evaluation.'),
    400: BAD_QUERY,
    404: notFound('evaluation'),
  }),
});

const transcript = createRoute({
  method: 'get',
  path: '/{id}/transcript',
  operationId: 'getEvaluationTranscript',
  tags: ['evaluations'],
  summary: 'Get the transcript',
  description: 'Every stored reply in recording order; `complete` is false until the evaluation ended.',
  ...scoped('read'),
  request: { params: EvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(TranscriptSchema, 'The transcript.'),
    400: BAD_QUERY,
    404: notFound('evaluation'),
  }),
});

const task = createRoute({
  method: 'get',
  path: '/{id}/task',
  operationId: 'getEvaluationTask',
  tags: ['evaluations'],
  summary: 'Get the task',
  description:
    'What is judged, as it was submitted (`GET /v1/evaluations/{id}` leaves it out: a poll should not carry the texts). `task` is null once it is no longer kept.',
  ...scoped('read'),
  request: { params: EvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    200: jsonResponse(EvaluationTaskSchema, 'The task.'),
    400: BAD_QUERY,
    404: notFound('evaluation'),
  }),
});

const cancel = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  operationId: 'cancelEvaluation',
  tags: ['evaluations'],
  summary: 'Cancel an evaluation',
  description:
    'No new LLM calls are made; calls already sent are still recorded and billed, and a call still waiting for its provider slot is not sent. The body is optional.',
  middleware: [requireScope('evaluations:write'), jsonBody({ optional: true })] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    params: EvaluationIdParams,
    query: NoQuery,
    body: {
      required: false,
      content: { 'application/json': { schema: CancelRequestSchema, examples: CANCEL_EXAMPLES } },
    },
  },
  responses: v1Responses({
    200: jsonResponse(CancelResponseSchema, 'Cancelled.'),
    400: errorResponse(['invalid_json', 'invalid_request'], 'the body or the query fails its schema (see `issues`).'),
    404: notFound('evaluation'),
    409: errorResponse(['already_ended'], 'the evaluation succeeded, failed or was cancelled before.'),
    413: PAYLOAD_TOO_LARGE,
    415: errorResponse(['unsupported_media_type'], 'a body was sent whose Content-Type is not application/json.'),
  }),
});

const events = createRoute({
  method: 'get',
  path: '/{id}/events',
  operationId: 'streamEvaluationEvents',
  tags: ['evaluations'],
  summary: 'Live events (SSE or WebSocket)',
  description:
    'Server-sent events by default (`text/event-stream`); send `Upgrade: websocket` for a WebSocket with one JSON `{type, data}` frame per event. ' +
    'Everything so far is replayed first. Events: `status`, `call.started`, `call.finished`, `vote`, `verdict`; the stream closes after a terminal `status`.',
  ...scoped('read'),
  request: { params: EvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    200: {
      description: 'Event stream: `event: <type>` and `data: <JSON>` lines per event.',
      content: {
        'text/event-stream': {
          schema: z.string().openapi({ example: 'event: status\ndata: {"status":"running"}\n\n' }),
        },
      },
    },
    101: { description: 'Switching to a WebSocket (request sent with `Upgrade: websocket`).' },
    400: BAD_QUERY,
    404: notFound('evaluation'),
  }),
});

const list = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listEvaluations',
  tags: ['evaluations'],
  summary: 'List evaluations',
  description:
    "The tenant's evaluations, newest first, with the verdict's headline: filter by `status`, `preset`, `batch`, a `metadata` entry (`key:value`) " +
    "and a creation range (`createdAfter` ≤ created < `createdBefore`); filters combine with AND. Page with `cursor` (the previous page's " +
    '`nextCursor`, with the same filters): pages are keyset-paged, so evaluations created meanwhile never shift or repeat a page. ' +
    'Deleted evaluations are not listed, nor those moved to the archive (ended more than `ARCHIVE_AFTER_DAYS` ago, 7 by default): read those by id.',
  ...scoped('read'),
  request: { query: ListEvaluationsQuery },
  responses: v1Responses({
    200: jsonResponse(EvaluationListSchema, 'One page of evaluations.'),
    400: errorResponse(
      ['invalid_request'],
      'a query parameter fails its schema (unknown, malformed, out of range), or the cursor is not one this API returned.',
    ),
  }),
});

const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  operationId: 'deleteEvaluation',
  tags: ['evaluations'],
  summary: 'Delete an evaluation',
  description:
    "Data retention: erases the task, metadata, transcript and verdict, in D1 and in the evaluation's Durable Object. An evaluation that " +
    'has not ended is cancelled first (calls already sent are still recorded and billed). The per-call usage rows billing needs are kept, and a ' +
    'batch still counts the item. Afterwards the evaluation reads as 404 everywhere (`GET`, transcript, events, cancel) and is not listed; ' +
    "its batch's results show it with `deleted: true`. Idempotent: deleting again answers 204.",
  ...scoped('evaluations:write'),
  request: { params: EvaluationIdParams, query: NoQuery },
  responses: v1Responses({
    204: { description: 'Deleted (also when it was deleted before).' },
    400: BAD_QUERY,
    404: notFound('evaluation'),
  }),
});

/**
 * What the routes are given by the composition (src/app.ts): certified mode's calibration, and how an evaluation
 * made of a trace is recorded on it.
 */
export interface EvaluationRoutesDeps {
  certify: CertifyJudge;
  link: SourceLinker;
}

/** Routes under `/v1/evaluations`. */
export const evaluationRoutes = ({ certify, link }: EvaluationRoutesDeps) =>
  new OpenAPIHono<TenantEnv>()
    .openapi(create, async (c) => {
      const headers = c.req.valid('header');
      const key = headers['Idempotency-Key'] ?? null;
      const waitMs = preferWaitMs(headers.Prefer);
      const started = Date.now();
      const request = c.req.valid('json');
      const {
        body,
        replayed,
        waited,
        ended: known,
      } = await createEvaluationJob(
        c.env,
        c.var.tenant,
        request,
        key,
        { keyId: c.var.auth.keyId, limits: c.var.auth.limits },
        waitMs,
        { certify, spread: true },
      );
      // A replay records it again: the first request may have failed between the insert and this.
      await recordSource(link, c.env, c.var.tenant, body.id, sourceOfRequest(request.source));
      setCreatedHeaders(c, body.links.self, replayed);
      if (waitMs > 0) {
        // The fast start already waited (one round trip to the object); otherwise (a replay, a start left to
        // the queue at the tenant's cap) wait here.
        const ended =
          waited === undefined
            ? await awaitEnded(c.env, c.var.tenant, body.id, waitMs)
            : waited !== 'not_found' && isTerminal(waited)
              ? await endedView(c.env, c.var.tenant, body.id, known)
              : null;
        if (ended) {
          c.header('Preference-Applied', `wait=${waitMs / 1000}`);
          return c.json(body.warnings ? { ...ended, warnings: body.warnings } : ended, 200);
        }
      }
      setWaitedOut(c, waitMs, started);
      return c.json(body, 202);
    })
    .openapi(list, async (c) =>
      c.json(await listEvaluationsView(c.env, c.var.tenant, c.req.valid('query'), c.var.auth.limits), 200),
    )
    .openapi(remove, async (c) => {
      await deleteEvaluation(c.env, c.var.tenant, c.req.valid('param').id);
      return c.body(null, 204);
    })
    // These three also read an evaluation the sweeper moved to the archive (./archived.ts).
    .openapi(get, async (c) => c.json(await pollEvaluation(c.env, c.var.tenant, c.req.valid('param').id), 200))
    .openapi(transcript, async (c) => {
      const found = await findEvaluation(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(found.row ? await viewTranscript(c.env, found.row) : archivedTranscript(found.archived), 200);
    })
    .openapi(task, async (c) => {
      const found = await findEvaluation(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(found.row ? await viewTask(c.env, found.row) : archivedTask(found.archived), 200);
    })
    .openapi(cancel, async (c) => {
      const row = await requireEvaluation(c.env, c.var.tenant, c.req.valid('param').id);
      return c.json(await cancelEvaluation(c.env, row, c.req.valid('json').reason), 200);
    })
    .openapi(events, async (c) => {
      const row = await requireEvaluation(c.env, c.var.tenant, c.req.valid('param').id);
      // The Durable Object serves SSE (default) or a WebSocket (`Upgrade: websocket`) itself.
      return forwardEvents(c.env, row.id, c.req.raw);
    });
