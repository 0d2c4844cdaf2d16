/**
 * Trajectory tasks through the engine: the run rendered with numbered steps and span ids, the six default
 * aspects scored in one call by `trajectory-judge`, the first failing step mapped back to its span (or null),
 * a bad step number re-asked, a pointwise rubric judging a trajectory, and a jury and ChatEval's pointwise
 * form judging one as any pointwise task.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../../src/engine/call.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { GENERIC_POINTWISE_TEMPLATE } from '../../src/engine/methods/single/prompts.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task, TrajectoryTask } from '../../src/engine/task.js';
import { TaskSchema } from '../../src/engine/task.js';
import { renderTrajectory, TRAJECTORY_ASPECTS } from '../../src/engine/trajectory.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';

/** A run whose second tool call failed (step 3) and whose agent then answered anyway. */
const RUN: TrajectoryTask = {
  kind: 'trajectory',
  request: 'Book a table for two at Chez Nous tomorrow at 8pm.',
  steps: [
    {
      type: 'llm',
      spanId: 'a1a1a1a1a1a1a1a1',
      name: 'gpt-4o',
      input: 'Plan the booking.',
      output: 'Search, then book.',
    },
    { type: 'tool', spanId: 'b2b2b2b2b2b2b2b2', name: 'search', input: '{"q":"Chez Nous"}', output: '{"id":42}' },
    {
      type: 'tool',
      spanId: 'c3c3c3c3c3c3c3c3',
      name: 'book',
      input: '{"restaurant":42,"people":2,"time":"20:00"}',
      error: 'HTTP 503: booking service unavailable',
    },
  ],
  finalAnswer: 'Your table is booked!',
};

const usage = { promptTokens: 10, completionTokens: 5, cachedPromptTokens: 0, estimated: false, costUsd: 0 };

/** A judge that answers every aspect 3 and names step `step` (given as is, so bad values can be sent). */
function judgeNaming(step: unknown, seen: LlmCallRequest[]): LlmFunction {
  return (r) => {
    seen.push(r);
    const reply = Object.fromEntries(TRAJECTORY_ASPECTS.map((a) => [a.name, { rationale: 'ok', score: 3 }]));
    const result: LlmCallResult = {
      id: r.id,
      ok: true,
      content: JSON.stringify({ ...reply, first_failing_step: seen.length === 1 ? step : 3 }),
      model: 'fake',
      usage,
    };
    return Promise.resolve(result);
  };
}

const judge = () => {
  const method = getMethod('single');
  return { method, config: resolveMethodConfig('trajectory-judge', undefined) };
};

describe('trajectory tasks', () => {
  it('validates: steps required, request or messages, unique aspect names', () => {
    expect(TaskSchema.safeParse(RUN).success).toBe(true);
    const noSteps = TaskSchema.safeParse({ ...RUN, steps: [] });
    expect(noSteps.success).toBe(false);
    const both = TaskSchema.safeParse({ ...RUN, messages: [{ role: 'user', content: 'hi' }] });
    expect(both.error?.issues[0]?.path).toEqual(['messages']);
    const twice = TaskSchema.safeParse({
      ...RUN,
      aspects: [
        { name: 'x', scale: { min: 1, max: 5 } },
        { name: 'x', scale: { min: 1, max: 5 } },
      ],
    });
    expect(twice.error?.issues[0]?.path).toEqual(['aspects', 1, 'name']);
  });

  it('renders each step numbered with its span id, labelled input, output and error, then the final answer', () => {
    const text = renderTrajectory(RUN);
    expect(text).toContain('[1] model call gpt-4o (span a1a1a1a1a1a1a1a1)\nPrompt: Plan the booking.\nReply: Search');
    expect(text).toContain(
      '[2] tool call search (span b2b2b2b2b2b2b2b2)\nArguments: {"q":"Chez Nous"}\nResult: {"id":42}',
    );
    expect(text).toContain('[3] tool call book (span c3c3c3c3c3c3c3c3)\nArguments:');
    expect(text).toContain('Error: HTTP 503: booking service unavailable\n\nFinal answer: Your table is booked!');
  });

  it('trajectory-judge scores the six aspects in one call and names the first failing step with its span', async () => {
    const { method, config } = judge();
    const seen: LlmCallRequest[] = [];
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, RUN), judgeNaming(3, seen));
    expect(seen).toHaveLength(1);
    const prompt = seen[0]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain("User's request:\n\nBook a table");
    expect(prompt).toContain('[3] tool call book (span c3c3c3c3c3c3c3c3)');
    expect(prompt).toContain('"first_failing_step": <the number of the first step that went wrong');
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict.taskKind).toBe('pointwise');
    expect(outcome.verdict.aspects?.map((a) => a.name)).toEqual(TRAJECTORY_ASPECTS.map((a) => a.name));
    expect(outcome.verdict.aspects?.every((a) => a.score === 3)).toBe(true);
    expect(outcome.verdict.firstFailingStep).toEqual({ step: 3, spanId: 'c3c3c3c3c3c3c3c3' });
  });

  it('null when the judge names no failing step; a step out of range is re-asked', async () => {
    const { method, config } = judge();
    const none = await runEvaluation(method, createEvaluation(method, config, RUN), judgeNaming(null, []));
    expect(none.outcome.status === 'succeeded' && none.outcome.verdict.firstFailingStep).toBeNull();
    const seen: LlmCallRequest[] = [];
    const bad = await runEvaluation(method, createEvaluation(method, config, RUN), judgeNaming(9, seen));
    expect(seen).toHaveLength(2);
    expect(seen[1]?.messages.at(-1)?.content).toContain('"first_failing_step" must be a step number from 1 to 3');
    expect(bad.outcome.status === 'succeeded' && bad.outcome.verdict.firstFailingStep).toEqual({
      step: 3,
      spanId: 'c3c3c3c3c3c3c3c3',
    });
  });

  it('the bundled mock judge names the first step with an error', async () => {
    const { method, config } = judge();
    const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock' });
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, RUN), llm);
    if (outcome.status !== 'succeeded') throw new Error(JSON.stringify(outcome.error));
    expect(outcome.verdict.firstFailingStep).toEqual({ step: 3, spanId: 'c3c3c3c3c3c3c3c3' });
    const clean: Task = { ...RUN, steps: RUN.steps.slice(0, 2) };
    const ok = await runEvaluation(method, createEvaluation(method, config, clean), llm);
    expect(ok.outcome.status === 'succeeded' && ok.outcome.verdict.firstFailingStep).toBeNull();
  });

  it('a pointwise rubric judges a trajectory (its aspects replace the defaults); a pairwise rubric is refused', async () => {
    const { method, config } = judge();
    const rubric = {
      kind: 'pointwise' as const,
      criteria: 'Bookings must be confirmed by the booking tool before the agent says so.',
      scale: { min: 1, max: 5 },
      aspects: [{ name: 'honesty', criteria: 'Says only what the tools confirmed.', weight: 1 }],
    };
    const seen: LlmCallRequest[] = [];
    const llm: LlmFunction = (r) => {
      seen.push(r);
      const content = JSON.stringify({ honesty: { rationale: 'claimed a booking', score: 1 }, first_failing_step: 3 });
      return Promise.resolve({ id: r.id, ok: true, content, model: 'fake', usage });
    };
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, RUN, rubric), llm);
    expect(seen[0]?.messages.map((m) => m.content).join('\n')).toContain(rubric.criteria);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    expect(outcome.verdict.aspects?.map((a) => [a.name, a.score])).toEqual([['honesty', 1]]);
    expect(outcome.verdict.firstFailingStep?.spanId).toBe('c3c3c3c3c3c3c3c3');
    expect(() => createEvaluation(method, config, RUN, { kind: 'pairwise', criteria: 'x' })).toThrow(
      /rubric\.kind: a pairwise rubric cannot judge a trajectory task/,
    );
  });

  it('a jury, ChatEval and DEBATE judge a trajectory as any pointwise task; a pairwise-only method refuses it', async () => {
    const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock' });
    const task: Task = { ...RUN, aspects: TRAJECTORY_ASPECTS.slice(0, 1).map((a) => ({ ...a })) };
    const jury = {
      method: 'jury',
      judge: { template: GENERIC_POINTWISE_TEMPLATE, parser: { type: 'leading-number', min: 1, max: 5 } },
      jurors: [{ model: 'mock-a' }, { model: 'mock-b' }],
    };
    for (const [preset, overrides] of [
      [undefined, jury],
      ['chateval-topical-chat', undefined],
      ['debate-summeval', undefined],
    ] as const) {
      const config = resolveMethodConfig(preset, overrides);
      const method = getMethod(config.method);
      const { outcome } = await runEvaluation(method, createEvaluation(method, config, task), llm);
      if (outcome.status !== 'succeeded') throw new Error(`${config.method}: ${JSON.stringify(outcome.error)}`);
      expect(outcome.verdict.aspects?.[0]?.score).toBeGreaterThanOrEqual(1);
      expect(outcome.verdict.firstFailingStep).toBeUndefined();
    }
    const samre = resolveMethodConfig('samre-mtbench', undefined);
    expect(() => createEvaluation(getMethod('samre'), samre, RUN)).toThrow(EngineInputError);
  });
});
