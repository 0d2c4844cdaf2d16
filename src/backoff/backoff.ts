/**
 * @module
 * The one exponential backoff: the wait before retry `n` (1 = the first retry) is `base · 2^(n-1)`, capped at
 * `max`, in whatever unit the caller counts (ms or seconds). Jitter spreads callers that failed together so
 * they do not come back together: `full` draws uniformly in [0, wait] (the spread that best breaks a burst),
 * `{ spread: s }` draws in [wait·(1-s), wait·(1+s)]. Pure: tests pass their own random source.
 *
 * Who uses it: the LLM client's retries (full jitter), webhook deliveries (full jitter, about a day), the
 * object's final-write retries, the queue consumers' retries and the wait of an evaluation at its tenant's
 * running cap (±25 %), the OpenAI endpoint's resubscribe, the typed client's and the meta-eval CLI's polls.
 */

/** A backoff curve. */
export interface Backoff {
  /** The first retry's wait (before jitter). */
  base: number;
  /** The longest wait (before jitter). */
  max: number;
  /** `none` (the default): the wait itself; `full`: uniform in [0, wait]; `{ spread }`: within ±spread of it. */
  jitter?: 'none' | 'full' | { spread: number };
}

/**
 * The wait before retry `retry` (1-based; below 1 counts as 1) on the curve `backoff`.
 * @param random uniform numbers in [0, 1); `Math.random` by default.
 */
export function backoffDelay(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  // The exponent is capped so a long run of failures cannot overflow to Infinity · 0 = NaN.
  const wait = Math.min(backoff.max, backoff.base * 2 ** Math.min(Math.max(retry - 1, 0), 30));
  const jitter = backoff.jitter ?? 'none';
  if (jitter === 'none') return wait;
  if (jitter === 'full') return random() * wait;
  return wait * (1 - jitter.spread + random() * 2 * jitter.spread);
}
