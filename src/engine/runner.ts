/**
 * @module
 * In-process runner: drives any protocol against any {@link LlmFunction} through the shared call pool
 * (./pool.ts), applying each result as it arrives. Used by tests, the CLI and replay; the Durable
 * Object's alarm drives the same pool one invocation at a time and persists each result first.
 */
import type { LlmCallRequest, LlmCallResult, LlmError, LlmFunction } from './call.js';
import type { AnyMethod } from './method.js';
import type { Admission } from './pool.js';
import { runCallPool } from './pool.js';
import type { ReadyOptions } from './protocol.js';
import type { EngineState, Outcome } from './state.js';
import { applyResult, outcome, readyCalls } from './protocol.js';

/** Options of {@link runEvaluation}. */
export interface RunOptions {
  /** Calls in flight at once. Default 8. */
  concurrency?: number;
  /** Called after every applied result with the new state (e.g. to persist or to snapshot in tests); a returned state replaces it. */
  onState?: (state: EngineState) => EngineState | undefined;
  /** Called when a call starts. */
  onCall?: (request: LlmCallRequest) => void;
  /**
   * Decides before each launch (a budget: `budgetAdmission` in src/budgets/call-check.ts). A refusal is applied
   * as a failed result with the given error (no LLM call), which a method may truncate at. Default: launch.
   */
  admit?: (request: LlmCallRequest, running: readonly LlmCallRequest[], state: EngineState) => Admission;
  /**
   * Whether a call's provider is declared to honour OpenAI's `n` (`supportsNOf(settings)` from
   * src/llm/settings.ts): samples of one prompt then go as one request with `n`. Default: none does, so
   * every sample is its own call (see `readyCalls`).
   */
  supportsN?: ReadyOptions['supportsN'];
}

/**
 * Runs the evaluation to its outcome. Never throws for LLM failures: they end in a `failed` outcome
 * (an LLM function that throws counts as a failed call with code `driver_error`).
 * @throws Error when the protocol is stuck: no call ready, none running and no outcome (a method bug).
 */
export async function runEvaluation(
  method: AnyMethod,
  initial: EngineState,
  llm: LlmFunction,
  options: RunOptions = {},
): Promise<{ state: EngineState; outcome: Outcome }> {
  let state = initial;
  // After a failure readyCalls is empty: the pool launches nothing more and lets the calls in flight settle.
  await runCallPool({
    concurrency: options.concurrency ?? 8,
    ready: () => readyCalls(method, state, options.supportsN ? { supportsN: options.supportsN } : {}),
    ...(options.admit
      ? {
          admit: (req: LlmCallRequest, running: readonly LlmCallRequest[]) =>
            options.admit?.(req, running, state) ?? 'launch',
          refuse: (req: LlmCallRequest, error: LlmError) => {
            state = applyResult(method, state, { id: req.id, ok: false, error });
            const replaced = options.onState?.(state);
            if (replaced) state = replaced;
          },
        }
      : {}),
    run: async (req) => {
      options.onCall?.(req);
      let result: LlmCallResult;
      try {
        result = await llm(req);
      } catch (e) {
        result = {
          id: req.id,
          ok: false,
          error: { code: 'driver_error', message: e instanceof Error ? e.message : String(e) },
        };
      }
      state = applyResult(method, state, result);
      const replaced = options.onState?.(state);
      if (replaced) state = replaced;
    },
  });
  const done = outcome(method, state);
  if (done) return { state, outcome: done };
  throw new Error(`protocol "${state.method}" is stuck: no calls ready and no outcome`);
}
