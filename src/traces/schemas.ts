/**
 * @module
 * The API's schemas for traces: the OTLP answers as documented (`ExportTraceServiceResponse`,
 * `google.rpc.Status`, in OTLP/JSON) and `GET /v1/traces/{traceId}`'s trace.
 */
import { z } from '@hono/zod-openapi';
import { ErrorCodeSchema } from '../http/errors.js';
import { NORMALIZED_SPAN_SHAPE, SpanIdSchema, TraceIdSchema } from './span-schema.js';
import { TraceEvaluationSchema } from '../evaluations/source.js';

/** OTLP/JSON `ExportTraceServiceResponse`: `partialSuccess` only when spans were rejected or a warning is due. */
export const OtlpExportResponseSchema = z
  .object({
    partialSuccess: z
      .object({
        rejectedSpans: z.string().describe('Spans rejected (an int64, as OTLP/JSON writes it).'),
        errorMessage: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .openapi('OtlpExportTraceServiceResponse');

/** `@type` of the one detail of an OTLP failure's Status. */
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';

/** OTLP/JSON `google.rpc.Status`: the body of every failure of `POST /v1/traces` (src/traces/otlp-errors.ts). */
export const OtlpStatusSchema = z
  .object({
    code: z
      .number()
      .int()
      .describe(
        'gRPC status code of the HTTP status: 3 INVALID_ARGUMENT, 5 NOT_FOUND, 7 PERMISSION_DENIED, 8 RESOURCE_EXHAUSTED, 13 INTERNAL, 14 UNAVAILABLE, 16 UNAUTHENTICATED.',
      ),
    message: z.string(),
    details: z
      .array(
        z
          .object({
            '@type': z.literal(ERROR_INFO_TYPE),
            reason: ErrorCodeSchema.describe("Tribunal's stable error code (the `error.code` of other routes)."),
            domain: z.literal('tribunal'),
            metadata: z
              .object({
                field: z.string().optional().describe('The first failing field or query parameter.'),
                requestId: z.string().optional().describe('On `internal`: quote it.'),
              })
              .strict(),
          })
          .strict(),
      )
      .length(1)
      .describe('One `google.rpc.ErrorInfo`.'),
  })
  .strict()
  .openapi('OtlpStatus');
/** An OTLP failure's Status. */
export type OtlpStatus = z.infer<typeof OtlpStatusSchema>;

/** The binary encoding's bodies (`application/x-protobuf`). */
export const ProtobufBodySchema = z.string().openapi({ format: 'binary' });

/** The path parameter of a trace. */
export const TraceParams = z.object({
  traceId: TraceIdSchema.openapi({
    param: { description: 'The trace id: 32 lowercase hex characters, as OTLP/JSON writes it.' },
    example: '5b8efff798038103d269b633813fc60c',
  }),
});

/** A span in a trace, with its depth in the tree (roots 0) and the evaluations made of it. */
export const TraceTreeSpanSchema = z
  .object({
    ...NORMALIZED_SPAN_SHAPE,
    depth: z.number().int().min(0).describe('Depth in the span tree: 0 for a root.'),
    evaluations: z
      .array(TraceEvaluationSchema)
      .describe(
        "Evaluations made of this span, oldest first: by hand (`source.spanId`) or by a monitor (a trace-scope monitor's judgments are listed on the trace's root span).",
      ),
  })
  .strict()
  .openapi('TraceTreeSpan');

/** `GET /v1/traces/{traceId}`. */
export const TraceSchema = z
  .object({
    traceId: TraceIdSchema,
    rootSpanId: SpanIdSchema.nullable().describe('The span without a parent, once it arrived.'),
    spanCount: z.number().int(),
    spans: z.array(TraceTreeSpanSchema).describe('Depth first from each root, siblings by start time.'),
    evaluations: z
      .array(TraceEvaluationSchema)
      .describe('Evaluations made of the trace without naming a span (by hand), oldest first.'),
  })
  .strict()
  .openapi('Trace');
