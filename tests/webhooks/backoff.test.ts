/**
 * The retry policy (src/webhooks/retry-policy.ts): full-jitter exponential backoff within a 24 h window,
 * with every delay inside the queue's 12 h limit.
 */
import { describe, expect, it } from 'vitest';
import { BASE_DELAY_SECONDS, MAX_DELAY_SECONDS, nextRetry, RETRY_WINDOW_MS } from '../../src/webhooks/retry-policy.js';

const T0 = 1_700_000_000_000;

describe('nextRetry', () => {
  it('attempt n waits at most BASE · 2^(n-1) s, capped at MAX, at least 1 s (full jitter)', () => {
    for (let n = 1; n <= 20; n++) {
      const ceiling = Math.min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2 ** (n - 1));
      const high = nextRetry(n, T0, T0 + RETRY_WINDOW_MS, () => 0.999999);
      const low = nextRetry(n, T0, T0 + RETRY_WINDOW_MS, () => 0);
      expect(high).toEqual({
        retry: true,
        delaySeconds: Math.floor(0.999999 * ceiling),
        at: T0 + Math.floor(0.999999 * ceiling) * 1000,
      });
      expect(low).toMatchObject({ retry: true, delaySeconds: 1 });
    }
  });

  it('never schedules past the window: the last try lands at its end, after which the delivery fails', () => {
    const end = T0 + RETRY_WINDOW_MS;
    expect(nextRetry(15, end - 10_000, end, () => 0.999)).toEqual({ retry: true, delaySeconds: 10, at: end });
    expect(nextRetry(15, end, end)).toEqual({ retry: false });
    expect(nextRetry(1, end + 1, end)).toEqual({ retry: false });
  });

  it('a receiver that is always down gets about 18 attempts over the day (mean of 200 simulated schedules)', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const counts: number[] = [];
    for (let run = 0; run < 200; run++) {
      let now = T0;
      let attempts = 1;
      for (;;) {
        const r = nextRetry(attempts, now, T0 + RETRY_WINDOW_MS, random);
        if (!r.retry) break;
        now = r.at;
        attempts += 1;
      }
      expect(now).toBe(T0 + RETRY_WINDOW_MS);
      counts.push(attempts);
    }
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(14);
    expect(mean).toBeLessThan(22);
  });
});
