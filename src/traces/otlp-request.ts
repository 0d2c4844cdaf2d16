/**
 * @module
 * An OTLP `ExportTraceServiceRequest` in one shape, whichever encoding carried it: {@link OtlpJsonRequestSchema}
 * reads OTLP/JSON (lowerCamelCase keys, hex ids, 64-bit integers as strings or numbers, enums as integers;
 * unknown fields ignored, as the OTLP specification requires), and src/traces/otlp-proto.ts turns the binary
 * encoding into the same {@link OtlpRequest}. Per-span problems (a bad id) are not schema errors: the span is
 * rejected alone (partial success), so ids are plain strings here.
 */
import { z } from 'zod';

/** An OTLP AnyValue in JSON. */
export interface OtlpAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: string | number | null;
  doubleValue?: number | string | null;
  arrayValue?: { values?: OtlpAnyValue[] | null } | null;
  kvlistValue?: { values?: OtlpKeyValue[] | null } | null;
  bytesValue?: string | null;
}

/** An OTLP KeyValue. */
export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue | null;
}

const Int64 = z.union([z.string().regex(/^-?\d{1,20}$/), z.number().int()]);

const AnyValue: z.ZodType<OtlpAnyValue> = z.lazy(() =>
  z.object({
    stringValue: z.string().nullish(),
    boolValue: z.boolean().nullish(),
    intValue: Int64.nullish(),
    doubleValue: z.union([z.number(), z.string()]).nullish(),
    arrayValue: z.object({ values: z.array(AnyValue).nullish() }).nullish(),
    kvlistValue: z.object({ values: z.array(KeyValue).nullish() }).nullish(),
    bytesValue: z.string().nullish(),
  }),
);

const KeyValue: z.ZodType<OtlpKeyValue> = z.lazy(() => z.object({ key: z.string(), value: AnyValue.nullish() }));

const Attributes = z.array(KeyValue).nullish();

const Span = z.object({
  traceId: z.string().nullish(),
  spanId: z.string().nullish(),
  parentSpanId: z.string().nullish(),
  name: z.string().nullish(),
  kind: z.number().int().nullish(),
  startTimeUnixNano: Int64.nullish(),
  endTimeUnixNano: Int64.nullish(),
  attributes: Attributes,
  events: z
    .array(z.object({ timeUnixNano: Int64.nullish(), name: z.string().nullish(), attributes: Attributes }))
    .nullish(),
  status: z.object({ code: z.number().int().nullish(), message: z.string().nullish() }).nullish(),
});

/** OTLP/JSON `ExportTraceServiceRequest`. */
export const OtlpJsonRequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: Attributes }).nullish(),
        scopeSpans: z
          .array(
            z.object({
              scope: z.object({ name: z.string().nullish() }).nullish(),
              spans: z.array(Span).nullish(),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
});
/** An export request in the one shape both encodings decode to. */
export type OtlpRequest = z.infer<typeof OtlpJsonRequestSchema>;
/** One span of an export request. */
export type OtlpSpan = z.infer<typeof Span>;
