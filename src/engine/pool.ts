/**
 * @module
 * The call pool: runs an evaluation's ready LLM calls concurrently and launches each call a result made
 * ready at once (no round trip between dependent calls). Shared by the in-process runner (./runner.ts)
 * and the Durable Object's alarm step; platform-free (no Cloudflare or Node API).
 *
 * The pool knows nothing of protocols: `ready()` says which calls may go out now (asked again each time
 * a call settles), `run()` makes one call and applies its result. It never launches an id twice while
 * that id is running, stops launching after the first thrown error, and always waits for every launched
 * call before it returns or rethrows. An optional `admit()` (a budget, src/budgets/) may hold a call back
 * until a running one settles, or refuse it: `refuse()` then settles it without a call (e.g. records a
 * `budget_exceeded` result) and `ready()` is asked again at once.
 */
import type { LlmCallRequest, LlmError } from './call.js';

/** What {@link CallPoolOptions.admit} decides for a ready call: launch it, hold it back for now, or refuse it. */
export type Admission = 'launch' | 'wait' | { refuse: LlmError };

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
  /**
   * Asked before each launch with the calls this pool has running: `wait` skips the call until a running
   * call settles; `{ refuse }` hands it to `refuse` (never twice per run). Default: always `launch`.
   */
  admit?: (request: LlmCallRequest, running: readonly LlmCallRequest[]) => Admission;
  /** Settles a refused call synchronously, so that `ready()` no longer lists it. Required with `admit`. */
  refuse?: (request: LlmCallRequest, error: LlmError) => void;
}

/** What one pool run did. */
export interface CallPoolReport {
  /** Calls launched (0 with no refusal means the first round found nothing to launch). */
  launched: number;
  /** Calls refused through `admit` (settled by `refuse`, never launched). */
  refused: number;
}

/**
 * Runs calls until nothing is running and nothing more may be launched.
 * @returns how many calls it launched and refused.
 * @throws the first error a `run()` threw, after all launched calls settled.
 */
export async function runCallPool(options: CallPoolOptions): Promise<CallPoolReport> {
  const { concurrency, ready, run, skip, more, admit, refuse } = options;
  const running = new Map<string, { request: LlmCallRequest; done: Promise<void> }>();
  const refused = new Set<string>();
  // Set from the calls' callbacks; the assertion keeps TS from narrowing it to `null` for good.
  let thrown = null as { error: unknown } | null;
  let launched = 0;
  let first = true;
  for (;;) {
    const open = first || (more?.() ?? true);
    first = false;
    let changed = false;
    if (open && !thrown && running.size < concurrency) {
      for (const request of ready()) {
        if (running.size >= concurrency) break;
        if (running.has(request.id) || refused.has(request.id) || skip?.(request.id)) continue;
        const admission =
          admit?.(
            request,
            [...running.values()].map((r) => r.request),
          ) ?? 'launch';
        if (admission === 'wait') continue;
        if (admission !== 'launch') {
          refused.add(request.id);
          refuse?.(request, admission.refuse);
          // The refusal changed the state: what is ready must be asked again.
          changed = true;
          break;
        }
        const done = run(request)
          .catch((e: unknown) => {
            thrown ??= { error: e };
          })
          .finally(() => running.delete(request.id));
        running.set(request.id, { request, done });
        launched += 1;
      }
    }
    if (changed) continue;
    if (running.size === 0) break;
    await Promise.race([...running.values()].map((r) => r.done));
  }
  if (thrown) throw thrown.error;
  return { launched, refused: refused.size };
}
