/**
 * @module
 * Reading an OTLP/HTTP request body: its encoding by `Content-Type` (`application/x-protobuf` or
 * `application/json`), `Content-Encoding: gzip` undone, the size limit held before and after decompression
 * (the OTLP specification: 413), and the bytes decoded into ./otlp-request.ts's shape. Failures are
 * {@link ApiError}s like every route's, answered as a `google.rpc.Status` in the request's encoding
 * (./otlp-errors.ts).
 */
import { ApiError, invalidRequest, toIssues } from '../http/errors.js';
import { decodeProtobufRequest } from './otlp-proto.js';
import type { OtlpRequest } from './otlp-request.js';
import { OtlpJsonRequestSchema } from './otlp-request.js';

/** An OTLP request's encoding, which its answer keeps. */
export type OtlpEncoding = 'json' | 'protobuf';

/** The encoding a `Content-Type` names, or null for one OTLP/HTTP does not define. */
export function encodingOf(contentType: string | undefined): OtlpEncoding | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

function tooLarge(limit: number, what: string): ApiError {
  return new ApiError(
    413,
    'payload_too_large',
    `the ${what} is larger than ${limit} bytes (OTLP_MAX_BODY_BYTES); send smaller batches`,
  );
}

/** Reads a stream whole, failing once it passes `limit` bytes. */
async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  what: string,
): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit, what);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The request's export, decoded.
 * @param limit bytes allowed before and after decompression (`OTLP_MAX_BODY_BYTES`).
 * @throws ApiError 413 past the limit, 415 for an encoding other than gzip, 400 for a body that does not decode.
 */
export async function readOtlpBody(request: Request, encoding: OtlpEncoding, limit: number): Promise<OtlpRequest> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit, 'request body');
  const contentEncoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  let bytes: Uint8Array;
  if (contentEncoding === 'gzip') {
    const compressed = await readLimited(request.body, limit, 'request body');
    const inflated = new Blob([compressed]).stream().pipeThrough(new DecompressionStream('gzip'));
    try {
      bytes = await readLimited(inflated, limit, 'decompressed body');
    } catch (e) {
      if (e instanceof ApiError) throw e;
      throw new ApiError(400, 'invalid_request', 'the body is not valid gzip');
    }
  } else if (contentEncoding === 'identity' || contentEncoding === '') {
    bytes = await readLimited(request.body, limit, 'request body');
  } else {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `Content-Encoding "${contentEncoding}" is not supported; send gzip or none`,
    );
  }
  if (encoding === 'protobuf') {
    try {
      return decodeProtobufRequest(bytes);
    } catch (e) {
      throw new ApiError(
        400,
        'invalid_request',
        `the body is not an ExportTraceServiceRequest: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  if (bytes.byteLength === 0) return { resourceSpans: [] };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (e) {
    throw new ApiError(
      400,
      'invalid_json',
      `the body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const parsed = OtlpJsonRequestSchema.safeParse(json);
  if (!parsed.success) {
    throw invalidRequest(toIssues(parsed.error), 'OTLP/JSON ExportTraceServiceRequest');
  }
  return parsed.data;
}
