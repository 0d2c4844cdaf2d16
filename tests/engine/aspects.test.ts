/**
 * Several aspects in one evaluation, through the engine runner: one run per aspect (ids under `aspect<i>/`,
 * calls and cost per aspect, each run's prompts those of the same task with that aspect alone) and one call
 * for every aspect (the single judge's JSON form, read strictly); the weighted overall and its spread.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import { rubricStepsMethod, rubricStepsTask, withGeneratedSteps } from '../../src/engine/methods/rubric-steps/index.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { replayReplies } from '../../src/engine/replay.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task } from '../../src/engine/task.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';
import { driveByWaves, verdictOf } from '../support/waves.js';

const TASK: Task = { kind: 'pointwise', source: 'A customer asks for a refund.', output: 'Refunded, sorry!' };

/** A rubric of three aspects on two scales; `tone` weighs double. */
const RUBRIC: RubricContent = {
  kind: 'pointwise',
  criteria: 'Support replies of ACME.',
  scale: { min: 1, max: 5 },
  aspects: [
    { name: 'policy', criteria: 'Follows the refund policy.', weight: 1 },
    { name: 'tone', criteria: 'Polite and warm.', weight: 2 },
    { name: 'brevity', criteria: 'Says it in few words.', scale: { min: 0, max: 2 }, weight: 1 },
  ],
};

/** The score each aspect gets from the fake judge. */
const SCORE: Record<string, number> = { policy: 5, tone: 4, brevity: 0 };

/** Usage with a cost per call, so costs can be told apart per aspect. */
const usage = (costUsd: number) => ({
  promptTokens: 10,
  completionTokens: 5,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd,
});

/** A judge that reads which aspect the prompt asks about and scores it by {@link SCORE}. */
const perAspectLlm: LlmFunction = (r: LlmCallRequest) => {
  const prompt = r.messages.map((m) => m.content).join('\n');
  const name = /- (\w+):$/.exec(prompt.trimEnd())?.[1]?.toLowerCase() ?? '';
  const result: LlmCallResult = {
    id: r.id,
    ok: true,
    content: String(SCORE[name] ?? 3),
    model: 'fake',
    usage: usage(0.01),
  };
  return Promise.resolve(result);
};

/** Weighted mean and weighted SD of the aspects' normalised scores, by hand. */
function expectedOverall(): { overall: number; spread: number } {
  const parts = [
    { w: 1, n: (5 - 1) / 4 },
    { w: 2, n: (4 - 1) / 4 },
    { w: 1, n: (0 - 0) / 2 },
  ];
  const w = parts.reduce((s, p) => s + p.w, 0);
  const overall = parts.reduce((s, p) => s + p.w * p.n, 0) / w;
  const spread = Math.sqrt(parts.reduce((s, p) => s + p.w * (p.n - overall) ** 2, 0) / w);
  return { overall, spread };
}

describe('one run per aspect', () => {
  const config = resolveMethodConfig('rubric-judge', { aspectsInOneCall: false });
  const method = getMethod('single');

  it('scores each aspect in its own run, with its calls and cost; overall and spread as defined', async () => {
    const calls: LlmCallRequest[] = [];
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, TASK, RUBRIC), perAspectLlm, {
      onCall: (r) => calls.push(r),
    });
    const v = verdictOf(outcome);
    expect(calls.map((c) => c.id).sort()).toEqual(['aspect0/sample0', 'aspect1/sample0', 'aspect2/sample0']);
    expect(v.aspects).toEqual([
      { name: 'policy', score: 5, scale: { min: 1, max: 5 }, weight: 1, confidence: 1, calls: 1, costUsd: 0.01 },
      { name: 'tone', score: 4, scale: { min: 1, max: 5 }, weight: 2, confidence: 1, calls: 1, costUsd: 0.01 },
      { name: 'brevity', score: 0, scale: { min: 0, max: 2 }, weight: 1, confidence: 1, calls: 1, costUsd: 0.01 },
    ]);
    const { overall, spread } = expectedOverall();
    expect(v.overall).toBeCloseTo(overall, 12);
    expect(v.spread).toBeCloseTo(spread, 12);
    // The rubric's scale is the overall scale: 1 + overall × 4.
    expect(v.score).toBeCloseTo(1 + overall * 4, 12);
    expect(v.details).toMatchObject({ aspectMode: 'per-aspect', overallScale: { min: 1, max: 5 } });
    expect(v.calls).toBe(3);
    expect(v.usage.costUsd).toBeCloseTo(0.03, 12);
    expect(v.votes.map((x) => [x.agent, x.label])).toEqual([
      ['aspect0/judge', 'policy: Judge'],
      ['aspect1/judge', 'tone: Judge'],
      ['aspect2/judge', 'brevity: Judge'],
    ]);
  });

  it("each aspect's prompt holds that aspect's criteria, then the rubric's, on its own scale", () => {
    const { waves } = driveByWaves(method, createEvaluation(method, config, TASK, RUBRIC), () => '1');
    const prompt = (id: string) => waves.flat().find((r) => r.id === id)?.messages[0]?.content ?? '';
    expect(prompt('aspect2/sample0')).toContain('Brevity (0-2) - Says it in few words.\n\nSupport replies of ACME.');
    expect(prompt('aspect2/sample0')).not.toContain('Polite');
    expect(prompt('aspect0/sample0')).toContain('- Policy:');
  });

  it("an aspect's run sends exactly what the task with that aspect alone sends (task aspects, no rubric)", () => {
    const geval = resolveMethodConfig('geval-topical-chat', { samples: 2 });
    const task: Task = {
      kind: 'pointwise',
      source: 'DIALOGUE',
      context: 'FACT',
      output: 'RESPONSE',
      aspects: [
        { name: 'naturalness', scale: { min: 1, max: 3 }, weight: 2 },
        { name: 'groundedness', scale: { min: 0, max: 1 } },
      ],
    };
    const m = getMethod('single');
    const both = driveByWaves(m, createEvaluation(m, geval, task), () => '1');
    for (const [i, a] of (task.aspects ?? []).entries()) {
      const { weight: _w, ...aspect } = a;
      const alone = driveByWaves(m, createEvaluation(m, geval, { ...task, aspects: undefined, aspect }), () => '1');
      const own = both.waves.flat().filter((r) => r.id.startsWith(`aspect${i}/`));
      expect(own.map((r) => ({ ...r, id: r.id.slice(`aspect${i}/`.length) }))).toEqual(alone.waves.flat());
    }
    const v = verdictOf(both.outcome);
    expect(v.aspects?.map((a) => [a.name, a.weight, a.score])).toEqual([
      ['naturalness', 2, 1],
      ['groundedness', 1, 1],
    ]);
    // Scales differ and no rubric gives one: the overall scale is 0-1.
    expect(v.details.overallScale).toEqual({ min: 0, max: 1 });
    expect(v.score).toBe(v.overall);
  });

  it('replays: the same outcome after every result goes through JSON, and from the stored replies alone', () => {
    const m = getMethod('debate');
    const debate = resolveMethodConfig('debate-topical-chat', undefined);
    const task: Task = {
      ...TASK,
      aspects: [
        { name: 'naturalness', scale: { min: 1, max: 3 } },
        { name: 'coherence', scale: { min: 1, max: 3 } },
      ],
    };
    const script = (r: LlmCallRequest) => (r.agent === 'critic' ? 'NO_ISSUE' : `${r.id} 2`);
    const a = driveByWaves(m, createEvaluation(m, debate, task), script);
    const b = driveByWaves(m, createEvaluation(m, debate, task), script, { roundTrip: true });
    expect(b.outcome).toEqual(a.outcome);
    const v = verdictOf(a.outcome);
    expect(v.transcript.every((t) => /^aspect[01]\//.test(t.callId))).toBe(true);
    const replayed = replayReplies(
      m,
      createEvaluation(m, debate, task),
      v.transcript.map((t) => ({ callId: t.callId, model: t.model, content: t.content })),
    );
    expect('outcome' in replayed && replayed.outcome).toEqual({
      ...a.outcome,
      verdict: { ...v, usage: expect.anything() as unknown, transcript: expect.anything() as unknown },
    });
  });

  it('a nesting method (the cascade) runs whole per aspect, its stages prefixed under the aspect', () => {
    const m = getMethod('cascade');
    const cascade = resolveMethodConfig(undefined, {
      method: 'cascade',
      stages: [{ preset: 'geval-topical-chat', config: { samples: 1 } }, { preset: 'debate-topical-chat' }],
    });
    const task: Task = {
      ...TASK,
      aspects: [
        { name: 'naturalness', scale: { min: 1, max: 3 } },
        { name: 'engagingness', scale: { min: 1, max: 3 } },
      ],
    };
    const { waves, outcome } = driveByWaves(m, createEvaluation(m, cascade, task), (r) =>
      r.agent.includes('critic') ? 'NO_ISSUE' : '2',
    );
    expect(waves[0]?.map((r) => r.id)).toEqual(['aspect0/s0/sample0', 'aspect1/s0/sample0']);
    const v = verdictOf(outcome);
    expect(v.aspects?.map((a) => [a.name, a.score, a.calls])).toEqual([
      ['naturalness', 2, 1],
      ['engagingness', 2, 1],
    ]);
  });
});

describe('one call for every aspect (the single judge JSON form)', () => {
  const config = resolveMethodConfig('rubric-judge', undefined);
  const method = getMethod('single');
  const json = JSON.stringify({
    policy: { rationale: 'Refund given.', score: 5 },
    tone: { rationale: 'Apologetic.', score: 4 },
    brevity: { rationale: 'Three words.', score: 0 },
  });

  it('asks once for every aspect and reads one JSON object, with each reason', async () => {
    const calls: LlmCallRequest[] = [];
    const llm: LlmFunction = (r) => {
      calls.push(r);
      return Promise.resolve({
        id: r.id,
        ok: true,
        content: `Here you go:\n\`\`\`json\n${json}\n\`\`\``,
        model: 'fake',
        usage: usage(0.02),
      });
    };
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, TASK, RUBRIC), llm);
    const v = verdictOf(outcome);
    expect(calls.map((c) => c.id)).toEqual(['sample0']);
    const prompt = calls[0]?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('Evaluation Criteria:\n\nSupport replies of ACME.');
    expect(prompt).toContain('- tone (1-5): Polite and warm.');
    expect(prompt).toContain('"brevity": {"rationale": "<your reason>", "score": <a number from 0 to 2>}');
    expect(calls[0]?.parser).toEqual({
      type: 'aspect-scores',
      aspects: [
        { name: 'policy', min: 1, max: 5 },
        { name: 'tone', min: 1, max: 5 },
        { name: 'brevity', min: 0, max: 2 },
      ],
    });
    expect(v.aspects).toEqual([
      {
        name: 'policy',
        score: 5,
        scale: { min: 1, max: 5 },
        weight: 1,
        confidence: 1,
        calls: 1,
        rationale: 'Refund given.',
      },
      {
        name: 'tone',
        score: 4,
        scale: { min: 1, max: 5 },
        weight: 2,
        confidence: 1,
        calls: 1,
        rationale: 'Apologetic.',
      },
      {
        name: 'brevity',
        score: 0,
        scale: { min: 0, max: 2 },
        weight: 1,
        confidence: 1,
        calls: 1,
        rationale: 'Three words.',
      },
    ]);
    const { overall, spread } = expectedOverall();
    expect(v.overall).toBeCloseTo(overall, 12);
    expect(v.spread).toBeCloseTo(spread, 12);
    expect(v.details).toMatchObject({ aspectMode: 'one-call' });
    expect(v.calls).toBe(1);
  });

  it('is read strictly: a missing aspect, an extra key or an out-of-scale score is asked again, naming the format', () => {
    const replies = [
      JSON.stringify({ policy: 5, tone: 4 }),
      JSON.stringify({ policy: 5, tone: 4, brevity: 0, length: 1 }),
      JSON.stringify({ policy: 5, tone: 4, brevity: 3 }),
      json,
    ];
    const { waves, outcome } = driveByWaves(
      method,
      createEvaluation(method, config, TASK, RUBRIC),
      (_r, n) => replies[n] ?? '',
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['sample0'], ['sample0#1'], ['sample0#2'], ['sample0#3']]);
    const repairs = waves.slice(1).map((w) => w[0]?.messages.at(-1)?.content ?? '');
    expect(repairs[0]).toContain('no score for aspect "brevity"');
    expect(repairs[1]).toContain('unknown aspect key(s) "length"');
    expect(repairs[2]).toContain('aspect "brevity": score 3 is outside the scale 0-2');
    expect(repairs[0]).toContain('one JSON object with exactly these keys');
    expect(verdictOf(outcome).aspects?.map((a) => a.score)).toEqual([5, 4, 0]);
  });

  it('never read: the aspects have no score, nor the verdict an overall', () => {
    const { outcome } = driveByWaves(method, createEvaluation(method, config, TASK, RUBRIC), () => 'no JSON here');
    const v = verdictOf(outcome);
    expect(v.aspects?.map((a) => a.score)).toEqual([undefined, undefined, undefined]);
    expect(v.overall).toBeUndefined();
    expect(v.score).toBeUndefined();
    expect(v.unparsed).toHaveLength(1);
  });
});

describe('the bundled mock LLM answers what rubrics ask', () => {
  const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock' });

  it('the one-call JSON form: every aspect scored within its scale, no re-ask', async () => {
    const method = getMethod('single');
    const config = resolveMethodConfig('rubric-judge', undefined);
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, TASK, RUBRIC), llm);
    const v = verdictOf(outcome);
    expect(v.calls).toBe(1);
    for (const a of v.aspects ?? []) {
      expect(a.score).toBeGreaterThanOrEqual(a.scale.min);
      expect(a.score).toBeLessThanOrEqual(a.scale.max);
      expect(a.rationale).toBeTruthy();
    }
  });

  it("G-Eval's auto-CoT prompt: numbered steps", async () => {
    const method = rubricStepsMethod as unknown as AnyMethod;
    const config = resolveMethodConfig(undefined, { method: 'rubric-steps' });
    const rubric: RubricContent = { kind: 'pairwise', criteria: 'Which reply follows the refund policy better.' };
    const { outcome } = await runEvaluation(
      method,
      createEvaluation(method, config, rubricStepsTask(rubric), rubric),
      llm,
    );
    const v = verdictOf(outcome);
    expect(v.calls).toBe(1);
    expect(withGeneratedSteps(rubric, v).evaluationSteps).toMatch(/^1\. .+\n2\. .+\n3\. .+$/);
  });
});
