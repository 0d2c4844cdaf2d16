/**
 * @module
 * The API's error model: every error is `{ error: { code, message, issues? } }` with a stable `code`.
 * Handlers throw {@link ApiError} (an `HTTPException`); {@link onError} turns anything thrown into that
 * shape, mapping user mistakes (zod, engine input errors, hono's own 4xx) to 4xx and only real bugs to
 * 500 `internal`, logged as one structured JSON line with the request id.
 */
import type { Context, ValidationTargets } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ConfigError } from '../config/vars.js';
import { EngineInputError } from '../engine/errors.js';
import { log } from '../log/log.js';
import type { KernelEnv } from './kernel-env.js';
import { unknownKeySuggestion, valueSuggestion } from './suggest.js';

/**
 * Stable error codes. Clients may switch on them; messages are for humans and may change.
 * - `invalid_json` 400: body is not JSON (or not UTF-8); `unsupported_media_type` 415: not `application/json`;
 * - `invalid_request` 400: body, path or header fails its schema (see `issues`);
 * - `invalid_config` / `unknown_preset` / `unknown_method` / `task_kind_unsupported` 400: the judge config;
 * - `byok_disabled` 400, `byok_not_supported` 501: the `X-LLM-Api-Key` header;
 * - `payload_too_large` 413, `unauthorized` 401, `not_found` 404, `method_not_allowed` 405 (with `Allow`),
 *   `idempotency_conflict` 409, `already_ended` 409, `unavailable` 503 (health), `llm_not_configured` 503,
 *   `internal` 500 (a bug; quote the request id);
 * - `forbidden` 403: the key lacks the route's scope; `rate_limited` 429: the key's request rate is used up
 *   (`Retry-After`); `quota_exceeded` 429: the tenant's monthly quota is used up (`resetAt`, `Retry-After`);
 *   `conflict` 409: the resource exists already.
 * - webhooks and triggers: `url_not_allowed` 400 (the outbound URL guard; the message names the rule),
 *   `signing_secret_missing` 400, `limit_exceeded` 409, `endpoint_disabled` 409, `invalid_signature` 401
 *   (an inbound hook's signature), `mapping_failed` 422 (a trigger's mapping cannot fill a task field).
 * - `config_invalid` 503: a `[vars]` value of the deployment is invalid (the operator's logs name it).
 * - `tier_unsupported` 400: the request's `tier` is one a provider of its judge does not offer (the message
 *   names the provider).
 * - rubrics: `invalid_rubric` 400 (a rubric's content), `rubric_task_mismatch` 400 (a rubric of the other kind,
 *   or one the task contradicts), `rubric_unsupported` 400 (the judge's template has no criteria slot, or
 *   cannot read the rubric's scale), `invalid_task` 400 (the task lacks what the judge needs), `rubric_archived`
 *   409 (an archived rubric named without a version), `agreement_below_minimum` 409 (a tag's minimum
 *   agreement), `rubric_steps_failed` 502 and `rubric_steps_pending` 503 (G-Eval's auto-CoT steps).
 * - `auth_not_configured` 503: the deployment sets neither `ADMIN_TOKEN` nor `API_KEYS` (and not
 *   `ALLOW_ANONYMOUS=true`), or `/v1/admin` is called without `ADMIN_TOKEN`: closed until an operator sets one.
 * - `unsupported_grader` 400: an eval grader Tribunal does not run (`python`); the message names the alternatives.
 * - certified mode (`certify`): `labels_needed` 409, the rubric version has too few labelled items to calibrate on
 *   (`labelsNeeded`: how many more); `calibration_pending` 503, the judge is still judging them (`Retry-After`).
 */
export const ErrorCodeSchema = z.enum([
  'invalid_json',
  'unsupported_media_type',
  'invalid_request',
  'invalid_config',
  'unknown_preset',
  'unknown_method',
  'task_kind_unsupported',
  'byok_disabled',
  'byok_not_supported',
  'payload_too_large',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'idempotency_conflict',
  'already_ended',
  'unavailable',
  'llm_not_configured',
  'internal',
  'forbidden',
  'rate_limited',
  'quota_exceeded',
  'conflict',
  'url_not_allowed',
  'signing_secret_missing',
  'limit_exceeded',
  'endpoint_disabled',
  'invalid_signature',
  'mapping_failed',
  'config_invalid',
  'tier_unsupported',
  'invalid_rubric',
  'rubric_task_mismatch',
  'rubric_unsupported',
  'invalid_task',
  'rubric_archived',
  'agreement_below_minimum',
  'rubric_steps_failed',
  'rubric_steps_pending',
  'auth_not_configured',
  'unsupported_grader',
  'labels_needed',
  'calibration_pending',
]);
/** One of the stable error codes. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** One failed check: the field path (`task.answerA`, `(root)` for the body) and what is wrong. */
export const IssueSchema = z.object({ path: z.string(), message: z.string() }).strict();
/** A field-level validation issue. */
export type Issue = z.infer<typeof IssueSchema>;

/** Body of every error response. */
export const ErrorBodySchema = z
  .object({
    error: z
      .object({
        code: ErrorCodeSchema,
        message: z.string(),
        /** Field-level issues for `invalid_request`: the first 20; the message says how many more there are. */
        issues: z.array(IssueSchema).optional(),
        /** Request id (also in the `X-Request-Id` header), set on `internal` errors. */
        requestId: z.string().optional(),
        /** When the quota is available again (ISO 8601, UTC), on `quota_exceeded`. */
        resetAt: z.string().optional(),
        /** How many more labelled items certified mode needs, on `labels_needed`. */
        labelsNeeded: z.number().int().positive().optional(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Error' });
/** Body of every error response. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** What an {@link ApiError} adds to its response besides code and message. */
export interface ApiErrorExtra {
  /** Response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** `error.resetAt`: when a quota is available again (ISO 8601). */
  resetAt?: string;
  /** `error.labelsNeeded`: how many more labelled items are needed. */
  labelsNeeded?: number;
}

/** An error with a stable code; thrown from handlers and middleware, rendered by {@link onError}. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    /** Stable code sent as `error.code`. */
    readonly code: ErrorCode,
    message: string,
    /** Field-level issues, for `invalid_request`. */
    readonly issues?: Issue[],
    /** Headers and body fields of the response. */
    readonly extra: ApiErrorExtra = {},
  ) {
    super(status, { message });
  }
}

/**
 * The request body broke off before its end: the client disconnected (or its connection dropped) while
 * sending it. Not a fault of ours: {@link onError} logs it at `info` (`request.client_aborted`), without a
 * stack, and answers 400 `invalid_request` (which the client, gone, will rarely read).
 */
export class ClientAbortedError extends ApiError {
  constructor(
    /** Bytes of the body that arrived before it broke off. */
    readonly bytesRead: number,
    /** What the read failed with (the runtime's words). */
    readonly reason: string,
  ) {
    super(400, 'invalid_request', 'request body: the connection ended before the whole body was sent');
  }
}

/**
 * zod issues as `{ path, message }` with dotted paths, prefixed by `prefix` (e.g. `items.3`). An object's
 * unknown keys become one issue each, at the key's own path, so the message names the field (or query
 * parameter) itself rather than its parent. A mistyped name gets its right spelling (./suggest.ts): an
 * unknown key among the fields found missing beside it, a value outside an enum among its values.
 * @param raw the value that was validated (for the sent values a suggestion reads), when known.
 */
export function toIssues(
  error: Pick<z.ZodError, 'issues'>,
  prefix?: string,
  unknownKey = 'field',
  raw?: unknown,
): Issue[] {
  const pathOf = (segments: readonly PropertyKey[]): string => {
    const parts = [...(prefix ? [prefix] : []), ...segments.map(String)];
    return parts.length ? parts.join('.') : '(root)';
  };
  const issues = error.issues.flatMap(unionBranch);
  return issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? (i.keys ?? []).map((key) => ({
          path: pathOf([...i.path, key]),
          message: `unknown ${unknownKey} "${key}"${unknownKeySuggestion(key, i.path, issues, raw)}`,
        }))
      : [{ path: pathOf(i.path), message: `${i.message}${valueSuggestion(i, raw)}` }],
  );
}

/** A zod issue as {@link toIssues} reads it (the fields it uses). */
interface ZodIssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  values?: readonly unknown[];
  errors?: readonly (readonly ZodIssueLike[])[];
}

/**
 * A union's issue as the issues of the one branch the value was meant for: when every other branch refused
 * the value's very type (a string where an object was sent), the sender meant the remaining one, and its
 * issues name the fields (`rubric.criteria`) where the union's own says only "Invalid input" at `rubric`.
 */
function unionBranch(issue: ZodIssueLike): ZodIssueLike[] {
  if (issue.code !== 'invalid_union' || !issue.errors) return [issue];
  const typeOnly = (errs: readonly ZodIssueLike[]) =>
    errs.length === 1 && errs[0]?.code === 'invalid_type' && errs[0].path.length === 0;
  const meant = issue.errors.filter((errs) => !typeOnly(errs));
  const [only] = meant;
  if (meant.length !== 1 || !only) return [issue];
  return only.flatMap((e) => unionBranch({ ...e, path: [...issue.path, ...e.path] }));
}

/** Most issues an error lists (20): a batch of 10,000 bad items is refused with the first ones and a count. */
const MAX_LISTED_ISSUES = 20;

/**
 * A 400 `invalid_request` whose message and `issues` list the first {@link MAX_LISTED_ISSUES} issues
 * (`path: message; ...`) and say how many more there are.
 */
export function invalidRequest(issues: Issue[], what = 'request'): ApiError {
  const listed = issues.slice(0, MAX_LISTED_ISSUES);
  const more = issues.length - listed.length;
  const detail = listed.map((i) => `${i.path}: ${i.message}`).join('; ');
  const rest = more > 0 ? `; and ${more.toLocaleString('en-US')} more issue${more === 1 ? '' : 's'} not listed` : '';
  return new ApiError(400, 'invalid_request', `invalid ${what}: ${detail}${rest}`, listed);
}

const ENGINE_CODES: ReadonlySet<string> = new Set([
  'invalid_config',
  'unknown_preset',
  'unknown_method',
  'task_kind_unsupported',
  'invalid_rubric',
  'rubric_task_mismatch',
  'rubric_unsupported',
  'invalid_task',
]);

/** An engine message that already starts with the field it is about (`rubric.kind: …`, `task.source: …`). */
const NAMES_ITS_FIELD = /^(rubric|task)(\.[\w.]+)?: /;

/**
 * A task the service builds itself (a comparison's pairs, a monitor's sample of spans): its kind is no field of
 * the caller's, so a refusal of its kind names `field`, the caller's field that chose the judge (`preset`,
 * `judge.preset`), with `why` after the message in parentheses when given.
 */
export interface BuiltTask {
  field: string;
  why?: string;
}

/**
 * Maps an engine input error (bad preset, config, task or rubric) to a 400 with the engine's code.
 * @param prefix where the task stands in the request (`task`, `items.3.task`): a message that names no field
 *   gets it in front; one that names `task.…` gets the task's place instead (`items.3.task.source: …`); one
 *   about the rubric keeps `rubric…` first and says which item it met (`… (items.3)`).
 * @param built for a task the service built ({@link BuiltTask}): a refusal of its kind (`task.kind: …`) names
 *   `built.field` instead, with one issue at that path.
 */
export function fromEngineError(err: EngineInputError, prefix?: string, built?: BuiltTask): ApiError {
  const code: ErrorCode = ENGINE_CODES.has(err.code) ? (err.code as ErrorCode) : 'invalid_config';
  const named = built ? NAMES_ITS_FIELD.exec(err.message) : null;
  if (built && named?.[1] === 'task' && named[2] === '.kind') {
    const why = err.message.slice(named[0].length);
    const note = built.why === undefined ? '' : ` (${built.why})`;
    return new ApiError(400, code, `${built.field}: ${why}${note}`, [{ path: built.field, message: why }]);
  }
  const issues = err.issues?.map((i) => ({ path: prefix ? `${prefix}.${i.path}` : i.path, message: i.message }));
  return new ApiError(400, code, placed(err.message, prefix), issues);
}

function placed(message: string, prefix: string | undefined): string {
  if (!prefix) return message;
  const named = NAMES_ITS_FIELD.exec(message);
  if (!named) return `${prefix}: ${message}`;
  const item = prefix.endsWith('.task') ? prefix.slice(0, -'.task'.length) : prefix === 'task' ? '' : prefix;
  if (named[1] === 'task') return item ? `${item}.${message}` : message;
  return item ? `${message} (${item})` : message;
}

function body(
  code: ErrorCode,
  message: string,
  extra: { issues?: Issue[]; requestId?: string; resetAt?: string; labelsNeeded?: number } = {},
): ErrorBody {
  return { error: { code, message, ...extra } };
}

/** What each validation target is called in messages (`invalid request body: …`). */
const TARGET_NAMES: Partial<Record<keyof ValidationTargets, string>> = {
  json: 'request body',
  header: 'headers',
  param: 'path',
  query: 'query',
};

/**
 * The routes' validation hook (`OpenAPIHono({ defaultHook })`): a failed zod check becomes 400
 * `invalid_request` whose message names every failing field and whose `issues` list them. Unknown query
 * parameters fail too: every route declares its query schema as a strict object.
 */
export const validationHook = (
  result: { success: true } | { success: false; error: z.ZodError; target: keyof ValidationTargets },
): void => {
  if (result.success) return;
  // The validator hands the value it checked over as `data` (the body, query, …): suggestions read it.
  const raw = (result as { data?: unknown }).data;
  const issues = toIssues(result.error, undefined, result.target === 'query' ? 'query parameter' : 'field', raw);
  throw invalidRequest(issues, TARGET_NAMES[result.target] ?? result.target);
};

/**
 * A route's own validation hook for its JSON body: a failed body goes to `json` with zod's error and the
 * raw body (to name the fields its own way; the validator hands the raw value over as `data`), any
 * other target to {@link validationHook}.
 */
export function bodyValidationHook(json: (error: z.ZodError, raw: unknown) => never) {
  return (
    result: { success: true } | { success: false; error: z.ZodError; target: keyof ValidationTargets },
  ): undefined => {
    if (result.success) return undefined;
    if (result.target !== 'json') {
      validationHook(result);
      return undefined;
    }
    return json(result.error, (result as { data?: unknown }).data);
  };
}

/** Code for a bare `HTTPException` thrown by hono itself (validator, body parsing). */
function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  return status >= 500 ? 'internal' : 'invalid_request';
}

/**
 * The app's error handler: user mistakes → 4xx JSON with a stable code; anything else → 500 `internal`
 * with the request id, after logging one JSON line (`level`, `requestId`, `method`, `path`, `error`, `stack`).
 */
export function onError<E extends KernelEnv>(err: Error, c: Context<E>): Response {
  if (err instanceof ClientAbortedError) {
    log('info', 'request.client_aborted', {
      requestId: c.get('requestId') ?? 'unknown',
      method: c.req.method,
      path: c.req.path,
      bytesRead: err.bytesRead,
      error: err.reason,
    });
  }
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.extra.headers ?? {})) c.header(name, value);
    const fields = {
      ...(err.issues ? { issues: err.issues } : {}),
      ...(err.extra.resetAt ? { resetAt: err.extra.resetAt } : {}),
      ...(err.extra.labelsNeeded ? { labelsNeeded: err.extra.labelsNeeded } : {}),
    };
    return c.json(body(err.code, err.message, fields), err.status);
  }
  if (err instanceof ConfigError) return c.json(body(err.code, err.message), 503);
  if (err instanceof EngineInputError) {
    const e = fromEngineError(err);
    return c.json(body(e.code, e.message, e.issues ? { issues: e.issues } : {}), e.status);
  }
  if (err instanceof z.ZodError) {
    const e = invalidRequest(toIssues(err));
    return c.json(body(e.code, e.message, e.issues ? { issues: e.issues } : {}), 400);
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code = /json/i.test(err.message) ? 'invalid_json' : codeForStatus(err.status);
    return c.json(body(code, err.message || 'bad request'), err.status);
  }
  return internalError(c, err);
}

/** Logs an unexpected error as one JSON line and answers 500 `internal` with the request id. */
export function internalError<E extends KernelEnv>(c: Context<E>, err: unknown): Response {
  // Unset when the error came before the request-id middleware ran.
  const requestId = (c.get('requestId') as string | undefined) ?? 'unknown';
  // Through the one logger, so the line is redacted like every other.
  log('error', 'request.unhandled_error', {
    requestId,
    method: c.req.method,
    path: c.req.path,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return c.json(body('internal', `internal error; quote request id ${requestId}`, { requestId }), 500);
}

/** The standard error body (for handlers that answer an error themselves, e.g. 404 / 405). */
export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return body(code, message);
}
