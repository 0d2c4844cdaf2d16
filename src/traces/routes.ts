/**
 * @module
 * `POST /v1/traces` (OTLP/HTTP, the OTLP default path: an exporter pointed at the deployment works unchanged)
 * and `GET /v1/traces/{traceId}`. Both authenticate with the tenant's key like every `/v1` route.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ErrorBodySchema } from '../http/errors.js';
import { BAD_QUERY, jsonResponse, NoQuery, notFound, v1Responses } from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { configOf } from '../config/vars.js';
import { exportTraces } from './export.js';
import { readTrace } from './read.js';
import { OtlpExportResponseSchema, OtlpStatusSchema, ProtobufBodySchema, TraceParams, TraceSchema } from './schemas.js';

const TAGS = ['traces'];

/** An OTLP failure's documented body, in either encoding. */
function otlpStatus(description: string) {
  return {
    description,
    content: {
      'application/json': { schema: OtlpStatusSchema },
      'application/x-protobuf': { schema: ProtobufBodySchema },
    },
  };
}

const exportRoute = createRoute({
  method: 'post',
  path: '/',
  operationId: 'exportTraces',
  tags: TAGS,
  summary: 'Export spans (OTLP/HTTP)',
  description:
    'OTLP/HTTP trace export as the OTLP specification defines it: a binary (`application/x-protobuf`) or JSON (`application/json`) ' +
    '`ExportTraceServiceRequest`, optionally `Content-Encoding: gzip`; the answer is in the same encoding. Point an OpenTelemetry ' +
    'exporter at the deployment (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://…/v1/traces`, header `Authorization=Bearer trb_…`). ' +
    "Spans are read with OpenTelemetry's GenAI semantic conventions and OpenInference's attributes, queued, and kept in their trace " +
    "(one store per trace) for the tenant's retention; each (traceId, spanId) is kept once, so a re-export adds nothing. " +
    'A span with a bad id is rejected alone (200 with `partialSuccess`). Limits: `OTLP_MAX_BODY_BYTES` (before and after gzip) and ' +
    '`OTLP_MAX_SPANS` per request, 413 past either.',
  middleware: [requireScope('evaluations:write')] as const,
  security: scopeSecurity('evaluations:write'),
  request: {
    query: NoQuery,
    body: {
      required: true,
      content: {
        'application/x-protobuf': { schema: { type: 'string', format: 'binary' } },
        'application/json': {
          schema: {
            type: 'object',
            description: 'OTLP/JSON `ExportTraceServiceRequest` (`resourceSpans`); unknown fields are ignored.',
          },
        },
      },
    },
  },
  responses: v1Responses({
    200: {
      description: 'Accepted; `partialSuccess` counts the spans rejected and says why.',
      content: {
        'application/json': { schema: OtlpExportResponseSchema },
        'application/x-protobuf': { schema: ProtobufBodySchema },
      },
    },
    400: otlpStatus('the body does not decode (bad protobuf, JSON or gzip). Not retryable.'),
    413: otlpStatus(
      'the body is over OTLP_MAX_BODY_BYTES (before or after gzip), or carries more than OTLP_MAX_SPANS spans.',
    ),
    415: otlpStatus(
      'Content-Type is neither application/x-protobuf nor application/json, or Content-Encoding is not gzip.',
    ),
    503: {
      description:
        "the span queue is unavailable (retryable, `Retry-After`; a repeat stores each span once), or the deployment's configuration is invalid.",
      content: {
        'application/json': { schema: z.union([OtlpStatusSchema, ErrorBodySchema]) },
        'application/x-protobuf': { schema: ProtobufBodySchema },
      },
    },
  }),
});

const getRoute = createRoute({
  method: 'get',
  path: '/{traceId}',
  operationId: 'getTrace',
  tags: TAGS,
  summary: 'Get a trace',
  description:
    'The spans received so far, in tree order (depth first from each root, siblings by start time), each normalized (`genAi`: ' +
    'model calls, tool calls, agents), and the evaluations made of them. Spans are stored a moment after the export answers.',
  ...scoped('read'),
  request: { params: TraceParams, query: NoQuery },
  responses: v1Responses({ 200: jsonResponse(TraceSchema, 'The trace.'), 400: BAD_QUERY, 404: notFound('trace') }),
});

/** The `/v1/traces` routes. */
export const traces = new OpenAPIHono<TenantEnv>()
  .openapi(exportRoute, (c) =>
    exportTraces(c.env, c.req.raw, c.var.tenant, c.var.auth.limits?.retentionDays ?? configOf(c.env).RETENTION_DAYS),
  )
  .openapi(getRoute, async (c) => c.json(await readTrace(c.env, c.var.tenant, c.req.valid('param').traceId), 200));
