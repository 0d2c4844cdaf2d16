/**
 * Budgets in the engine, with hand-computed figures: every prompt counts 100 tokens (an injected counter),
 * every reply is billed 100 prompt + 20 completion tokens, and model `m` costs $2 / $4 per 1M tokens. So a
 * call's worst case is 100 + maxTokens tokens and 100 × 2e-6 + maxTokens × 4e-6 USD, and each call made
 * spends 120 tokens and $0.00028.
 */
import { describe, expect, it } from 'vitest';
import { budgetAdmission } from '../../src/budgets/call-check.js';
import { createCallMeter } from '../../src/budgets/meter.js';
import type { PromptCounter } from '../../src/budgets/prompt-tokens.js';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../../src/engine/call.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task } from '../../src/engine/task.js';
import type { Verdict } from '../../src/engine/verdict.js';

const COUNTER: PromptCounter = { count: () => 100, countText: (_m, t) => t.split(/\s+/).length, kindOf: () => 'exact' };
const meter = () =>
  createCallMeter({ defaultModel: 'm', defaultProvider: 'p', prices: { m: { input: 2, output: 4 } } }, COUNTER);
const CALL_COST = (100 * 2 + 20 * 4) / 1e6;

const PAIRWISE: Task = { kind: 'pairwise', question: 'Which is prime?', answerA: '11', answerB: '12' };
const POINTWISE: Task = {
  kind: 'pointwise',
  source: 'The council approved a budget.',
  output: 'Budget approved.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** An LLM answering from `reply(request)` with fixed usage; records the ids it was asked. */
function fakeLlm(reply: (r: LlmCallRequest) => string): { llm: LlmFunction; asked: string[] } {
  const asked: string[] = [];
  const llm: LlmFunction = (r) => {
    asked.push(r.id);
    return Promise.resolve({
      id: r.id,
      ok: true,
      content: reply(r),
      model: 'm',
      usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0, estimated: false, costUsd: CALL_COST },
    });
  };
  return { llm, asked };
}

async function run(
  preset: string | undefined,
  config: Record<string, unknown>,
  task: Task,
  reply: (r: LlmCallRequest) => string,
) {
  const resolved = resolveMethodConfig(preset, config);
  const method = getMethod(resolved.method);
  const { llm, asked } = fakeLlm(reply);
  const { outcome: out, state } = await runEvaluation(method, createEvaluation(method, resolved, task), llm, {
    admit: budgetAdmission(meter()),
  });
  return { out, state, asked };
}

function verdictOf(out: Awaited<ReturnType<typeof run>>['out']): Verdict {
  if (out.status !== 'succeeded') throw new Error(`failed: ${out.error.code} ${out.error.message}`);
  return out.verdict;
}

/** DEBATE (the code's flow, n = 2, maxTokens 50): the Scorer says `scores[i]`, the Critic always objects. */
const debate = (budget: Record<string, number>, scores = ['2', '4', '5']) =>
  run('debate-summeval', { defaults: { maxTokens: 50 }, budget }, POINTWISE, (r) =>
    r.agent === 'critic' ? 'The summary misses the main point.' : (scores[Number(r.id.replace(/^score/, ''))] ?? '1'),
  );

describe('DEBATE under a budget', () => {
  it('maxTokens 500: three calls spend 360 tokens, score1 needs up to 150 more → cut after the first critique', async () => {
    const { out, asked } = await debate({ maxTokens: 500 });
    const v = verdictOf(out);
    expect(asked).toEqual(['score0', 'commander0', 'critic1']);
    expect(v.calls).toBe(3);
    expect(v.usage.promptTokens + v.usage.completionTokens).toBe(360);
    expect(v.score).toBe(2);
    expect(v.budgetTruncated).toBe(true);
    expect(v.truncation?.refused.map((r) => r.callId)).toEqual(['score1']);
    expect(v.truncation?.refused[0]?.message).toContain(
      'budget maxTokens 500: this call needs up to 150 with 360 spent',
    );
    expect(v.truncation?.cut).toEqual({ iterationsRun: 1, iterationsPlanned: 2, scorerTurns: 1, tieBreakerCut: false });
  });

  it('maxCostUsd 0.0013: four calls spend $0.00112, critic2 needs up to $0.0004 → the re-score stands', async () => {
    const { out, asked } = await debate({ maxCostUsd: 0.0013 });
    const v = verdictOf(out);
    expect(asked).toEqual(['score0', 'commander0', 'critic1', 'score1']);
    expect(v.usage.costUsd).toBeCloseTo(4 * CALL_COST, 12);
    expect(v.usage.costUsd).toBeLessThanOrEqual(0.0013);
    expect(v.score).toBe(4);
    expect(v.truncation?.cut).toMatchObject({ iterationsRun: 1, scorerTurns: 2 });
    expect(v.truncation?.refused[0]?.callId).toBe('critic2');
  });

  it('a budget that fits the whole run changes nothing: no flag, the same verdict as without a budget', async () => {
    const free = verdictOf((await debate({ maxCalls: 5 })).out);
    const none = verdictOf(
      (
        await run('debate-summeval', { defaults: { maxTokens: 50 } }, POINTWISE, (r) =>
          r.agent === 'critic' ? 'The summary misses the main point.' : (['2', '4', '5'][Number(r.id.slice(5))] ?? '1'),
        )
      ).out,
    );
    expect(free.budgetTruncated).toBeUndefined();
    expect(free.truncation).toBeUndefined();
    expect(free).toEqual(none);
    expect(free.calls).toBe(5);
  });

  it("maxTokens 100 < the first call's 150: fails budget_exceeded before any call", async () => {
    const { out, asked } = await debate({ maxTokens: 100 });
    expect(asked).toEqual([]);
    expect(out.status).toBe('failed');
    if (out.status === 'failed') expect(out.error).toMatchObject({ callId: 'score0', code: 'budget_exceeded' });
  });
});

/** SAMRE as the code (5 calls a round, 3 jurors): the judge prefers A by (8, 2) then (6, 4); jurors vote A. */
const samre = (budget: Record<string, number>) =>
  run('samre-mtbench', { budget }, PAIRWISE, (r) => {
    if (r.agent === 'judge') return r.id.startsWith('round1/') ? 'Scores (8, 2)' : 'Scores (6, 4)';
    if (r.agent.startsWith('juror')) return 'Vote: (1, 0)';
    return 'An argument.';
  });

describe('SAMRE under a budget', () => {
  it('maxCalls 12: two rounds (10 calls) and two calls of round 3; round3/advocate/b and the jury are cut', async () => {
    const { out, asked } = await samre({ maxCalls: 12 });
    const v = verdictOf(out);
    expect(asked).toHaveLength(12);
    expect(asked.slice(10)).toEqual(['round3/advocate/a', 'round3/summary/a']);
    expect(v.budgetTruncated).toBe(true);
    expect(v.truncation?.refused.map((r) => r.callId)).toEqual(['round3/advocate/b', 'juror/0']);
    expect(v.truncation?.cut).toEqual({ roundsRun: 2, roundsPlanned: 4, jurorsRun: 0, jurorsPlanned: 3 });
    // Without a juror's vote the judge's mean of the two rounds decides: (7, 3).
    expect(v.scores).toEqual({ a: 7, b: 3 });
    expect(v.winner).toBe('A');
    expect(v.details).toMatchObject({ roundsRun: 2, stopReason: 'budget', decidedBy: 'judge-mean' });
  });

  it('maxCalls 21: all four rounds, juror 0 votes; jurors 1 and 2 wait for it, then do not fit', async () => {
    const { out, asked } = await samre({ maxCalls: 21 });
    const v = verdictOf(out);
    expect(asked.at(-1)).toBe('juror/0');
    expect(v.calls).toBe(21);
    expect(v.truncation?.refused.map((r) => r.callId)).toEqual(['juror/1']);
    expect(v.truncation?.cut).toEqual({ roundsRun: 4, roundsPlanned: 4, jurorsRun: 1, jurorsPlanned: 3 });
    expect(v.details).toMatchObject({ decidedBy: 'jurors', jurorSums: { a: 1, b: 0 } });
    expect(v.confidence).toBe(1);
  });

  it('maxCalls 4: round 1 cannot complete, so nothing can be concluded → failed budget_exceeded', async () => {
    const { out, asked } = await samre({ maxCalls: 4 });
    expect(asked).toHaveLength(4);
    expect(out.status).toBe('failed');
    if (out.status === 'failed') expect(out.error).toMatchObject({ callId: 'round1/judge', code: 'budget_exceeded' });
  });
});

describe('ChatEval under a budget', () => {
  const chat = (budget: Record<string, number>) =>
    run(undefined, { method: 'chateval', budget }, PAIRWISE, (r) =>
      r.id.startsWith('turn2/')
        ? `Fine.\nThe score of Assistant 1: ${r.agent === 'agent0' ? 8 : 3}\nThe score of Assistant 2: ${r.agent === 'agent0' ? 6 : 9}`
        : 'Discussion.',
    );

  it('maxCalls 3: the final turn is cut after agent 0, who alone votes', async () => {
    const v = verdictOf((await chat({ maxCalls: 3 })).out);
    expect(v.truncation?.refused.map((r) => r.callId)).toEqual(['turn2/agent1']);
    expect(v.truncation?.cut).toEqual({ agentsJudged: 1, agentsPlanned: 2, turnsRun: 2 });
    expect(v.votes).toHaveLength(1);
    expect(v.winner).toBe('A');
  });

  it('maxCalls 2: no final judgement yet → failed budget_exceeded', async () => {
    const { out } = await chat({ maxCalls: 2 });
    expect(out.status === 'failed' && out.error.code).toBe('budget_exceeded');
  });

  it('both orders under a budget advance in step, whichever order answers first', () => {
    const resolved = resolveMethodConfig('chateval-faireval', { budget: { maxCalls: 6 } });
    const method = getMethod(resolved.method);
    const reply = (id: string): LlmCallResult => ({
      id,
      ok: true,
      content: id.includes('turn2/') ? 'The score of Assistant 1: 8\nThe score of Assistant 2: 6' : 'Discussion.',
      model: 'm',
      usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0, estimated: false, costUsd: CALL_COST },
    });
    let state: EngineState = createEvaluation(method, resolved, PAIRWISE);
    const ids = () => readyCalls(method, state).map((c) => c.id);
    const first = ids();
    expect(first.map((id) => id.slice(0, 3)).sort()).toEqual(['ab/', 'ba/']);
    // Order ab answers twice in a row: its next call waits until ba has caught up, so a budget of 6 cannot be
    // spent on ab's final turn before ba has reached its own.
    const ab = first.find((id) => id.startsWith('ab/')) ?? '';
    state = applyResult(method, state, reply(ab));
    expect(ids().every((id) => id.startsWith('ba/'))).toBe(true);
    const ba = first.find((id) => id.startsWith('ba/')) ?? '';
    state = applyResult(method, state, reply(ba));
    expect(
      ids()
        .map((id) => id.slice(0, 3))
        .sort(),
    ).toEqual(['ab/', 'ba/']);
    // Without a budget the orders run as their replies come.
    const free = resolveMethodConfig('chateval-faireval', {});
    let loose: EngineState = createEvaluation(method, free, PAIRWISE);
    const looseFirst = readyCalls(method, loose).map((c) => c.id);
    loose = applyResult(method, loose, reply(looseFirst.find((id) => id.startsWith('ab/')) ?? ''));
    expect(readyCalls(method, loose).some((c) => c.id.startsWith('ab/'))).toBe(true);
  });
});

describe('methods that cannot stop early', () => {
  const single = (budget: Record<string, number>) =>
    run(
      undefined,
      { method: 'single', samples: 3, parser: { type: 'fastchat-verdict' }, defaults: { maxTokens: 50 }, budget },
      PAIRWISE,
      () => '[[A]]',
    );

  it('maxCalls 2 of 3 parallel samples: two go out, the third waits, then fails the evaluation without a call', async () => {
    const { out, asked } = await single({ maxCalls: 2 });
    expect(asked).toEqual(['sample0', 'sample1']);
    expect(out.status).toBe('failed');
    if (out.status === 'failed') {
      expect(out.error.code).toBe('budget_exceeded');
      expect(out.error.message).toContain('budget maxCalls 2: this call needs up to 1 with 2 spent');
    }
  });

  it('maxCostUsd 0.001: worst cases $0.0004 each make sample2 wait; after two calls at $0.00028 it fits', async () => {
    const { out, asked } = await single({ maxCostUsd: 0.001 });
    expect(asked).toEqual(['sample0', 'sample1', 'sample2']);
    expect(verdictOf(out).budgetTruncated).toBeUndefined();
  });
});

describe('refusals are results: replaying them rebuilds the same outcome', () => {
  it('SAMRE cut at maxCalls 12, folded again from the recorded results', () => {
    const config = resolveMethodConfig('samre-mtbench', { budget: { maxCalls: 12 } });
    const method = getMethod('samre');
    const admit = budgetAdmission(meter());
    const results: LlmCallResult[] = [];
    let state: EngineState = createEvaluation(method, config, PAIRWISE);
    // One call at a time, as a driver would: refuse or answer, record, apply.
    for (let i = 0; i < 40 && !outcome(method, state); i++) {
      const [next] = readyCalls(method, state);
      if (!next) break;
      const a = admit(next, [], state);
      const r: LlmCallResult =
        a === 'launch'
          ? {
              id: next.id,
              ok: true,
              content: next.agent === 'judge' ? '(8, 2)' : 'text',
              model: 'm',
              usage: {
                promptTokens: 100,
                completionTokens: 20,
                cachedPromptTokens: 0,
                estimated: false,
                costUsd: CALL_COST,
              },
            }
          : a === 'wait'
            ? (() => {
                throw new Error('nothing is in flight: no call waits');
              })()
            : { id: next.id, ok: false, error: a.refuse };
      results.push(r);
      state = applyResult(method, state, r);
    }
    const replayed = results.reduce((s, r) => applyResult(method, s, r), createEvaluation(method, config, PAIRWISE));
    expect(outcome(method, replayed)).toEqual(outcome(method, state));
    expect(results.filter((r) => !r.ok)).toHaveLength(2);
    expect(
      verdictOf(
        outcome(method, state) ?? { status: 'failed', error: { callId: '', code: 'none', message: 'no outcome' } },
      ).truncation?.cut,
    ).toMatchObject({ roundsRun: 2 });
  });
});
