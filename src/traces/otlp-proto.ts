/**
 * @module
 * OTLP's binary encoding, through protobufjs and code generated from the OTLP protos
 * (./otlp-proto/otlp.js, `npm run otlp:proto`, static code: the Worker allows no code generated at run time):
 * a request decoded into the one shape of ./otlp-request.ts, and the answers (`ExportTraceServiceResponse`,
 * `google.rpc.Status`) encoded.
 */
import protobuf from 'protobufjs/minimal.js';
import { opentelemetry } from './otlp-proto/otlp.js';
import type { OtlpAnyValue, OtlpKeyValue, OtlpRequest, OtlpSpan } from './otlp-request.js';
import type { OtlpStatus } from './schemas.js';

// Plain Uint8Array readers and writers: protobufjs's Buffer variants call Node's Buffer internals with arguments
// workerd's Buffer refuses (a string past 252 bytes threw RangeError while encoding a Status).
(protobuf.util as { Buffer: unknown }).Buffer = null;
protobuf.configure();

const v1 = opentelemetry.proto;
type PbAnyValue = opentelemetry.proto.common.v1.AnyValue.$Properties;
type PbKeyValue = opentelemetry.proto.common.v1.KeyValue.$Properties;
type PbSpan = opentelemetry.proto.trace.v1.Span.$Properties;
type Int64Like = number | { toString(): string } | null | undefined;

/** Lowercase hex of a byte array ('' for none). */
export function hexOf(bytes: Uint8Array | null | undefined): string {
  if (!bytes) return '';
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** A 64-bit integer (a protobufjs Long or a number) as a decimal string. */
function int64(v: Int64Like): string {
  return v === null || v === undefined ? '0' : v.toString();
}

function base64Of(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function anyValue(v: PbAnyValue | null | undefined): OtlpAnyValue | null {
  if (!v) return null;
  if (v.stringValue !== null && v.stringValue !== undefined) return { stringValue: v.stringValue };
  if (v.boolValue !== null && v.boolValue !== undefined) return { boolValue: v.boolValue };
  if (v.intValue !== null && v.intValue !== undefined) return { intValue: int64(v.intValue) };
  if (v.doubleValue !== null && v.doubleValue !== undefined) return { doubleValue: v.doubleValue };
  if (v.arrayValue) return { arrayValue: { values: (v.arrayValue.values ?? []).map((x) => anyValue(x) ?? {}) } };
  if (v.kvlistValue) return { kvlistValue: { values: keyValues(v.kvlistValue.values) } };
  if (v.bytesValue) return { bytesValue: base64Of(v.bytesValue) };
  return {};
}

function keyValues(list: PbKeyValue[] | null | undefined): OtlpKeyValue[] {
  return (list ?? []).map((kv) => ({ key: kv.key ?? '', value: anyValue(kv.value) }));
}

function span(s: PbSpan): OtlpSpan {
  return {
    traceId: hexOf(s.traceId),
    spanId: hexOf(s.spanId),
    parentSpanId: hexOf(s.parentSpanId),
    name: s.name ?? '',
    kind: s.kind ?? 0,
    startTimeUnixNano: int64(s.startTimeUnixNano),
    endTimeUnixNano: int64(s.endTimeUnixNano),
    attributes: keyValues(s.attributes),
    events: (s.events ?? []).map((e) => ({
      name: e.name ?? '',
      timeUnixNano: int64(e.timeUnixNano),
      attributes: keyValues(e.attributes),
    })),
    status: s.status ? { code: s.status.code ?? 0, message: s.status.message ?? '' } : null,
  };
}

/**
 * Decodes a binary `ExportTraceServiceRequest`.
 * @throws Error when the bytes are not one (the caller answers 400).
 */
export function decodeProtobufRequest(bytes: Uint8Array): OtlpRequest {
  const req = v1.collector.trace.v1.ExportTraceServiceRequest.decode(bytes);
  return {
    resourceSpans: req.resourceSpans.map((rs) => ({
      resource: { attributes: keyValues(rs.resource?.attributes) },
      scopeSpans: (rs.scopeSpans ?? []).map((ss) => ({
        scope: { name: ss.scope?.name ?? '' },
        spans: (ss.spans ?? []).map(span),
      })),
    })),
  };
}

/** A binary `ExportTraceServiceResponse`: empty on full success, else its `partial_success`. */
export function encodeProtobufResponse(partial: { rejectedSpans: number; errorMessage: string } | null): Uint8Array {
  return v1.collector.trace.v1.ExportTraceServiceResponse.encode(
    partial ? { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } } : {},
  ).finish();
}

/**
 * A binary `google.rpc.Status`: code (1, int32), message (2), and its details (3, `Any`: type_url 1, value 2),
 * each a `google.rpc.ErrorInfo` (reason 1, domain 2, metadata 3: map entries of key 1 and value 2).
 */
export function encodeProtobufStatus(status: OtlpStatus): Uint8Array {
  const w = protobuf.Writer.create().uint32(8).int32(status.code).uint32(18).string(status.message);
  for (const d of status.details) {
    const info = protobuf.Writer.create().uint32(10).string(d.reason).uint32(18).string(d.domain);
    for (const [key, value] of Object.entries(d.metadata)) {
      info.uint32(26).fork().uint32(10).string(key).uint32(18).string(value).ldelim();
    }
    w.uint32(26).fork().uint32(10).string(d['@type']).uint32(18).bytes(info.finish()).ldelim();
  }
  return w.finish();
}

/** Decodes a binary `google.rpc.Status` and its first ErrorInfo's reason (tests and clients reading an answer). */
export function decodeProtobufStatus(bytes: Uint8Array): { code: number; message: string; reason: string | null } {
  const r = protobuf.Reader.create(bytes);
  let code = 0;
  let message = '';
  let reason: string | null = null;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag === 8) code = r.int32();
    else if (tag === 18) message = r.string();
    else if (tag === 26) reason ??= errorInfoReason(r.bytes());
    else r.skipType(tag & 7);
  }
  return { code, message, reason };
}

/** The ErrorInfo reason inside a Status detail (`Any`), or null. */
function errorInfoReason(any: Uint8Array): string | null {
  const r = protobuf.Reader.create(any);
  let reason: string | null = null;
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag !== 18) {
      r.skipType(tag & 7);
      continue;
    }
    const info = protobuf.Reader.create(r.bytes());
    while (info.pos < info.len) {
      const t = info.uint32();
      if (t === 10) reason = info.string();
      else info.skipType(t & 7);
    }
  }
  return reason;
}
