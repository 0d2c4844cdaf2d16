/**
 * The worker project's waits on an event (tests/worker/helpers.ts: `pollUntil`, `waitForEnd`, `waitForSnapshot`):
 * `vi.waitFor`'s contract with a poll that slows as the wait goes on. A poll is a D1 query or a Durable Object RPC in
 * the same workerd as the work it waits for: a 20 s wait polling D1 every 25 ms cost ~5.5 CPU-s more than the same
 * 20 s asleep (vitest's process and workerd together, load 12-18). The first polls come
 * as often as before, so a quick event is seen as quickly; later ones at a tenth of the time waited so far, at most
 * {@link MAX_POLL_MS}: an event is seen at most ~10% (and 50 ms) after it happened, so a test that must act inside a
 * short window (a call in flight for 0.8 s) keeps nearly all of it.
 *
 * Runs in Node and in workerd: plain timers, no Node modules.
 */

/** The longest pause between two polls, in ms: 50 (vitest's `expect.poll` interval here; 20-25 before). */
export const MAX_POLL_MS = 50;

/**
 * The pause before the next poll, in ms, `elapsedMs` into a wait whose first polls come every `baseMs`: a tenth of the
 * time waited, never below `baseMs`, never above {@link MAX_POLL_MS} unless `baseMs` itself is.
 */
export function pollPause(elapsedMs: number, baseMs: number): number {
  return Math.max(baseMs, Math.min(MAX_POLL_MS, elapsedMs / 10));
}

// Taken when this module loads: a test that fakes timers (`vi.useFakeTimers`) does not stop its own waits.
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
const now = (): number => performance.now();

/**
 * Calls `callback` until it returns without throwing, and resolves to what it returned; a throw (or a rejection)
 * means not yet. The first call is at once, the next after {@link pollPause}. After `timeout` ms it rejects with
 * the last call's error, even if that call is still pending, as `vi.waitFor` does.
 */
export function waitFor<T>(callback: () => T | Promise<T>, options: { timeout: number; interval: number }): Promise<T> {
  const started = now();
  return new Promise<T>((resolve, reject) => {
    let lastError: unknown = new Error(`waitFor: no call ended within ${String(options.timeout)} ms`);
    let pause: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const deadline = realSetTimeout(() => {
      done = true;
      if (pause !== undefined) realClearTimeout(pause);
      reject(lastError instanceof Error ? lastError : new Error(String(lastError)));
    }, options.timeout);
    const attempt = (): void => {
      pause = undefined;
      Promise.resolve()
        .then(callback)
        .then(
          (value) => {
            if (done) return;
            done = true;
            realClearTimeout(deadline);
            resolve(value);
          },
          (e: unknown) => {
            if (done) return;
            lastError = e;
            pause = realSetTimeout(attempt, pollPause(now() - started, options.interval));
          },
        );
    };
    attempt();
  });
}
