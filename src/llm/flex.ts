/**
 * @module
 * Flex refusals: a provider declining a `service_tier: "flex"` request, told apart from other failures so
 * a caller can fall back to the standard tier. Two kinds, each with its own stable error code:
 *
 * - `flex_unavailable` (capacity, retryable later): OpenAI's 429 "Resource Unavailable" (code
 *   `resource_unavailable`, unbilled), Groq's 498 "flex tier capacity exceeded";
 * - `flex_unsupported` (this model has no flex tier, retrying cannot help): a 400 whose `param` is
 *   `service_tier` or whose message names `service_tier` / flex ("Unsupported service_tier: flex").
 *
 * A plain 429 rate limit on a flex request stays `rate_limited`: it is about the caller's rate, not flex.
 */
import type { AttemptFailure } from './outcome.js';

/** Code of a flex request refused for capacity. */
export const FLEX_UNAVAILABLE = 'flex_unavailable';
/** Code of a flex request refused because the model offers no flex tier. */
export const FLEX_UNSUPPORTED = 'flex_unsupported';

/** The kind of a flex refusal. */
export type FlexRefusal = 'unavailable' | 'unsupported';

/** Groq's status for "flex tier capacity exceeded". */
const GROQ_FLEX_CAPACITY = 498;

/** Whether a failed flex attempt is a flex refusal, and which; undefined for any other failure. */
export function flexRefusalOf(failure: AttemptFailure): FlexRefusal | undefined {
  const { status, message } = failure.error;
  if (status === GROQ_FLEX_CAPACITY) return 'unavailable';
  if (
    status === 429 &&
    (failure.provider?.code === 'resource_unavailable' || /resource[\s_-]?unavailable|flex.*capacity/i.test(message))
  )
    return 'unavailable';
  if (status === 400 && (failure.provider?.param === 'service_tier' || /service[\s_-]?tier|\bflex\b/i.test(message)))
    return 'unsupported';
  return undefined;
}

/**
 * The failure re-coded as its flex refusal: `flex_unavailable` is retryable (under `flexFallback: "wait"`,
 * with the provider's `Retry-After` or backoff), `flex_unsupported` is not.
 */
export function asFlexFailure(failure: AttemptFailure, refusal: FlexRefusal): AttemptFailure {
  return {
    ...failure,
    retryable: refusal === 'unavailable',
    schemaRejected: false,
    error: { ...failure.error, code: refusal === 'unavailable' ? FLEX_UNAVAILABLE : FLEX_UNSUPPORTED },
  };
}
