/**
 * @module
 * Retry timing: exponential backoff with full jitter, the provider's own `Retry-After` hints, and what the
 * retry policy makes of a failed attempt ({@link afterFailure}).
 */
import type { LlmError } from '../engine/call.js';
import { backoffDelay } from '../backoff/backoff.js';
import type { AttemptFailure } from './outcome.js';
import type { RetryPolicy } from './settings.js';

/** Minimal header reader, satisfied by `Headers` and by plain lookups in tests. */
export interface HeaderLookup {
  get(name: string): string | null;
}

/**
 * The delay a provider asks for, in milliseconds, or undefined when it gives none (or an unreadable one).
 * Reads `retry-after-ms` (OpenAI, milliseconds) first, then `Retry-After` as delta-seconds or an
 * HTTP date (relative to `now`, ms since epoch). Negative results clamp to 0.
 */
export function retryAfterMs(headers: HeaderLookup | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  const trimmed = ra.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Full-jitter backoff before retry number `retry` (1 = the first retry): a uniform random delay in
 * [0, min(maxDelayMs, baseDelayMs·2^(retry-1))], in ms. Full jitter spreads a burst of clients that
 * failed together (e.g. all agents of a debate round hitting one 429) instead of re-synchronising them.
 */
export function backoffDelayMs(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  return Math.floor(backoffDelay(retry, { base: policy.baseDelayMs, max: policy.maxDelayMs, jitter: 'full' }, random));
}

/**
 * What follows a failed attempt under the retry policy: the call fails (`terminal`: the fault that ended it,
 * absent when the attempts ran out), it is cut short for a later invocation (the wait would pass the
 * deadline), or it waits `delayMs` and tries again.
 */
export type NextStep = { step: 'fail'; terminal?: LlmError } | { step: 'cut' } | { step: 'wait'; delayMs: number };

/**
 * The retry policy's answer to a failed attempt: a fault retrying cannot fix fails the call; so does the last of
 * `policy.maxAttempts` attempts, and a `Retry-After` above `policy.maxRetryAfterMs` (its message then says so);
 * else the wait is the provider's `Retry-After`, or full-jitter backoff. A wait after which less than
 * `minAttemptMs` would be left before `deadline` (epoch ms; absent: none) cuts the call short instead.
 * @param retriesUsed attempts that already counted against the policy before this one
 */
export function afterFailure(
  failure: AttemptFailure,
  retriesUsed: number,
  at: {
    policy: Pick<RetryPolicy, 'maxAttempts' | 'maxRetryAfterMs' | 'baseDelayMs' | 'maxDelayMs'>;
    random: () => number;
    now: () => number;
    deadline: number | undefined;
    minAttemptMs: number;
  },
): NextStep {
  const { policy } = at;
  const { error } = failure;
  if (!failure.retryable) return { step: 'fail', terminal: error };
  if (retriesUsed + 1 >= policy.maxAttempts) return { step: 'fail' };
  let delayMs: number;
  if (failure.retryAfterMs !== undefined) {
    if (failure.retryAfterMs > policy.maxRetryAfterMs) {
      const wait = `asked to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s, longer than the ${policy.maxRetryAfterMs / 1000} s we wait`;
      return { step: 'fail', terminal: { ...error, message: `${error.message} (${wait})` } };
    }
    delayMs = failure.retryAfterMs;
  } else {
    delayMs = backoffDelayMs(retriesUsed + 1, policy, at.random);
  }
  if (at.deadline !== undefined && at.now() + delayMs + at.minAttemptMs > at.deadline) return { step: 'cut' };
  return { step: 'wait', delayMs };
}
