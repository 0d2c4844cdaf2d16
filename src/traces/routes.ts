/**
 * @module
 * `POST /v1/traces` (OTLP/HTTP, the OTLP default path: an exporter pointed at the deployment works unchanged)
 * and `GET` / `DELETE /v1/traces/{traceId}`. All authenticate with the tenant's key like every `/v1` route.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { BAD_QUERY, errorResponse, jsonResponse, NoQuery, notFound, v1Responses } from '../http/responses.js';
import type { TenantEnv } from '../tenants/auth.js';
import { requireScope, scoped, scopeSecurity } from '../tenants/auth.js';
import { configOf } from '../config/vars.js';
import { exportTraces } from './export.js';
import { readTrace } from './read.js';
import { eraseTrace } from './erase.js';
import { inOtlpShape } from './otlp-errors.js';
import { OtlpExportResponseSchema, ProtobufBodySchema, TraceParams, TraceSchema } from './schemas.js';

const TAGS = ['traces'];

/** The body example: one chat span of an agent run, as OpenTelemetry's GenAI conventions write it. */
const EXPORT_EXAMPLE = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'support-agent' } }] },
      scopeSpans: [
        {
          scope: { name: 'openai-instrumentation' },
          spans: [
            {
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId: 'eee19b7ec3c1b174',
              name: 'chat gpt-4o',
              kind: 3,
              startTimeUnixNano: '1767225600000000000',
              endTimeUnixNano: '1767225601200000000',
              attributes: [
                { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
                {
                  key: 'gen_ai.input.messages',
                  value: {
                    stringValue: JSON.stringify([
                      { role: 'user', parts: [{ type: 'text', content: 'Can I return shoes after 60 days?' }] },
                    ]),
                  },
                },
                {
                  key: 'gen_ai.output.messages',
                  value: {
                    stringValue: JSON.stringify([
                      { role: 'assistant', parts: [{ type: 'text', content: 'Returns are accepted within 30 days.' }] },
                    ]),
                  },
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

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
    "A tenant that stores no content (`storeContent: false`) keeps each span's texts only until its trace's monitors have judged them " +
    "(`TRACE_QUIET_MS` after the trace's last span once its root span has ended; at most 15 minutes while it has not), then their sha-256. " +
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
          examples: {
            chat: { summary: 'A chat span', description: 'One model call of an agent run.', value: EXPORT_EXAMPLE },
          },
        },
      },
    },
  },
  // Every failure is a google.rpc.Status in the request's encoding (./otlp-errors.ts), the kernel's too.
  responses: inOtlpShape(
    v1Responses({
      200: {
        description: 'Accepted; `partialSuccess` counts the spans rejected and says why.',
        content: {
          'application/json': { schema: OtlpExportResponseSchema },
          'application/x-protobuf': { schema: ProtobufBodySchema },
        },
      },
      400: errorResponse(
        ['invalid_request', 'invalid_json'],
        'the body does not decode (bad protobuf, JSON or gzip), or an unknown query parameter. Not retryable.',
      ),
      413: errorResponse(
        ['payload_too_large'],
        'the body is over OTLP_MAX_BODY_BYTES (before or after gzip), or carries more than OTLP_MAX_SPANS spans.',
      ),
      415: errorResponse(
        ['unsupported_media_type'],
        'Content-Type is neither application/x-protobuf nor application/json, or Content-Encoding is not gzip.',
      ),
      503: errorResponse(
        ['unavailable', 'config_invalid', 'auth_not_configured'],
        "the span queue is unavailable (retryable, `Retry-After`; a repeat stores each span once), or the deployment's configuration is invalid.",
      ),
    }),
  ),
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

const removeRoute = createRoute({
  method: 'delete',
  path: '/{traceId}',
  operationId: 'deleteTrace',
  tags: TAGS,
  summary: 'Delete a trace',
  description:
    "Data retention: erases the trace's spans and their texts, its index, and the evaluations made of it (a monitor's, or any " +
    'whose `source` names the trace, yours too: each as `DELETE /v1/evaluations/{id}` erases it). Afterwards the trace reads as 404, ' +
    "and a span of it arriving later (a re-export, a span still queued) is dropped until the retention's deadline the trace had " +
    '(none with `retentionDays` 0). Idempotent: deleting again answers 204.',
  ...scoped('evaluations:write'),
  request: { params: TraceParams, query: NoQuery },
  responses: v1Responses({
    204: { description: 'Deleted (also when it was deleted before).' },
    400: BAD_QUERY,
    404: notFound('trace'),
  }),
});

/** The `/v1/traces` routes. */
export const traces = new OpenAPIHono<TenantEnv>()
  .openapi(exportRoute, (c) =>
    exportTraces(
      c.env,
      c.req.raw,
      c.var.tenant,
      c.var.auth.limits?.retentionDays ?? configOf(c.env).RETENTION_DAYS,
      c.var.auth.limits?.storeContent ?? true,
    ),
  )
  .openapi(getRoute, async (c) => c.json(await readTrace(c.env, c.var.tenant, c.req.valid('param').traceId), 200))
  .openapi(removeRoute, async (c) => {
    await eraseTrace(c.env, c.var.tenant, c.req.valid('param').traceId);
    return c.body(null, 204);
  });
