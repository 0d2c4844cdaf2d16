/**
 * @module
 * Retry timing: exponential backoff with full jitter, and the provider's own `Retry-After` hints.
 */
import { backoffDelay } from '../backoff/backoff.js';
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
