/**
 * @module
 * The call pool: runs an evaluation's ready LLM calls concurrently and launches each call a result made
 * ready at once (no round trip between dependent calls). Shared by the in-process runner (./runner.ts)
 * and the Durable Object's alarm step; platform-free (no Cloudflare or Node API).
 *
 * The pool knows nothing of protocols: `ready()` says which calls may go out now (asked again each time
 * a call settles), `run()` makes one call and applies its result. It never launches an id twice while
 * that id is running, stops launching after the first thrown error, and always waits for every launched
 * call before it returns or rethrows.
 */
import type { LlmCallRequest } from './call.js';

/** Options of {@link runCallPool}. */
export interface CallPoolOptions {
  /** Calls in flight at once, ≥ 1 (the Durable Object: 6, the platform's open connections per invocation). */
  concurrency: number;
  /** The calls that may go out now; asked before each launch round. Return `[]` to launch nothing more. */
  ready: () => readonly LlmCallRequest[];
  /**
   * Makes one call and applies its result. A throw (a bug or a storage error, never an LLM failure)
   * stops new launches; the pool rethrows the first one after every launched call has settled.
   */
  run: (request: LlmCallRequest) => Promise<void>;
  /** True for an id already in flight outside this pool (another invocation of the same object): skipped. Default: none. */
  skip?: (id: string) => boolean;
  /** Asked before each launch round after the first: false launches nothing new (a time budget). Default: always true. */
  more?: () => boolean;
}

/** What one pool run did. */
export interface CallPoolReport {
  /** Calls launched (0 means the first round found nothing to launch). */
  launched: number;
}

/**
 * Runs calls until nothing is running and nothing more may be launched.
 * @returns how many calls it launched.
 * @throws the first error a `run()` threw, after all launched calls settled.
 */
export async function runCallPool(options: CallPoolOptions): Promise<CallPoolReport> {
  const { concurrency, ready, run, skip, more } = options;
  const running = new Map<string, Promise<void>>();
  // Set from the calls' callbacks; the assertion keeps TS from narrowing it to `null` for good.
  let thrown = null as { error: unknown } | null;
  let launched = 0;
  let first = true;
  for (;;) {
    const open = first || (more?.() ?? true);
    first = false;
    if (open && !thrown && running.size < concurrency) {
      for (const request of ready()) {
        if (running.size >= concurrency) break;
        if (running.has(request.id) || skip?.(request.id)) continue;
        const p = run(request)
          .catch((e: unknown) => {
            thrown ??= { error: e };
          })
          .finally(() => running.delete(request.id));
        running.set(request.id, p);
        launched += 1;
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  if (thrown) throw thrown.error;
  return { launched };
}
