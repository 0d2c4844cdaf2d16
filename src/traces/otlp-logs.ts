/**
 * @module
 * OTLP logs on the wire, outbound: an `ExportLogsServiceRequest` in the OTLP/JSON shape (hex ids, nanosecond
 * times as decimal strings, enums as integers), and its binary encoding through the same protobufjs code as the
 * traces' ingest (./otlp-proto/otlp.js, generated from the OTLP protos). What a record says is its sender's
 * (src/exports/ builds the `gen_ai.evaluation.result` events).
 */
import protobuf from 'protobufjs/minimal.js';
import { opentelemetry } from './otlp-proto/otlp.js';

// Plain Uint8Array writers, as ./otlp-proto.ts sets them: workerd's Buffer refuses protobufjs's Node calls.
(protobuf.util as { Buffer: unknown }).Buffer = null;
protobuf.configure();

/** An attribute's value: the AnyValue kinds a log record of ours carries. */
export type LogValue =
  { stringValue: string } | { doubleValue: number } | { intValue: string } | { boolValue: boolean };

/** One attribute. */
export interface LogAttribute {
  key: string;
  value: LogValue;
}

/** One log record as OTLP/JSON writes it. */
export interface OtlpLogRecord {
  /** Nanoseconds since the Unix epoch, as a decimal string. */
  timeUnixNano: string;
  observedTimeUnixNano: string;
  /** OTLP's SeverityNumber: 9 INFO, 13 WARN. */
  severityNumber: number;
  severityText: string;
  /** The event's name (OTLP's `event_name`). */
  eventName: string;
  attributes: LogAttribute[];
  /** 32 lowercase hex characters, or absent. */
  traceId?: string;
  /** 16 lowercase hex characters, or absent. */
  spanId?: string;
}

/** An `ExportLogsServiceRequest` of one resource and one instrumentation scope, as OTLP/JSON writes it. */
export interface OtlpLogsRequest {
  resourceLogs: {
    resource: { attributes: LogAttribute[] };
    scopeLogs: { scope: { name: string; version?: string }; logRecords: OtlpLogRecord[] }[];
  }[];
}

/** Bytes of a lowercase hex string. */
function bytesOf(hex: string | undefined): Uint8Array {
  if (!hex) return new Uint8Array(0);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** A decimal uint64 as protobufjs's low and high words, exactly (a nanosecond time passes 2^53). */
function fixed64(decimal: string): { low: number; high: number } {
  const v = BigInt(decimal);
  return { low: Number(v & 0xffffffffn), high: Number(v >> 32n) };
}

/** An attribute's value for the encoder. */
function anyValue(v: LogValue): opentelemetry.proto.common.v1.AnyValue.$Properties {
  if ('intValue' in v) return { intValue: fixed64(v.intValue) as unknown as number };
  return v;
}

function keyValues(list: readonly LogAttribute[]): opentelemetry.proto.common.v1.KeyValue.$Properties[] {
  return list.map((a) => ({ key: a.key, value: anyValue(a.value) }));
}

/** `request` in OTLP's binary encoding (`application/x-protobuf`). */
export function encodeLogsProtobuf(request: OtlpLogsRequest): Uint8Array {
  const v1 = opentelemetry.proto;
  return v1.collector.logs.v1.ExportLogsServiceRequest.encode({
    resourceLogs: request.resourceLogs.map((rl) => ({
      resource: { attributes: keyValues(rl.resource.attributes) },
      scopeLogs: rl.scopeLogs.map((sl) => ({
        scope: sl.scope,
        logRecords: sl.logRecords.map((r) => ({
          // protobufjs takes a uint64 as {low, high}; its typings name only number and Long.
          timeUnixNano: fixed64(r.timeUnixNano) as unknown as number,
          observedTimeUnixNano: fixed64(r.observedTimeUnixNano) as unknown as number,
          severityNumber: r.severityNumber,
          severityText: r.severityText,
          eventName: r.eventName,
          attributes: keyValues(r.attributes),
          traceId: bytesOf(r.traceId),
          spanId: bytesOf(r.spanId),
        })),
      })),
    })),
  }).finish();
}
