/**
 * The core asks a method's `step` once per order state (src/engine/step-memo.ts): a Durable Object asks after
 * every single result whether the evaluation is over and what is ready, and the next result asks which pending
 * call it answers; each `step` of ChatEval renders its agents' prompts over the whole chat history. The answers
 * stay the same as stepping every time.
 */
import { describe, expect, it } from 'vitest';
import type { AnyMethod } from '../../src/engine/method.js';
import { chatEvalMethod } from '../../src/engine/methods/chateval/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../../src/engine/protocol.js';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import { toResult } from '../support/waves.js';

const task: Task = {
  kind: 'pairwise',
  question: 'How do I keep a sourdough starter alive while travelling?',
  answerA: 'Feed it, refrigerate it, feed it again when back.',
  answerB: 'Dry some on parchment as a backup.',
};

/** ChatEval with its `step` counted, and the order states it was asked for. */
function counted(): { method: AnyMethod; steps: () => number; states: () => number } {
  const inner = chatEvalMethod as unknown as AnyMethod;
  let steps = 0;
  const seen = new Set<unknown>();
  const method: AnyMethod = {
    ...inner,
    step(config, view, m) {
      steps += 1;
      seen.add(m);
      return inner.step(config, view, m);
    },
  };
  return { method, steps: () => steps, states: () => seen.size };
}

/**
 * Runs `chateval-faireval` (2 agents, 2 turns, both orders: 8 calls) as the evaluation's object does: each
 * wave's results one at a time, and after each the outcome and the ready calls asked, twice over.
 */
function driveLikeTheObject(method: AnyMethod, copyEachAsk = false): { state: EngineState; requests: string[] } {
  const config = resolveMethodConfig('chateval-faireval', {});
  let kept = createEvaluation(method, config, task);
  // A copy of the (serializable) state before every ask holds new state objects, which the memo has never seen.
  const at = () => (copyEachAsk ? structuredClone(kept) : kept);
  const requests: string[] = [];
  const supportsN = () => false;
  for (let wave = 0; !outcome(method, at()); wave++) {
    if (wave > 20) throw new Error('too many waves');
    const ready = readyCalls(method, at(), { supportsN });
    for (const r of ready) {
      requests.push(`${r.id}\n${r.messages.map((m) => m.content).join('\n')}`);
      const reply =
        r.parser.type === 'text' ? `said ${r.id}` : 'The score of Assistant 1: 7\nThe score of Assistant 2: 5';
      kept = applyResult(method, at(), toResult(r, reply));
      for (let ask = 0; ask < 2; ask++) {
        if (outcome(method, at())) break;
        readyCalls(method, at(), { supportsN });
      }
    }
  }
  return { state: kept, requests };
}

describe('a method is stepped once per order state', () => {
  it('steps each order state once, however often the driver asks', () => {
    const { method, steps, states } = counted();
    const { state } = driveLikeTheObject(method);
    expect(state.log).toHaveLength(8);
    expect(steps()).toBe(states());
    // Without the memo every ask stepped every order again: 8 results × (apply + 2 × (outcome + ready)).
    expect(steps()).toBeLessThanOrEqual(8 + 2);
  });

  it('asks the same prompts and reaches the same verdict as a method stepped every time', () => {
    const { method } = counted();
    const memo = driveLikeTheObject(method);
    // The state copied before every ask: the memo never answers, every ask steps again.
    const fresh = counted();
    const plain = driveLikeTheObject(fresh.method, true);
    expect(fresh.steps()).toBeGreaterThan(30);
    expect(memo.requests).toEqual(plain.requests);
    expect(outcome(method, memo.state)).toEqual(outcome(fresh.method, plain.state));
  });
});
