/**
 * @module
 * The per-key request rate as a token bucket (pure: the state lives in the tenant's `RateLimiterDO`), and
 * its HTTP headers in the current IETF draft's structured-field syntax (draft-ietf-httpapi-ratelimit-headers):
 *
 * ```
 * RateLimit-Policy: "default";q=600;w=60     quota q requests per window w seconds
 * RateLimit: "default";r=598;t=1             r requests left now; t seconds until the full quota is back
 * Retry-After: 1                             on a 429 only: seconds until the next request is allowed
 * ```
 *
 * A bucket holds up to `requests` tokens and refills `requests` tokens per `windowSeconds`, continuously;
 * a request takes one. So a key may burst up to its whole quota, then goes at the average rate.
 */
import type { RatePolicy } from './limits.js';

/** A key's bucket: tokens left (fractional while refilling) at time `at` (epoch ms). */
export interface Bucket {
  tokens: number;
  at: number;
}

/** The outcome of one request against a bucket. */
export interface RateDecision {
  allowed: boolean;
  /** Whole requests left after this one. */
  remaining: number;
  /** Seconds until the bucket is full again (≥ 0). */
  resetSeconds: number;
  /** Seconds until one request is allowed again (≥ 1 when refused, 0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Takes one token for a request at `now` (epoch ms). A policy lowered since the bucket was last used caps
 * its tokens at the new quota; a clock that went backwards refills nothing.
 * @param bucket the key's bucket, or null for a key never seen (a full bucket).
 * @returns the new bucket to store and the decision.
 */
export function takeToken(
  bucket: Bucket | null,
  policy: RatePolicy,
  now: number,
): { bucket: Bucket; decision: RateDecision } {
  const { bucket: next, decision } = takeTokens(bucket, policy, now, 1, 0);
  return { bucket: next, decision };
}

/** What a reservation of several tokens gives (see {@link takeTokens}). */
export interface Reservation {
  /** Tokens taken (0 to the number asked for). */
  granted: number;
  /** As for one request: allowed when at least one token was taken; `remaining` after all of them. */
  decision: RateDecision;
  /** Milliseconds until one token is back, from `now` (0 while one is left). */
  nextTokenMs: number;
}

/**
 * Takes up to `want` tokens at once for requests at `now` (a Worker isolate's reservation: one object
 * request for many API requests), after giving back `returned` tokens an earlier reservation did not use.
 * With `want` 1 and nothing returned it is exactly {@link takeToken}.
 */
export function takeTokens(
  bucket: Bucket | null,
  policy: RatePolicy,
  now: number,
  want: number,
  returned: number,
): { bucket: Bucket } & Reservation {
  const capacity = policy.requests;
  const perMs = policy.requests / (policy.windowSeconds * 1000);
  const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
  let tokens = Math.min(capacity, (bucket?.tokens ?? capacity) + elapsed * perMs + Math.max(0, returned));
  const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(tokens)));
  tokens -= granted;
  const allowed = granted >= 1;
  // Small epsilons: 0.9999999 tokens after float arithmetic is one token that is not quite there yet.
  const resetSeconds = Math.max(0, Math.ceil((capacity - tokens) / perMs / 1000 - 1e-9));
  const nextTokenMs = tokens >= 1 ? 0 : (1 - tokens) / perMs;
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil(nextTokenMs / 1000 - 1e-9));
  return {
    bucket: { tokens, at: now },
    granted,
    decision: { allowed, remaining: Math.floor(tokens + 1e-9), resetSeconds, retryAfterSeconds },
    nextTokenMs,
  };
}

/** Name of the one policy in the headers. */
export const RATE_POLICY_NAME = 'default';

/** The draft's headers for a decision (and `Retry-After` when refused). */
export function rateLimitHeaders(policy: RatePolicy, d: RateDecision): Record<string, string> {
  return {
    'RateLimit-Policy': `"${RATE_POLICY_NAME}";q=${policy.requests};w=${policy.windowSeconds}`,
    RateLimit: `"${RATE_POLICY_NAME}";r=${d.remaining};t=${d.resetSeconds}`,
    ...(d.allowed ? {} : { 'Retry-After': String(d.retryAfterSeconds) }),
  };
}

/** What the tenant's limiter answers over RPC (durable-objects/rate-limiter/). */
export interface RateLimiterRpc {
  /** Takes one request of `key` (a key id) under `policy`. */
  take(key: string, policy: RatePolicy): Promise<RateDecision>;
  /** Takes up to `want` requests of `key` at once, after giving back `returned` unused ones ({@link takeTokens}). */
  reserve(key: string, policy: RatePolicy, want: number, returned: number): Promise<Reservation>;
}
