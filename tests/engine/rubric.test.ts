/**
 * The rubric content the engine consumes (its schema and hash), G-Eval's auto-CoT as the `rubric-steps`
 * method, and what estimates count for a rubric: every aspect's run and, when asked, the steps call.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCallMeter } from '../../src/budgets/meter.js';
import type { PromptCounter } from '../../src/budgets/prompt-tokens.js';
import type { AnyMethod } from '../../src/engine/method.js';
import {
  RUBRIC_STEPS_POINTWISE,
  rubricStepsMethod,
  rubricStepsTask,
  withGeneratedSteps,
} from '../../src/engine/methods/rubric-steps/index.js';
import { parseReply } from '../../src/engine/parsers/parse.js';
import { createEvaluation, wantsEvaluationSteps } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import { canonicalJson, RubricContentSchema, rubricHash } from '../../src/engine/rubric.js';
import type { Task } from '../../src/engine/task.js';
import { estimateRubricSteps, estimateTask } from '../../src/budgets/estimate.js';
import { driveByWaves, verdictOf } from '../support/waves.js';

const issues = (value: unknown) =>
  RubricContentSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

const POINTWISE: RubricContent = {
  kind: 'pointwise',
  criteria: 'The reply follows the refund policy.',
  scale: {
    min: 1,
    max: 5,
    levels: [
      { score: 1, text: 'Ignores it.' },
      { score: 5, text: 'Follows it.' },
    ],
  },
};

describe('the rubric content schema names each field', () => {
  it('accepts a pairwise rubric and a pointwise one with levels and aspects', () => {
    expect(issues({ kind: 'pairwise', criteria: 'Which follows the policy better.' })).toEqual([]);
    expect(issues(POINTWISE)).toEqual([]);
    expect(
      RubricContentSchema.parse({ ...POINTWISE, aspects: [{ name: 'tone', criteria: 'Polite.' }] }).aspects?.[0]
        ?.weight,
    ).toBe(1);
  });

  it('refuses empty, blank or oversized criteria, a scale with max ≤ min, levels outside it', () => {
    expect(issues({ kind: 'pairwise', criteria: '' })[0]).toMatch(/^criteria: /);
    expect(issues({ kind: 'pairwise', criteria: ' \n ' })).toEqual(['criteria: must not be only whitespace']);
    expect(issues({ kind: 'pairwise', criteria: 'x'.repeat(8_001) })[0]).toMatch(/^criteria: /);
    expect(issues({ kind: 'pairwise', criteria: 'x'.repeat(8_000) })).toEqual([]);
    expect(issues({ ...POINTWISE, scale: { min: 3, max: 3 } })).toEqual([
      'scale.max: scale.max must be greater than scale.min',
    ]);
    expect(
      issues({
        ...POINTWISE,
        scale: {
          min: 1,
          max: 5,
          levels: [
            { score: 6, text: 'x' },
            { score: 6, text: 'y' },
          ],
        },
      }),
    ).toEqual([
      'scale.levels.0.score: level score 6 is outside the scale 1-5',
      'scale.levels.1.score: level score 6 is outside the scale 1-5',
      'scale.levels.1.score: level score 6 is given twice',
    ]);
  });

  it('refuses duplicate aspect names, weights that are not positive, more than 16 aspects, an aspect without a scale', () => {
    const aspect = (name: string, extra: Record<string, unknown> = {}) => ({ name, criteria: `${name}.`, ...extra });
    expect(issues({ ...POINTWISE, aspects: [aspect('a'), aspect('a')] })).toEqual([
      'aspects.1.name: aspect name "a" is used twice',
    ]);
    expect(issues({ ...POINTWISE, aspects: [aspect('a', { weight: 0 })] })[0]).toMatch(/^aspects\.0\.weight: /);
    expect(issues({ ...POINTWISE, aspects: [aspect('a', { weight: -1 })] })[0]).toMatch(/^aspects\.0\.weight: /);
    expect(issues({ ...POINTWISE, aspects: Array.from({ length: 17 }, (_, i) => aspect(`a${i}`)) })[0]).toMatch(
      /^aspects: /,
    );
    expect(
      issues({ kind: 'pointwise', criteria: 'c', aspects: [aspect('a'), aspect('b', { scale: { min: 0, max: 1 } })] }),
    ).toEqual(['aspects.0.scale: this aspect needs a scale, or the rubric one for every aspect']);
  });

  it('a pointwise rubric needs a scale; a pairwise one has none and no aspects', () => {
    expect(issues({ kind: 'pointwise', criteria: 'c' })).toEqual(['scale: a pointwise rubric needs a scale']);
    expect(issues({ kind: 'pairwise', criteria: 'c', scale: { min: 1, max: 5 } })).toEqual([
      'scale: a pairwise rubric has no scale (scales are pointwise)',
    ]);
    expect(issues({ kind: 'pairwise', criteria: 'c', aspects: [{ name: 'a', criteria: 'a' }] })).toEqual([
      'aspects: aspects are scored one output at a time: use a pointwise rubric',
    ]);
    expect(issues({ kind: 'pairwise', criteria: 'c', name: 'mine' })[0]).toMatch(/^: Unrecognized key/);
  });
});

describe('rubricHash', () => {
  it('is the SHA-256 of the canonical JSON of the parsed content: key order and defaults do not matter', async () => {
    const a: RubricContent = {
      kind: 'pointwise',
      criteria: 'c',
      scale: { min: 1, max: 5 },
      aspects: [{ name: 'x', criteria: 'y', weight: 1 }],
    };
    // Key order differs and the default weight is left out.
    const b = JSON.parse(
      '{"aspects":[{"criteria":"y","name":"x"}],"scale":{"max":5,"min":1},"criteria":"c","kind":"pointwise"}',
    ) as RubricContent;
    const h = await rubricHash(a);
    expect(await rubricHash(b)).toBe(h);
    expect(h).toBe(
      createHash('sha256')
        .update(
          '{"aspects":[{"criteria":"y","name":"x","weight":1}],"criteria":"c","kind":"pointwise","scale":{"max":5,"min":1}}',
        )
        .digest('hex'),
    );
    expect(await rubricHash({ ...b, criteria: 'c2' })).not.toBe(h);
    expect(canonicalJson({ b: [2, { d: 1, c: undefined }], a: 'é' })).toBe('{"a":"é","b":[2,{"d":1}]}');
  });
});

describe("rubric-steps: G-Eval's auto-CoT", () => {
  const method = rubricStepsMethod as unknown as AnyMethod;
  const config = resolveMethodConfig(undefined, { method: 'rubric-steps' });
  const steps = '1. Read the policy.\n2. Check the reply against it.\n3. Score 1 to 5.';

  it("asks once with G-Eval's form up to 'Evaluation Steps:', reads the numbered steps, fills the rubric", () => {
    const { waves, outcome } = driveByWaves(
      method,
      createEvaluation(method, config, rubricStepsTask(POINTWISE), POINTWISE),
      () =>
        `Sure.\n\n1. Read the policy.\n2. Check the reply\n   against it.\n3. Score 1 to 5.\n\nEvaluation Form (scores ONLY):`,
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['steps']]);
    const prompt = waves[0]?.[0]?.messages[0]?.content ?? '';
    expect(prompt.startsWith(RUBRIC_STEPS_POINTWISE.split('{{')[0] ?? '')).toBe(true);
    expect(prompt).toContain(
      'Overall (1-5) - The reply follows the refund policy.\n\nScores:\n- 1: Ignores it.\n- 5: Follows it.',
    );
    expect(prompt.endsWith('\n\nEvaluation Steps:')).toBe(true);
    const v = verdictOf(outcome);
    expect(v.details).toEqual({
      evaluationSteps: '1. Read the policy.\n2. Check the reply against it.\n3. Score 1 to 5.',
      generated: true,
    });
    expect(withGeneratedSteps(POINTWISE, v)).toEqual({ ...POINTWISE, evaluationSteps: steps });
  });

  it('never pays twice: given steps need no call', () => {
    const given = { ...POINTWISE, evaluationSteps: steps };
    const { waves, outcome } = driveByWaves(
      method,
      createEvaluation(method, config, rubricStepsTask(given), given),
      () => 'x',
    );
    expect(waves).toEqual([]);
    expect(verdictOf(outcome).details).toEqual({ evaluationSteps: steps, generated: false });
  });

  it("writes each aspect's missing steps in its own call, from the aspect's criteria", () => {
    const rubric: RubricContent = {
      kind: 'pointwise',
      criteria: 'Support replies.',
      scale: { min: 1, max: 5 },
      aspects: [
        { name: 'policy', criteria: 'Follows the policy.', weight: 1, evaluationSteps: '1. Given.' },
        { name: 'tone', criteria: 'Polite.', weight: 1 },
      ],
    };
    const { waves, outcome } = driveByWaves(
      method,
      createEvaluation(method, config, rubricStepsTask(rubric), rubric),
      (r) => (r.messages[0]?.content.includes('Tone (1-5) - Polite.\n\nSupport replies.') ? '1. Be polite.' : 'wrong'),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['aspect1/steps']]);
    expect(withGeneratedSteps(rubric, verdictOf(outcome)).aspects?.map((a) => a.evaluationSteps)).toEqual([
      '1. Given.',
      '1. Be polite.',
    ]);
  });

  it('a pairwise rubric; a reply without steps is asked again; no rubric is refused', () => {
    const rubric: RubricContent = { kind: 'pairwise', criteria: 'Which follows the policy better.' };
    const { waves } = driveByWaves(
      method,
      createEvaluation(method, config, rubricStepsTask(rubric), rubric),
      (_r, n) => (n === 0 ? 'I would look at the policy.' : '1. Compare both with the policy.'),
    );
    expect(waves.map((w) => w.map((r) => r.id))).toEqual([['steps'], ['steps#1']]);
    expect(waves[0]?.[0]?.messages[0]?.content).toContain('Your task is to decide which answer is better.');
    expect(parseReply({ type: 'steps' }, 'no list').ok).toBe(false);
    expect(() => createEvaluation(method, config, rubricStepsTask(rubric))).toThrow(/^rubric: rubric-steps writes/);
  });

  it('the G-Eval-style methods want steps; the others do not', () => {
    const wants = (preset: string) => {
      const c = resolveMethodConfig(preset, undefined);
      return wantsEvaluationSteps(getMethod(c.method), c);
    };
    expect(
      ['geval-summeval', 'geval-topical-chat', 'rubric-judge', 'debate-summeval', 'debate-topical-chat'].map(wants),
    ).toEqual([true, true, true, true, true]);
    expect(
      ['fastchat-pair', 'chateval-faireval', 'samre-mtbench', 'poll-3', 'cascade-fastchat-chateval'].map(wants),
    ).toEqual([false, false, false, false, false]);
  });
});

describe('estimates count every aspect and, when asked, the steps call', () => {
  const WORDS: PromptCounter = {
    count: () => 100,
    countText: (_m, t) => t.trim().split(/\s+/).length,
    kindOf: () => 'exact',
  };
  const deps = {
    counter: WORDS,
    meter: createCallMeter({ defaultModel: 'm', defaultProvider: 'p', prices: { m: { input: 2, output: 4 } } }, WORDS),
  };
  const task: Task = { kind: 'pointwise', source: 'S', output: 'O' };
  const rubric: RubricContent = {
    kind: 'pointwise',
    criteria: 'c',
    scale: { min: 1, max: 5 },
    aspects: [
      { name: 'a', criteria: 'a.', weight: 1 },
      { name: 'b', criteria: 'b.', weight: 1, evaluationSteps: '1. b.' },
      { name: 'c', criteria: 'c.', weight: 1 },
    ],
  };

  it('one run per aspect: three times a single aspect; one call for all: one', async () => {
    const geval = resolveMethodConfig('geval-summeval', undefined);
    const single = getMethod('single');
    const one = await estimateTask(
      single,
      geval,
      { ...task, aspect: { name: 'coherence', scale: { min: 1, max: 5 } } },
      deps,
    );
    const three = await estimateTask(single, geval, task, deps, { rubric });
    expect(three.max.calls).toBe(3 * one.max.calls);
    expect(three.evaluations).toBe(1);
    const json = await estimateTask(single, resolveMethodConfig('rubric-judge', undefined), task, deps, { rubric });
    expect(json.max.calls).toBe(1);
  });

  it('the auto-CoT call(s) for the aspects without steps, counted once, not as an evaluation', async () => {
    const geval = resolveMethodConfig('geval-summeval', undefined);
    const without = await estimateTask(getMethod('single'), geval, task, deps, { rubric });
    const withSteps = await estimateTask(getMethod('single'), geval, task, deps, { rubric, rubricSteps: true });
    expect(withSteps.max.calls - without.max.calls).toBe(2);
    expect(withSteps.evaluations).toBe(1);
    const steps = await estimateRubricSteps(rubric, deps);
    expect(steps.max.calls).toBe(2);
    expect(steps.min.promptTokens).toBe(200);
    expect(
      (await estimateRubricSteps({ kind: 'pairwise', criteria: 'c', evaluationSteps: '1. x' }, deps)).max.calls,
    ).toBe(0);
  });
});
