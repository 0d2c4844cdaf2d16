/**
 * The protocol core, with a toy two-judge method so the assertions do not depend on any paper's method:
 * idempotent apply, parse-and-repair, failure handling, transcript, usage and position calibration.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod, FinalReply, MethodDefinition } from '../../src/engine/method.js';
import { CommonConfigShape } from '../../src/engine/method.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, plannedCalls, readyCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { transcriptOf } from '../../src/engine/ledger.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task } from '../../src/engine/task.js';
import { driveByWaves, FAKE_USAGE, promptText, toResult } from '../support/waves.js';

const ToyConfig = z.object({ method: z.literal('toy'), ...CommonConfigShape }).strict();
type ToyConfig = z.infer<typeof ToyConfig>;
type ToyState = { scores: Record<string, { a: number; b: number } | null> };

/** Two judges in parallel, each replying "The score of Assistant 1: x / Assistant 2: y". */
const toy: MethodDefinition<ToyConfig, ToyState> = {
  method: 'toy',
  version: 1,
  paper: 'none',
  taskKinds: ['pairwise'],
  configSchema: ToyConfig,
  init: () => ({ scores: {} }),
  step(_c, task, s) {
    const pending = ['j0', 'j1'].filter((id) => !(id in s.scores));
    if (pending.length > 0 && task.kind === 'pairwise') {
      return {
        kind: 'calls',
        calls: pending.map((id) => ({
          id,
          agent: id,
          label: `Judge ${id}`,
          stage: 'judge',
          messages: [
            { role: 'user' as const, content: `Q: ${task.question}\nA1: ${task.answerA}\nA2: ${task.answerB}` },
          ],
          temperature: 0,
          maxTokens: 64,
          parser: { type: 'chateval-scores' as const, min: 1, max: 10 },
        })),
      };
    }
    const parsed = Object.values(s.scores).filter((x): x is { a: number; b: number } => x !== null);
    const a = parsed.reduce((n, x) => n + x.a, 0);
    const b = parsed.reduce((n, x) => n + x.b, 0);
    return {
      kind: 'verdict',
      verdict: {
        winner: a > b ? 'A' : b > a ? 'B' : 'tie',
        scores: { a, b },
        votes: Object.entries(s.scores).map(([agent, x]) => ({
          agent,
          label: agent,
          parsed: x !== null,
          ...(x ? { scores: x } : {}),
        })),
        confidence: 1,
      },
    };
  },
  reduce(_c, _t, s, reply: FinalReply) {
    const value = reply.ok && reply.value.kind === 'pair-scores' ? { a: reply.value.a, b: reply.value.b } : null;
    return { scores: { ...s.scores, [reply.callId]: value } };
  },
  plannedCalls: () => 2,
};
const method = toy as unknown as AnyMethod;

const task: Task = {
  kind: 'pairwise',
  question: 'Which is better?',
  answerA: 'first answer',
  answerB: 'second answer',
};

function config(overrides: Record<string, unknown> = {}): EngineState['config'] {
  return ToyConfig.parse({ method: 'toy', ...overrides });
}

/** Scores by which answer text is shown first, so swapping the order is visible. */
function scoresFor(req: LlmCallRequest): string {
  const firstIsA = promptText(req).includes('A1: first answer');
  return firstIsA
    ? 'The score of Assistant 1: 8\nThe score of Assistant 2: 6'
    : 'The score of Assistant 1: 7\nThe score of Assistant 2: 5';
}

describe('protocol core', () => {
  it('lists parallel calls together and concludes', () => {
    const state = createEvaluation(method, config(), task);
    expect(readyCalls(method, state).map((r) => r.id)).toEqual(['j0', 'j1']);
    const { waves, outcome: out } = driveByWaves(method, state, scoresFor);
    expect(waves.map((w) => w.length)).toEqual([2]);
    expect(out.status).toBe('succeeded');
    if (out.status !== 'succeeded') return;
    expect(out.verdict.winner).toBe('A');
    expect(out.verdict.scores).toEqual({ a: 16, b: 12 });
    expect(out.verdict.calls).toBe(2);
    expect(out.verdict.usage.promptTokens).toBe(2 * FAKE_USAGE.promptTokens);
    expect(out.verdict.transcript.map((t) => t.callId)).toEqual(['j0', 'j1']);
    expect(out.verdict.positionFlip).toBeNull();
  });

  it('ignores a duplicate or stale result', () => {
    let state = createEvaluation(method, config(), task);
    const [j0] = readyCalls(method, state);
    if (!j0) throw new Error('no call');
    state = applyResult(method, state, toResult(j0, scoresFor(j0)));
    const again = applyResult(method, state, toResult(j0, 'The score of Assistant 1: 1\nThe score of Assistant 2: 9'));
    expect(again).toBe(state);
    expect(applyResult(method, state, toResult({ ...j0, id: 'nope' }, 'x'))).toBe(state);
    expect(readyCalls(method, state).map((r) => r.id)).toEqual(['j1']);
  });

  it('re-asks an unparsable reply with a repair turn, then hands it over as unparsed', () => {
    const state = createEvaluation(method, config({ parseRetries: 2 }), task);
    const { waves, outcome: out } = driveByWaves(method, state, (req) =>
      req.id.startsWith('j0') ? 'I like both.' : scoresFor(req),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['j0', 'j1'], ['j0#1'], ['j0#2']]);
    const repair = waves[1]?.[0];
    expect(repair?.messages.at(-2)).toEqual({ role: 'assistant', content: 'I like both.' });
    expect(repair?.messages.at(-1)?.content).toContain('The score of Assistant 1: <score>');
    if (out.status !== 'succeeded') throw new Error('expected a verdict');
    expect(out.verdict.unparsed).toEqual([
      {
        callId: 'j0',
        agent: 'j0',
        stage: 'judge',
        reason: expect.stringContaining('The score of Assistant 1') as string,
      },
    ]);
    expect(out.verdict.calls).toBe(4);
    expect(out.verdict.transcript.map((t) => t.callId)).toEqual(['j0', 'j1', 'j0#1', 'j0#2']);
    expect(out.verdict.votes.find((v) => v.agent === 'j0')?.parsed).toBe(false);
    expect(out.verdict.scores).toEqual({ a: 8, b: 6 });
  });

  it('ends failed with the reason on an LLM failure, never with a score', () => {
    const state = createEvaluation(method, config(), task);
    const { outcome: out } = driveByWaves(method, state, (req) =>
      req.id === 'j1'
        ? { id: req.id, ok: false, error: { code: 'auth', message: 'Incorrect API key provided', status: 401 } }
        : scoresFor(req),
    );
    expect(out).toEqual({
      status: 'failed',
      error: { callId: 'j1', code: 'auth', message: 'Incorrect API key provided', status: 401 },
    });
  });

  it('runs both orders with calibration and records a flip', () => {
    const state = createEvaluation(method, config({ calibration: { enabled: true, combine: 'sum-scores' } }), task);
    expect(plannedCalls(method, state)).toBe(4);
    // Position bias: whatever is shown first gets 9, the other 5.
    const biased = () => 'The score of Assistant 1: 9\nThe score of Assistant 2: 5';
    const { waves, outcome: out } = driveByWaves(method, state, biased, { roundTrip: true });
    expect(waves[0]?.map((r) => r.id)).toEqual(['ab/j0', 'ab/j1', 'ba/j0', 'ba/j1']);
    expect(promptText(waves[0]?.[2] as LlmCallRequest)).toContain('A1: second answer');
    if (out.status !== 'succeeded') throw new Error('expected a verdict');
    expect(out.verdict.scores).toEqual({ a: 28, b: 28 });
    expect(out.verdict.winner).toBe('tie');
    expect(out.verdict.positionFlip).toBe(true);
    expect(out.verdict.votes.filter((v) => v.order === 'BA').map((v) => v.scores)).toEqual([
      { a: 5, b: 9 },
      { a: 5, b: 9 },
    ]);
  });

  it('agree-or-tie keeps a winner only when both orders agree', () => {
    const state = createEvaluation(method, config({ calibration: { enabled: true } }), task);
    const { outcome: out } = driveByWaves(method, state, scoresFor);
    if (out.status !== 'succeeded') throw new Error('expected a verdict');
    // AB: first answer 8 vs 6 → A; BA: second answer shown first scores 7 vs 5 → B in submitted terms.
    expect(out.verdict.winner).toBe('tie');
    expect(out.verdict.positionFlip).toBe(true);
  });

  it('rejects a task kind the method does not judge', () => {
    const pointwise: Task = {
      kind: 'pointwise',
      source: 's',
      output: 'o',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
    };
    expect(() => createEvaluation(method, config(), pointwise)).toThrow(EngineInputError);
  });

  it('the in-process runner reaches the same verdict as wave-by-wave driving', async () => {
    const state = createEvaluation(method, config({ calibration: { enabled: true, combine: 'sum-scores' } }), task);
    const byWaves = driveByWaves(method, state, scoresFor).outcome;
    const run = await runEvaluation(method, state, (req) => Promise.resolve(toResult(req, scoresFor(req))), {
      concurrency: 3,
    });
    expect(run.outcome).toEqual(byWaves);
    expect(transcriptOf(run.state)).toHaveLength(4);
  });

  it('the runner turns a throwing LLM function into a failed outcome, after the other call in flight settled', async () => {
    const state = createEvaluation(method, config(), task);
    let j1Settled = false;
    const run = await runEvaluation(method, state, async (req) => {
      if (req.id === 'j0') throw new Error('socket closed');
      await new Promise((r) => setTimeout(r, 20));
      j1Settled = true;
      return toResult(req, scoresFor(req));
    });
    expect(j1Settled).toBe(true);
    expect(run.outcome).toEqual({
      status: 'failed',
      error: { callId: 'j0', code: 'driver_error', message: 'socket closed' },
    });
  });

  it('the runner throws for a protocol that lists no calls and no verdict', async () => {
    const stuck: AnyMethod = { ...method, step: () => ({ kind: 'calls', calls: [] }) };
    await expect(
      runEvaluation(stuck, createEvaluation(stuck, config(), task), () => Promise.reject(new Error('never called'))),
    ).rejects.toThrow(/stuck/);
  });
});
