/**
 * @module
 * In-process runner: drives any protocol against any {@link LlmFunction}, running ready calls
 * concurrently and applying each result as it arrives. Used by tests, the CLI and replay; the Durable
 * Object driver does the same one invocation at a time.
 */
import type { LlmCallRequest, LlmFunction } from './call.js';
import type { AnyMethod } from './method.js';
import type { EngineState, Outcome } from './protocol.js';
import { applyResult, outcome, readyCalls } from './protocol.js';

/** Options of {@link runEvaluation}. */
export interface RunOptions {
  /** Calls in flight at once. Default 8. */
  concurrency?: number;
  /** Called after every applied result with the new state (e.g. to persist or to snapshot in tests); a returned state replaces it. */
  onState?: (state: EngineState) => EngineState | undefined;
  /** Called when a call starts. */
  onCall?: (request: LlmCallRequest) => void;
}

/** Runs the evaluation to its outcome. Never throws for LLM failures: they end in a `failed` outcome. */
export async function runEvaluation(
  method: AnyMethod,
  initial: EngineState,
  llm: LlmFunction,
  options: RunOptions = {},
): Promise<{ state: EngineState; outcome: Outcome }> {
  const concurrency = options.concurrency ?? 8;
  let state = initial;
  const inFlight = new Map<string, Promise<void>>();
  for (;;) {
    // A failure ends the run at once (readyCalls is then empty); let the calls in flight settle first.
    if (state.failure) {
      await Promise.allSettled(inFlight.values());
      const failed = outcome(method, state);
      if (failed) return { state, outcome: failed };
    }
    const ready = readyCalls(method, state);
    // The outcome is non-null exactly when no order lists calls, so only ask once nothing is left to run.
    if (ready.length === 0 && inFlight.size === 0) {
      const done = outcome(method, state);
      if (done) return { state, outcome: done };
      throw new Error(`protocol "${state.method}" is stuck: no calls ready and no outcome`);
    }
    for (const req of ready) {
      if (inFlight.size >= concurrency) break;
      if (inFlight.has(req.id)) continue;
      options.onCall?.(req);
      const p = llm(req)
        .catch((e: unknown) => ({
          id: req.id,
          ok: false as const,
          error: { code: 'driver_error', message: e instanceof Error ? e.message : String(e) },
        }))
        .then((result) => {
          inFlight.delete(req.id);
          state = applyResult(method, state, result);
          const replaced = options.onState?.(state);
          if (replaced) state = replaced;
        });
      inFlight.set(req.id, p);
    }
    if (inFlight.size === 0) {
      throw new Error(`protocol "${state.method}" is stuck: no calls ready and no outcome`);
    }
    await Promise.race(inFlight.values());
  }
}
