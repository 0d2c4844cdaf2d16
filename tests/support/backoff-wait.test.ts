import { describe, expect, it } from 'vitest';
import { MAX_POLL_MS, pollPause, waitFor } from './backoff-wait.js';

describe('the worker waits’ poll (tests/support/backoff-wait.ts)', () => {
  it('polls at the given interval at first, then at a tenth of the time waited, at most 50 ms', () => {
    expect(pollPause(0, 25)).toBe(25);
    expect(pollPause(200, 25)).toBe(25);
    expect(pollPause(400, 25)).toBe(40);
    expect(pollPause(2_000, 10)).toBe(MAX_POLL_MS);
    expect(pollPause(60_000, 20)).toBe(MAX_POLL_MS);
    // An interval asked above the cap stays as asked.
    expect(pollPause(60_000, 200)).toBe(200);
  });

  it('resolves to what the callback returned once it stops throwing, calling it at once first', async () => {
    let calls = 0;
    const value = await waitFor(
      () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
        return 'ready';
      },
      { timeout: 5_000, interval: 1 },
    );
    expect(value).toBe('ready');
    expect(calls).toBe(3);
    // The first call does not wait for an interval: one far past the timeout still sees it.
    await expect(waitFor(() => 'now', { timeout: 1_000, interval: 10_000 })).resolves.toBe('now');
  });

  it('rejects with the last error at the timeout, also while a call is still pending', async () => {
    let calls = 0;
    await expect(
      waitFor(
        () => {
          calls += 1;
          throw new Error(`not yet ${String(calls)}`);
        },
        { timeout: 50, interval: 5 },
      ),
    ).rejects.toThrow(/^not yet \d+$/);
    calls = 0;
    const hanging = waitFor(
      () => {
        calls += 1;
        return calls % 2 === 0 ? new Promise<never>(() => undefined) : Promise.reject(new Error('first call failed'));
      },
      { timeout: 50, interval: 1 },
    );
    await expect(hanging).rejects.toThrow('first call failed');
  });
});
