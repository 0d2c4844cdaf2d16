/**
 * @module
 * `POST /v1/traces` as the OTLP specification defines it: the body read in its encoding (./otlp-body.ts), the
 * per-request span limit, each span normalized (a bad one rejected alone), the spans queued to their traces'
 * objects, and the answer in the request's encoding: 200 with `partial_success` when spans were rejected (or
 * strings were cut: a warning with 0 rejected), a `google.rpc.Status` on failure.
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import { MAX_ATTRIBUTE_CHARS } from './attributes.js';
import { enqueueSpans, MAX_MESSAGE_BYTES } from './ingest.js';
import { countSpans, normalizeRequest } from './normalize.js';
import type { OtlpEncoding } from './otlp-body.js';
import { encodingOf, OtlpError, readOtlpBody } from './otlp-body.js';
import { encodeProtobufResponse, encodeProtobufStatus } from './otlp-proto.js';

/** An OTLP answer in the request's encoding. */
function answer(encoding: OtlpEncoding, status: number, json: object, protobuf: Uint8Array): Response {
  if (encoding === 'protobuf')
    return new Response(protobuf, { status, headers: { 'content-type': 'application/x-protobuf' } });
  return new Response(JSON.stringify(json), { status, headers: { 'content-type': 'application/json' } });
}

/** A failure: its status and a `google.rpc.Status`. */
export function otlpFailure(encoding: OtlpEncoding, e: OtlpError): Response {
  const res = answer(encoding, e.status, { code: e.code, message: e.message }, encodeProtobufStatus(e.code, e.message));
  if (e.status === 503) res.headers.set('retry-after', '5');
  return res;
}

/** Handles one export request of `tenant` (see the module note). */
export async function exportTraces(
  env: Bindings,
  request: Request,
  tenant: string,
  retentionDays: number,
): Promise<Response> {
  const encoding = encodingOf(request.headers.get('content-type') ?? undefined);
  if (encoding === null) {
    return otlpFailure(
      'json',
      new OtlpError(415, 3, 'Content-Type must be application/x-protobuf or application/json (OTLP/HTTP)'),
    );
  }
  try {
    const config = configOf(env);
    const req = await readOtlpBody(request, encoding, config.OTLP_MAX_BODY_BYTES);
    const count = countSpans(req);
    if (count > config.OTLP_MAX_SPANS) {
      throw new OtlpError(
        413,
        8,
        `the request carries ${count} spans, more than ${config.OTLP_MAX_SPANS} (OTLP_MAX_SPANS); export smaller batches`,
      );
    }
    const read = normalizeRequest(req);
    let tooLarge = 0;
    try {
      tooLarge = (await enqueueSpans(env, tenant, retentionDays, read.spans)).tooLarge;
    } catch (e) {
      log('error', 'traces.enqueue_failed', { tenant, spans: read.spans.length, error: messageOf(e) });
      throw new OtlpError(503, 14, 'spans could not be queued; retry (a repeat stores each span once)');
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
  } catch (e) {
    if (e instanceof OtlpError) return otlpFailure(encoding, e);
    throw e;
  }
}
