/**
 * @module
 * `POST /v1/traces` as the OTLP specification defines it: the body read in its encoding (./otlp-body.ts), the
 * per-request span limit, each span normalized (a bad one rejected alone), the spans queued to their traces'
 * objects, and the answer in the request's encoding: 200 with `partial_success` when spans were rejected (or
 * strings were cut: a warning with 0 rejected). Failures are thrown as {@link ApiError}s and answered as a
 * `google.rpc.Status` (./otlp-errors.ts).
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import { MAX_ATTRIBUTE_CHARS } from './attributes.js';
import { enqueueSpans, MAX_MESSAGE_BYTES } from './ingest.js';
import { countSpans, normalizeRequest } from './normalize.js';
import type { OtlpEncoding } from './otlp-body.js';
import { encodingOf, readOtlpBody } from './otlp-body.js';
import { encodeProtobufResponse } from './otlp-proto.js';
import { ApiError } from '../http/errors.js';

/** An OTLP answer in the request's encoding. */
function answer(encoding: OtlpEncoding, status: number, json: object, protobuf: Uint8Array): Response {
  if (encoding === 'protobuf')
    return new Response(protobuf, { status, headers: { 'content-type': 'application/x-protobuf' } });
  return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Handles one export request of `tenant` (see the module note); `storeContent` false (a tenant that stores no
 * content) has the spans' texts hashed once their trace's monitors have judged them (src/traces/store.ts).
 * @throws ApiError 415 for another Content-Type or Content-Encoding, 413 past `OTLP_MAX_BODY_BYTES` or
 *   `OTLP_MAX_SPANS`, 400 for a body that does not decode, 503 when the queue refuses the spans (retryable).
 */
export async function exportTraces(
  env: Bindings,
  request: Request,
  tenant: string,
  retentionDays: number,
  storeContent = true,
): Promise<Response> {
  const encoding = encodingOf(request.headers.get('content-type') ?? undefined);
  if (encoding === null) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'Content-Type must be application/x-protobuf or application/json (OTLP/HTTP)',
    );
  }
  const config = configOf(env);
  const req = await readOtlpBody(request, encoding, config.OTLP_MAX_BODY_BYTES);
  const count = countSpans(req);
  if (count > config.OTLP_MAX_SPANS) {
    throw new ApiError(
      413,
      'payload_too_large',
      `the request carries ${count} spans, more than ${config.OTLP_MAX_SPANS} (OTLP_MAX_SPANS); export smaller batches`,
    );
  }
  const read = normalizeRequest(req);
  let tooLarge = 0;
  try {
    tooLarge = (await enqueueSpans(env, tenant, retentionDays, read.spans, storeContent)).tooLarge;
  } catch (e) {
    log('error', 'traces.enqueue_failed', { tenant, spans: read.spans.length, error: messageOf(e) });
    throw new ApiError(
      503,
      'unavailable',
      'spans could not be queued; retry (a repeat stores each span once)',
      undefined,
      {
        headers: { 'Retry-After': '5' },
      },
    );
  }
  const rejected = read.rejected + tooLarge;
  const notes = [
    ...read.reasons,
    ...(tooLarge > 0 ? [`${tooLarge} span(s) larger than ${MAX_MESSAGE_BYTES} bytes once read`] : []),
    ...(read.truncated > 0 ? [`${read.truncated} string value(s) cut at ${MAX_ATTRIBUTE_CHARS} characters`] : []),
  ];
  if (rejected === 0 && notes.length === 0) return answer(encoding, 200, {}, encodeProtobufResponse(null));
  const errorMessage = `${rejected} of ${count} span(s) rejected: ${notes.join('; ')}`;
  return answer(
    encoding,
    200,
    { partialSuccess: { rejectedSpans: String(rejected), errorMessage } },
    encodeProtobufResponse({ rejectedSpans: rejected, errorMessage }),
  );
}
