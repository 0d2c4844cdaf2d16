/**
 * @module
 * Replay: a protocol fed stored replies instead of LLM calls, so a recorded evaluation can be re-aggregated
 * under another config (another calibration rule, read rule or aggregation) at no cost. The one replay loop:
 * `npm run judge -- --replay` (src/cli/judge.ts) and the meta-evaluation replay (src/metrics/dataset-replay.ts) use it.
 */
import type { LlmCallResult } from './call.js';
import { ZERO_USAGE } from './call.js';
import type { AnyMethod } from './method.js';
import type { EngineState, Outcome } from './state.js';
import { applyResult, outcome, readyCalls } from './protocol.js';

/** One stored reply: its call id (`ab/turn2/agent1`, `sample0#1`, …), the model that wrote it and its text. */
export interface StoredReply {
  callId: string;
  model: string;
  content: string;
}

/** What a replay ends with: an outcome, or the call ids the config asks for that the transcript lacks. */
export type ReplayResult = { outcome: Outcome; applied: number } | { missing: string[]; applied: number };

/**
 * Re-runs a protocol over stored replies without any LLM call. Replies are looked up by call id as calls
 * become ready (a transcript is in finishing order, not readiness order); replies the config does not ask
 * for are ignored. A config that needs a reply the transcript does not hold (more turns, a re-ask a stricter
 * reader triggers) ends with `missing`.
 */
export function replayReplies(method: AnyMethod, initial: EngineState, replies: readonly StoredReply[]): ReplayResult {
  const byId = new Map(replies.map((m) => [m.callId, m]));
  let state = initial;
  let applied = 0;
  for (;;) {
    const found = readyCalls(method, state).flatMap((r) => {
      const m = byId.get(r.id);
      return m ? [m] : [];
    });
    if (found.length === 0) break;
    for (const m of found) {
      const result: LlmCallResult = { id: m.callId, ok: true, content: m.content, model: m.model, usage: ZERO_USAGE };
      state = applyResult(method, state, result);
      applied += 1;
    }
  }
  const done = outcome(method, state);
  return done ? { outcome: done, applied } : { missing: readyCalls(method, state).map((r) => r.id), applied };
}
