/**
 * @module
 * Pieces every route definition shares: the empty query schema (unknown parameters are a 400), path
 * parameters, and documented responses, above all the error responses with the stable codes each status
 * carries on that route.
 */
import { z } from '@hono/zod-openapi';
import { ErrorBodySchema } from './errors.js';
import type { ErrorCode } from './errors.js';

/**
 * Query of a route that takes no query parameters. Every route declares its query schema as a strict
 * object, so an unknown parameter (e.g. `?dry_run=true`) is 400 `invalid_request` naming it, never
 * silently ignored.
 */
export const NoQuery = z.object({}).strict();

/** `Idempotency-Key`: 1-255 visible ASCII characters (the header of every POST that creates something). */
export const IdempotencyHeaderSchema = z.object({
  // Matched case-insensitively against the request's headers.
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be visible ASCII')
    .optional()
    .openapi({
      param: {
        description:
          'Makes a retry safe: the same key with the same body returns the first answer instead of creating a second evaluation. ' +
          'Send one whenever a request may be retried (a retry after a connection reset without it creates a duplicate).',
      },
      example: 'run-42-item-0007',
    }),
});

/** A JSON response with its schema. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** An error response: `codes` are the stable `error.code` values this status carries on the route. */
export function errorResponse(codes: readonly ErrorCode[], why: string) {
  return jsonResponse(ErrorBodySchema, `${codes.map((c) => `\`${c}\``).join(', ')}: ${why}`);
}

/** 413 of a route with a JSON body: the body is over `MAX_BODY_BYTES`. */
export const PAYLOAD_TOO_LARGE = errorResponse(['payload_too_large'], 'body over MAX_BODY_BYTES.');

/** 415 of a route with a JSON body. */
export const NOT_JSON = errorResponse(['unsupported_media_type'], 'Content-Type is not application/json.');

/** 400 of a route whose only inputs are its path and query. */
export const BAD_QUERY = errorResponse(['invalid_request'], 'an unknown query parameter (see `issues`).');

/** 404 of a route addressing one resource. */
export const notFound = (what: string) => errorResponse(['not_found'], `no ${what} with this id for this tenant.`);

// Response maps are merged by functions, not object spreads: a spread turns the numeric status keys into
// strings in the type, and the route's typed responses (handler and `hc` client) would lose those statuses.

/** 503 of any `/v1` route: a `[vars]` value of the deployment is invalid. */
const CONFIG_INVALID = errorResponse(
  ['config_invalid', 'auth_not_configured'],
  "the deployment's configuration is invalid (an operator must fix it; the logs name the variable), or it sets no ADMIN_TOKEN or API_KEYS (closed by default; ALLOW_ANONYMOUS=true opens /v1 for local development).",
);

/**
 * 503 of a route that needs the LLM settings: they are unusable, or the configuration is invalid.
 * @param why what the route says about it.
 */
export function llmUnavailable(why = 'the deployment has no usable LLM settings (an operator must fix them).') {
  return errorResponse(['llm_not_configured', 'config_invalid', 'auth_not_configured'], why);
}

const V1_ERRORS = {
  401: errorResponse(['unauthorized'], 'missing, unknown, revoked or expired bearer token.'),
  403: errorResponse(['forbidden'], "the key lacks the scope this route needs (see the route's security)."),
  429: errorResponse(
    ['rate_limited'],
    "this key's request rate is used up: retry after `Retry-After` seconds. Every response of a rate-limited key carries `RateLimit-Policy` and `RateLimit`.",
  ),
  500: errorResponse(['internal'], 'a bug; quote `requestId`.'),
  503: CONFIG_INVALID,
};

/** 429 of a route that creates evaluations: the request rate, or the tenant's monthly quota. */
export const CREATE_TOO_MANY = errorResponse(
  ['rate_limited', 'quota_exceeded'],
  "this key's request rate is used up (`Retry-After`), or the tenant's monthly evaluation or spend cap is reached (`error.resetAt`, `Retry-After`: the first day of next month, UTC). Evaluations already accepted run to their end.",
);

/** The `Idempotent-Replayed` header of an answer that may replay a request with the same `Idempotency-Key`. */
export const IDEMPOTENT_REPLAYED = z
  .literal('true')
  .optional()
  .openapi({ description: 'Present when this answers a retry with the same `Idempotency-Key`.' });

/**
 * Sets the headers of a create's answer that {@link acceptedResponses} declares: `Location`, and
 * `Idempotent-Replayed: true` when the answer replays an earlier request with the same `Idempotency-Key`.
 */
export function setCreatedHeaders(
  c: { header(name: string, value: string): void },
  location: string,
  replayed: boolean,
): void {
  c.header('Location', location);
  if (replayed) c.header('Idempotent-Replayed', 'true');
}

/**
 * The responses a route that creates something under an `Idempotency-Key` shares: `202` with the created
 * thing's `Location` (`what` names it, e.g. "batch") and `Idempotent-Replayed`, 409 `idempotency_conflict`
 * and the rate / quota 429.
 * @param options.preferWait the route honours `Prefer: wait`: its 202 may carry `Preference-Applied` (default false).
 */
export function acceptedResponses<T extends z.ZodType>(
  schema: T,
  what: string,
  description: string,
  options: { preferWait?: boolean } = {},
) {
  const waited = options.preferWait
    ? {
        'Preference-Applied': z.string().optional().openapi({
          description:
            'Present when `Prefer: wait` ran its whole time without an end: the wait honoured, e.g. `wait=60` for a longer one asked.',
        }),
      }
    : {};
  return {
    202: {
      ...jsonResponse(schema, description),
      headers: z.object({
        Location: z.string().openapi({ description: `The ${what}'s URL (relative).` }),
        'Idempotent-Replayed': IDEMPOTENT_REPLAYED,
        ...waited,
      }),
    },
    409: errorResponse(['idempotency_conflict'], 'the `Idempotency-Key` was used with a different body.'),
    429: CREATE_TOO_MANY,
  };
}

/** A `/v1` route's responses: its own plus 401, 403, 429 and 500 (its own win, e.g. a more specific 429). */
export function v1Responses<R extends object>(own: R): Omit<typeof V1_ERRORS, keyof R> & R {
  return { ...V1_ERRORS, ...own };
}

/** 404 of a route whose body may name a rubric (`rubric: {id, version?, tag?}`) the tenant does not have. */
export const RUBRIC_NOT_FOUND = errorResponse(
  ['not_found'],
  'the `rubric` reference names no rubric, version or tag of the tenant (the message names the field).',
);

/**
 * 502 and 503 of a route that judges by a stored rubric: G-Eval's auto-CoT steps of the version failed, or were
 * not written within `RUBRIC_STEPS_WAIT_SECONDS` (besides the LLM settings' 503).
 */
export const RUBRIC_STEPS_ERRORS = {
  502: errorResponse(
    ['rubric_steps_failed'],
    "writing the rubric version's evaluation steps (G-Eval's auto-CoT, one `rubric-steps` evaluation) failed; the message has its error, and the next request tries again.",
  ),
  503: errorResponse(
    ['rubric_steps_pending', 'llm_not_configured', 'config_invalid', 'auth_not_configured'],
    "the rubric version's evaluation steps are still being written (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the deployment has no usable LLM settings, or its configuration is invalid.",
  ),
};

const JUDGE_BODY_ERRORS = {
  400: errorResponse(
    [
      'invalid_json',
      'invalid_request',
      'invalid_config',
      'unknown_preset',
      'unknown_method',
      'task_kind_unsupported',
      'byok_disabled',
      'url_not_allowed',
      'signing_secret_missing',
    ],
    'the body, a header or the query fails its schema (see `issues`), the judge config is invalid for the task, or a `webhook.url` is refused by the URL guard or cannot be signed yet.',
  ),
  404: RUBRIC_NOT_FOUND,
  413: PAYLOAD_TOO_LARGE,
  415: NOT_JSON,
  501: errorResponse(['byok_not_supported'], 'X-LLM-Api-Key sent while ALLOW_BYOK is true (not supported yet).'),
  ...RUBRIC_STEPS_ERRORS,
};

/** Responses of a route with a JSON body naming a judge (preset + config): its own plus the body's errors. */
export function judgeBodyResponses<R extends object>(own: R): R & typeof JUDGE_BODY_ERRORS {
  return { ...own, ...JUDGE_BODY_ERRORS };
}

const CERTIFY_ERRORS = {
  409: errorResponse(
    ['idempotency_conflict', 'labels_needed'],
    'the `Idempotency-Key` was used with a different body, or (`certify`) the rubric version has too few labelled items to calibrate on: `error.labelsNeeded` says how many more.',
  ),
  503: errorResponse(
    ['calibration_pending', 'rubric_steps_pending', 'llm_not_configured', 'config_invalid', 'auth_not_configured'],
    "(`certify`) the judge is still judging the rubric version's labelled items (`Retry-After`; nothing was created, so retry with the same `Idempotency-Key`), the rubric version's evaluation steps are still being written, the deployment has no usable LLM settings, or its configuration is invalid.",
  ),
};

/**
 * Responses of a route whose body takes `certify` (certified mode): its own, with 409 `labels_needed` beside
 * `idempotency_conflict` and 503 `calibration_pending` beside the rubric steps' and settings' 503.
 */
export function certifyResponses<R extends object>(own: R): Omit<R, 409 | 503> & typeof CERTIFY_ERRORS {
  return { ...own, ...CERTIFY_ERRORS };
}
