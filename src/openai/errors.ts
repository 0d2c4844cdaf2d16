/**
 * @module
 * Errors of the OpenAI-compatible routes in OpenAI's shape, `{ error: { message, type, code, param } }`,
 * which the OpenAI SDKs parse into `APIError` (`err.code`, `err.param`, `err.type`). `code` keeps
 * Tribunal's stable codes; `issues` and `requestId` stay as extra fields.
 *
 * {@link openAiErrorShape} rewrites every Tribunal error answered on these paths, whoever raised it (auth,
 * body limits, validation, 404/405, a bug), so one route family never answers in two shapes.
 *
 * `x-should-retry` tells the OpenAI SDKs (which otherwise retry 408, 409, 429 and 5xx twice) whether a
 * retry is useful: not for 409, 502 or 500 (a retry without an `Idempotency-Key` runs a second,
 * billed debate), and for a 504 only when the request carried an `Idempotency-Key` (the retry then
 * waits on the same evaluation). A route that knows better sets the header itself, and it is kept (a keyed
 * request whose first run is still going: its retry gets the stored answer).
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { documentErrorsAs, rewriteErrors } from '../http/error-shape.js';
import { bodyValidationHook, invalidRequest, toIssues } from '../http/errors.js';
import type { ErrorBody, Issue } from '../http/errors.js';
import type { TenantEnv } from '../tenants/auth.js';
import type { OpenAIErrorBody, OpenAIErrorCode } from './schemas.js';
import { OpenAIErrorBodySchema, OpenAIErrorTypeSchema, REFUSED_PARAMETERS } from './schemas.js';

type OpenAIErrorType = (typeof OpenAIErrorTypeSchema.options)[number];

/** OpenAI's error `type` for an HTTP status. */
export function errorTypeOf(status: number): OpenAIErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 504) return 'timeout_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** Tribunal's error body in OpenAI's shape; `param` is the first issue's field, if any. */
export function toOpenAiError(body: ErrorBody, status: number): OpenAIErrorBody {
  const { code, message, issues, requestId, resetAt, labelsNeeded } = body.error;
  return {
    error: {
      message,
      type: errorTypeOf(status),
      code,
      param: issues?.[0]?.path ?? null,
      ...(issues ? { issues } : {}),
      ...(requestId ? { requestId } : {}),
      ...(resetAt ? { resetAt } : {}),
      ...(labelsNeeded ? { labelsNeeded } : {}),
    },
  };
}

/** Extra fields of an OpenAI-shaped error (see `OpenAIErrorBodySchema`). */
export type OpenAIErrorExtra = Omit<OpenAIErrorBody['error'], 'message' | 'type' | 'code' | 'param'> & {
  param?: string | null;
};

/** An OpenAI-shaped error body. */
export function openAiError(
  status: number,
  code: OpenAIErrorCode,
  message: string,
  extra: OpenAIErrorExtra = {},
): OpenAIErrorBody {
  return { error: { message, type: errorTypeOf(status), code, param: null, ...extra } };
}

/** Whether an OpenAI SDK should retry this answer (header `x-should-retry`); see the module note. */
export function shouldRetry(status: number, hasIdempotencyKey: boolean): boolean {
  if (status === 504) return hasIdempotencyKey;
  return status === 408 || status === 429 || status === 503;
}

/** A JSON response with an OpenAI-shaped error and its `x-should-retry`. */
export function openAiErrorResponse(
  status: ContentfulStatusCode,
  body: OpenAIErrorBody,
  hasIdempotencyKey: boolean,
  headers: HeadersInit = {},
): Response {
  const h = new Headers(headers);
  h.set('Content-Type', 'application/json; charset=UTF-8');
  h.set('x-should-retry', String(shouldRetry(status, hasIdempotencyKey)));
  return new Response(JSON.stringify(body), { status, headers: h });
}

/**
 * Middleware for the OpenAI-compatible paths, registered before auth: rewrites a Tribunal error
 * response (`{ error: { code, message, issues? } }`) into OpenAI's shape with the same status and
 * headers, and sets `x-should-retry`. Answers already in OpenAI's shape pass unchanged.
 */
export const openAiErrorShape = () =>
  rewriteErrors<TenantEnv>((error, status, c) => ({
    body: JSON.stringify(toOpenAiError(error, status)),
    contentType: 'application/json; charset=UTF-8',
    headers: {
      'x-should-retry':
        c.res.headers.get('x-should-retry') ??
        String(shouldRetry(status, c.req.header('Idempotency-Key') !== undefined)),
    },
  }));

/**
 * A route's documented responses (e.g. from `v1Responses`) with every error body in OpenAI's shape, the
 * description (its stable codes) kept: for a route family mounted behind {@link openAiErrorShape}, whose
 * answers the middleware rewrites, so the document says what is answered.
 */
export function inOpenAiShape<R extends object>(responses: R) {
  return documentErrorsAs(responses, { 'application/json': { schema: OpenAIErrorBodySchema } });
}

/** A body issue reworded for the OpenAI parameters a judge refuses, so the 400 says why. */
function explain(issue: Issue): Issue {
  const unknown = /^unknown field "(.+)"$/.exec(issue.message)?.[1];
  if (unknown !== undefined && issue.path === unknown) {
    const reason = (REFUSED_PARAMETERS as Readonly<Record<string, string | undefined>>)[unknown];
    return {
      path: issue.path,
      message: reason ? `"${unknown}" is not supported: ${reason}` : `unknown parameter "${unknown}"`,
    };
  }
  if (issue.path === 'n')
    return { path: 'n', message: 'n must be 1: a request is one evaluation (send n requests for n verdicts)' };
  if (issue.path === 'response_format.type') {
    return {
      path: issue.path,
      message:
        'response_format must be "text" or "json_object": the verdict has its own schema (JudgeVerdict), json_schema cannot change it',
    };
  }
  return issue;
}

/**
 * Validation hook of `POST /v1/chat/completions`: as the API's (`validationHook`, src/http/errors.ts), with the
 * refused OpenAI parameters named with their reason (`"tools" is not supported: a judge calls no tools`).
 */
export const chatValidationHook = bodyValidationHook((error) => {
  throw invalidRequest(toIssues(error).map(explain), 'request body');
});
