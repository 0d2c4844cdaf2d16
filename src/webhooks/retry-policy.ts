/**
 * @module
 * The outbound retry policy: exponential backoff with full jitter for about a day. Pure, so tests can
 * check it with a seeded random source.
 *
 * After failed attempt n (1-based) the next one waits a random time in
 * [{@link MIN_DELAY_SECONDS}, min({@link MAX_DELAY_SECONDS}, {@link BASE_DELAY_SECONDS} · 2^(n-1))] seconds,
 * never past the delivery's window ({@link RETRY_WINDOW_MS} after its first try or manual retry): the last
 * attempt lands at the window's end, after which the delivery is `failed`. Expected schedule for a
 * receiver that stays down (simulated): ~10 attempts in the first 4 h, then one every ~3 h, ~18 in all.
 */
import { backoffDelay } from '../backoff/backoff.js';

/** First retry waits at most this long, seconds (30 s); doubles per attempt. */
export const BASE_DELAY_SECONDS = 30;

/** Longest wait between two attempts, seconds (6 h). */
export const MAX_DELAY_SECONDS = 6 * 3600;

/** Shortest wait between two attempts, seconds (1 s): full jitter may draw 0. */
export const MIN_DELAY_SECONDS = 1;

/** How long a delivery is retried, ms (24 h from its first try or from a manual retry). */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/** What to do after a failed attempt. */
export type RetryDecision = { retry: true; delaySeconds: number; at: number } | { retry: false };

/**
 * The decision after failed attempt `attempt` (1-based) at `now` (epoch ms) for a delivery whose window
 * ends at `windowEndsAt`.
 * @param random a source of uniform numbers in [0, 1); `Math.random` by default.
 */
export function nextRetry(
  attempt: number,
  now: number,
  windowEndsAt: number,
  random: () => number = Math.random,
): RetryDecision {
  if (now >= windowEndsAt) return { retry: false };
  const backoff = { base: BASE_DELAY_SECONDS, max: MAX_DELAY_SECONDS, jitter: 'full' } as const;
  const drawn = Math.max(MIN_DELAY_SECONDS, Math.floor(backoffDelay(attempt, backoff, random)));
  const delaySeconds = Math.max(MIN_DELAY_SECONDS, Math.min(drawn, Math.ceil((windowEndsAt - now) / 1000)));
  return { retry: true, delaySeconds, at: now + delaySeconds * 1000 };
}
