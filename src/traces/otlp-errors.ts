/**
 * @module
 * Every failure of `POST /v1/traces` as the OTLP specification requires it: a `google.rpc.Status` in the
 * request's encoding (binary protobuf or JSON), whoever raised it (auth, the rate limit, the query check, the
 * body, the queue, a bug). The route and the kernel raise Tribunal's errors as everywhere else;
 * {@link otlpErrorShape} rewrites each into a Status, keeping the HTTP status and headers (`Retry-After`,
 * `RateLimit`), so the route never answers in two shapes. Tribunal's stable code travels in the Status's one
 * detail, a `google.rpc.ErrorInfo` (`reason`: the code, `domain`: {@link ERROR_DOMAIN}, `metadata.field`: the
 * first issue's field, `metadata.requestId` on `internal`).
 */
import { documentErrorsAs, rewriteErrors } from '../http/error-shape.js';
import type { ErrorBody } from '../http/errors.js';
import type { TenantEnv } from '../tenants/auth.js';
import { encodingOf } from './otlp-body.js';
import { encodeProtobufStatus } from './otlp-proto.js';
import type { OtlpStatus } from './schemas.js';
import { ERROR_INFO_TYPE, OtlpStatusSchema, ProtobufBodySchema } from './schemas.js';

/** `ErrorInfo.domain` of Tribunal's errors. */
export const ERROR_DOMAIN = 'tribunal';

/** The gRPC status code OTLP's Status carries for an HTTP status (clients may log it; none acts on it). */
export function grpcCodeOf(status: number): number {
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 403) return 7; // PERMISSION_DENIED
  if (status === 404) return 5; // NOT_FOUND
  if (status === 405) return 12; // UNIMPLEMENTED
  if (status === 413 || status === 429) return 8; // RESOURCE_EXHAUSTED
  if (status === 503) return 14; // UNAVAILABLE
  if (status === 504) return 4; // DEADLINE_EXCEEDED
  return status >= 500 ? 13 : 3; // INTERNAL : INVALID_ARGUMENT
}

/** Tribunal's error body as an OTLP Status (see the module note). */
export function toOtlpStatus(body: ErrorBody, status: number): OtlpStatus {
  const { code, message, issues, requestId } = body.error;
  const field = issues?.[0]?.path;
  const metadata = { ...(field ? { field } : {}), ...(requestId ? { requestId } : {}) };
  return {
    code: grpcCodeOf(status),
    message,
    details: [{ '@type': ERROR_INFO_TYPE, reason: code, domain: ERROR_DOMAIN, metadata }],
  };
}

/** Middleware for `POST /v1/traces`, registered before auth (see the module note). */
export const otlpErrorShape = () =>
  rewriteErrors<TenantEnv>((error, status, c) => {
    if (c.req.method !== 'POST') return null;
    const statusBody = toOtlpStatus(error, status);
    return encodingOf(c.req.header('Content-Type')) === 'protobuf'
      ? { body: encodeProtobufStatus(statusBody), contentType: 'application/x-protobuf' }
      : { body: JSON.stringify(statusBody), contentType: 'application/json' };
  });

/**
 * The export route's documented responses (e.g. from `v1Responses`) with every error body an OTLP Status in
 * either encoding, the description (its stable codes, now `details[0].reason`) kept: what
 * {@link otlpErrorShape} answers.
 */
export function inOtlpShape<R extends object>(responses: R) {
  return documentErrorsAs(responses, {
    'application/json': { schema: OtlpStatusSchema },
    'application/x-protobuf': { schema: ProtobufBodySchema },
  });
}
