/**
 * Test driver for engine protocols: runs a protocol wave by wave (every ready call of a wave is answered
 * before the next `readyCalls`), so tests can assert the order and grouping of calls. With `roundTrip`
 * the state goes through JSON after every single applied result, as a Durable Object would store it.
 */
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { EngineState, Outcome } from '../../src/engine/state.js';
import type { Verdict } from '../../src/engine/verdict.js';
import { applyResult, outcome, readyCalls, samplesOf } from '../../src/engine/protocol.js';

/** A scripted reply: text, or a full result (e.g. a failure). */
export type ScriptedReply = string | LlmCallResult;

/** Answers a request; `n` counts the requests answered so far (0-based). */
export type Script = (request: LlmCallRequest, n: number) => ScriptedReply;

/** Usage figures the fake LLM reports for every reply. */
export const FAKE_USAGE = {
  promptTokens: 10,
  completionTokens: 5,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: 0,
};

/** Result for a request from a scripted reply. */
export function toResult(request: LlmCallRequest, reply: ScriptedReply): LlmCallResult {
  return typeof reply === 'string'
    ? { id: request.id, ok: true, content: reply, model: request.model ?? 'fake', usage: FAKE_USAGE }
    : reply;
}

/**
 * Drives a protocol wave by wave; throws if it makes more than `maxWaves` waves. With `supportsN` the
 * provider is declared to take OpenAI's `n` (samples of one prompt then go as one request; default: every
 * sample its own call). A request with `n` is answered with one scripted reply per sample it stands for (the
 * script sees each sample's own id), unless `ignoreN` is set: then, like a provider declared `supportsN`
 * that ignores `n`, with one choice (the request's own).
 */
export function driveByWaves(
  method: AnyMethod,
  initial: EngineState,
  script: Script,
  options: { roundTrip?: boolean; maxWaves?: number; supportsN?: boolean; ignoreN?: boolean } = {},
): { waves: LlmCallRequest[][]; outcome: Outcome; state: EngineState } {
  let state = initial;
  const waves: LlmCallRequest[][] = [];
  let n = 0;
  for (;;) {
    const done = outcome(method, state);
    if (done) return { waves, outcome: done, state };
    const ready = readyCalls(method, state, { supportsN: () => options.supportsN === true });
    if (ready.length === 0) throw new Error('stuck: no ready calls and no outcome');
    if (waves.length >= (options.maxWaves ?? 200)) throw new Error('too many waves');
    waves.push(ready);
    for (const req of ready) {
      const ids = req.n === undefined || options.ignoreN ? [req.id] : samplesOf(method, state, req.id);
      const replies = ids.map((id) => script({ ...req, id }, n++));
      const texts = replies.flatMap((r) => (typeof r === 'string' ? [r] : []));
      const first = replies[0] ?? '';
      const result =
        texts.length === replies.length && ids.length > 1
          ? { ...toResult(req, first), choices: texts }
          : toResult(req, first);
      state = applyResult(method, state, result);
      if (options.roundTrip) state = JSON.parse(JSON.stringify(state)) as EngineState;
    }
  }
}

/** The text of every message of a request, joined: handy for `toContain` assertions on prompts. */
export function promptText(request: LlmCallRequest): string {
  return request.messages.map((m) => m.content).join('\n');
}

/** The call ids of every wave, for asserting the order and grouping of calls. */
export function waveIds(waves: readonly LlmCallRequest[][]): string[][] {
  return waves.map((w) => w.map((r) => r.id));
}

/** The verdict of a succeeded outcome; throws with the error of any other. */
export function verdictOf(o: Outcome): Verdict {
  if (o.status !== 'succeeded') throw new Error(`expected a verdict, got ${JSON.stringify(o.error)}`);
  return o.verdict;
}
