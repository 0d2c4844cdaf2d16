/**
 * Estimates (src/estimates/): hand-computed figures, every synthetic reply parsing under its call's rule,
 * and the estimate against the calls a real run makes (the mock LLM in-process): equal for fixed-length
 * presets, bracketing them for adaptive ones.
 */
import { describe, expect, it } from 'vitest';
import { createCallMeter } from '../../src/budgets/meter.js';
import type { PromptCounter } from '../../src/budgets/prompt-tokens.js';
import { createPromptCounter, loadTokenizer } from '../../src/budgets/prompt-tokens.js';
import type { ParserSpec } from '../../src/engine/parsers/spec.js';
import { parseReply } from '../../src/engine/parsers/parse.js';
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import { getMethod, PRESETS, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { Task } from '../../src/engine/task.js';
import { estimateTask } from '../../src/budgets/estimate.js';
import { syntheticReply } from '../../src/budgets/replies.js';
import { budgetFit, sampleIndices, scaleEstimate } from '../../src/budgets/aggregate.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';

const PAIRWISE: Task = {
  kind: 'pairwise',
  question: 'What causes inflation?',
  answerA: 'Demand outpacing supply, rising costs, expectations.',
  answerB: 'Printing money.',
};
const POINTWISE: Task = {
  kind: 'pointwise',
  source: 'The council approved a budget raising transit funds by 12 percent.',
  output: 'Transit funding rises 12%.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** Every prompt 100 tokens, every text one token per word: figures to compute by hand. */
const WORDS: PromptCounter = {
  count: () => 100,
  countText: (_m, t) => t.trim().split(/\s+/).length,
  kindOf: () => 'exact',
};

describe('an estimate by hand', () => {
  it('one FastChat call, maxTokens 50, $2 / $4 per 1M: min 100 + 1 tokens, expected and max 100 + 50', async () => {
    const config = resolveMethodConfig(undefined, {
      method: 'single',
      parser: { type: 'fastchat-verdict' },
      defaults: { maxTokens: 50 },
    });
    const deps = {
      counter: WORDS,
      meter: createCallMeter(
        { defaultModel: 'm', defaultProvider: 'p', prices: { m: { input: 2, output: 4 } } },
        WORDS,
      ),
    };
    const e = await estimateTask(getMethod('single'), config, PAIRWISE, deps);
    expect(e.min).toEqual({ calls: 1, promptTokens: 100, completionTokens: 1, costUsd: (100 * 2 + 1 * 4) / 1e6 });
    expect(e.expected).toEqual({
      calls: 1,
      promptTokens: 100,
      completionTokens: 50,
      costUsd: (100 * 2 + 50 * 4) / 1e6,
    });
    expect(e.max).toEqual(e.expected);
    // parseRetries 3: the call and three re-asks.
    expect(e.callsWithRepairs).toBe(4);
    expect(e.models).toEqual([
      { model: 'm', provider: 'p', priced: true, tokenCount: 'exact', min: e.min, expected: e.expected, max: e.max },
    ]);
  });

  it('with the real tokenizer: "hello world" to gpt-4 is 8 prompt tokens; "[[A]]" 3 completion tokens; at $30 / $60 per 1M', async () => {
    const counter = createPromptCounter(await loadTokenizer());
    const config = resolveMethodConfig(undefined, {
      method: 'single',
      template: '{{question}}',
      parser: { type: 'fastchat-verdict' },
      defaults: { model: 'gpt-4', maxTokens: 10 },
    });
    const e = await estimateTask(
      getMethod('single'),
      config,
      { ...PAIRWISE, question: 'hello world' },
      { counter, meter: createCallMeter({ defaultModel: 'x', defaultProvider: 'default' }, counter) },
    );
    // 3 tokens priming the reply + 3 for the message + 2 for "hello world".
    expect(e.min).toEqual({ calls: 1, promptTokens: 8, completionTokens: 3, costUsd: (8 * 30 + 3 * 60) / 1e6 });
    expect(e.max).toEqual({ calls: 1, promptTokens: 8, completionTokens: 10, costUsd: (8 * 30 + 10 * 60) / 1e6 });
    // Seven filler words and " [[C]]" (3 tokens) fill the 10 tokens exactly.
    expect(e.expected.completionTokens).toBe(10);
    expect(e.models[0]?.tokenCount).toBe('exact');
  });

  it('samples evenly, scales counts, and fits budgets per limit', () => {
    expect(sampleIndices(3, 100)).toEqual([0, 1, 2]);
    expect(sampleIndices(1000, 4)).toEqual([0, 250, 500, 750]);
    const one = { calls: 2, promptTokens: 10, completionTokens: 5, costUsd: 0.001 };
    const e = {
      evaluations: 4,
      min: one,
      expected: one,
      max: { ...one, calls: 3 },
      callsWithRepairs: 6,
      models: [],
      waves: { min: 2, max: 3 },
    };
    expect(scaleEstimate(e, 2.5)).toMatchObject({
      evaluations: 10,
      min: { calls: 5, promptTokens: 25, completionTokens: 13 },
      callsWithRepairs: 15,
    });
    expect(budgetFit({ maxCalls: 3, maxTokens: 14, maxCostUsd: 0.0005 }, e)).toEqual({
      maxCostUsd: 'no',
      maxCalls: 'yes',
      maxTokens: 'no',
    });
    expect(budgetFit({ maxCalls: 2 }, e)).toEqual({ maxCalls: 'maybe' });
  });
});

describe('synthetic replies', () => {
  const SPECS: ParserSpec[] = [
    { type: 'text' },
    { type: 'critique' },
    { type: 'critique', noIssue: 'code' },
    { type: 'chateval-scores', min: 1, max: 10 },
    { type: 'chateval-scores', min: 1, max: 10, read: 'script' },
    { type: 'faireval-scores' },
    { type: 'geval-score' },
    { type: 'last-char' },
    { type: 'debate-score', from: 'first' },
    { type: 'debate-score', from: 'last' },
    { type: 'bandi-tuple', rule: 'first-decimal' },
    { type: 'bandi-tuple', rule: 'first-int' },
    { type: 'bandi-tuple', rule: 'last-int' },
    { type: 'score-tuple', min: 0, max: 1, line: 'Vote' },
    { type: 'score-tuple', min: 1, max: 20 },
    { type: 'fastchat-verdict' },
    { type: 'assistant-choice' },
    { type: 'leading-number', min: 1, max: 5 },
    { type: 'labelled-score', label: 'Coherence', min: 1, max: 5 },
    { type: 'json', shape: 'pair-scores', min: 1, max: 10 },
    { type: 'json', shape: 'winner' },
    { type: 'json', shape: 'score', min: 1, max: 5 },
  ];
  it('parse under every rule, leaning as asked, short or with a filler body', () => {
    for (const spec of SPECS) {
      for (const side of ['A', 'B', 'tie'] as const) {
        for (const filler of ['', 'ok ok ok']) {
          const reply = syntheticReply(spec, { side, noIssue: side === 'A' }, filler);
          const parsed = parseReply(spec, reply);
          expect(parsed.ok, `${spec.type} ${side} ${JSON.stringify(reply)}`).toBe(true);
          if (!parsed.ok) continue;
          const v = parsed.value;
          if (v.kind === 'critique') expect(v.noIssue).toBe(side === 'A');
          if (v.kind === 'winner') expect(v.winner).toBe(side);
          if (v.kind === 'pair-scores') expect(Math.sign(v.a - v.b)).toBe(side === 'A' ? 1 : side === 'B' ? -1 : 0);
        }
      }
    }
  });
});

describe('samples in one request with n', () => {
  const geval = resolveMethodConfig('geval-summeval', { defaults: { model: 'm' } });
  const meterFor = (supportsN: boolean) =>
    createCallMeter(
      {
        defaultModel: 'm',
        defaultProvider: 'p',
        prices: { m: { input: 2, output: 4 } },
        providers: { p: { supportsN } },
      },
      WORDS,
    );

  it('G-Eval at a provider with n: one request, one prompt, twenty completions; callsWithRepairs counts each choice', async () => {
    const e = await estimateTask(getMethod('single'), geval, POINTWISE, { counter: WORDS, meter: meterFor(true) });
    // max: 100 prompt tokens once, 20 choices × maxTokens 5.
    expect(e.max).toEqual({ calls: 1, promptTokens: 100, completionTokens: 100, costUsd: (100 * 2 + 100 * 4) / 1e6 });
    // min: each choice a bare score, one token.
    expect(e.min).toEqual({ calls: 1, promptTokens: 100, completionTokens: 20, costUsd: (100 * 2 + 20 * 4) / 1e6 });
    // parseRetries 0 (G-Eval re-asks nothing).
    expect(e.callsWithRepairs).toBe(1);
    const reasking = await estimateTask(
      getMethod('single'),
      resolveMethodConfig('geval-summeval', { parseRetries: 1 }),
      POINTWISE,
      { counter: WORDS, meter: meterFor(true) },
    );
    expect(reasking.callsWithRepairs).toBe(1 + 20);
  });

  it('G-Eval at a provider without n: twenty calls, twenty prompts', async () => {
    const e = await estimateTask(getMethod('single'), geval, POINTWISE, { counter: WORDS, meter: meterFor(false) });
    expect(e.max).toEqual({
      calls: 20,
      promptTokens: 2000,
      completionTokens: 100,
      costUsd: (2000 * 2 + 100 * 4) / 1e6,
    });
  });

  it('equals a real run against the mock with n (1 call per order) and with n ignored (every sample its own call)', async () => {
    const counter = createPromptCounter(await loadTokenizer());
    for (const [preset, task, withN] of [
      ['geval-summeval', POINTWISE, 1],
      ['faireval-mec-bpc', PAIRWISE, 2],
    ] as const) {
      for (const [supportsN, model, expected] of [
        [true, 'mock-judge?seed=n1', withN],
        [false, 'mock-judge?seed=n2', 0],
        [true, 'mock-judge?seed=n3&n=ignore', 0],
      ] as const) {
        const config = resolveMethodConfig(preset, { defaults: { model } });
        const method = getMethod(config.method);
        const llm = createLlmWithMock({
          providers: { default: { baseUrl: IN_PROCESS_MOCK_URL, supportsN } },
          defaultModel: 'mock',
        });
        // The driver passes the same capability the client has, as the Durable Object does.
        const { outcome } = await runEvaluation(method, createEvaluation(method, config, task), llm, {
          supportsN: () => supportsN,
        });
        if (outcome.status !== 'succeeded') throw new Error(outcome.error.message);
        const planned = plannedCalls(method, createEvaluation(method, config, task));
        expect(outcome.verdict.calls).toBe(expected === 0 ? planned : expected);
        if (model.includes('n=ignore')) continue;
        const e = await estimateTask(method, config, task, {
          counter,
          meter: createCallMeter(
            { defaultModel: 'm', defaultProvider: 'default', providers: { default: { supportsN } } },
            counter,
          ),
        });
        expect(e.max.calls).toBe(outcome.verdict.calls);
      }
    }
  });

  it("a budget's worst case of a request with n: one call, one prompt, maxTokens per choice (one choice without n)", () => {
    const request = { model: 'm', messages: [{ role: 'system' as const, content: 'rate' }], maxTokens: 5, n: 20 };
    expect(meterFor(true).bound(request)).toMatchObject({
      calls: 1,
      promptTokens: 100,
      completionTokens: 100,
      tokens: 200,
    });
    expect(meterFor(false).bound(request)).toMatchObject({
      calls: 1,
      promptTokens: 100,
      completionTokens: 5,
      tokens: 105,
    });
  });
});

/** Calls a real run makes against the mock LLM (in-process, judge mode) for a preset and a task. */
async function actualCalls(preset: string, task: Task, seed: string): Promise<number> {
  const config = resolveMethodConfig(preset, { defaults: { model: `mock-judge?seed=${seed}` } });
  const method = getMethod(config.method);
  const llm = createLlmWithMock({ providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, defaultModel: 'mock' });
  const { outcome } = await runEvaluation(method, createEvaluation(method, config, task), llm);
  if (outcome.status !== 'succeeded') throw new Error(`${preset}: ${outcome.error.message}`);
  return outcome.verdict.calls;
}

describe('estimates against real runs, every preset', async () => {
  const counter = createPromptCounter(await loadTokenizer());
  const deps = {
    counter,
    meter: createCallMeter({ defaultModel: 'gpt-4o-mini', defaultProvider: 'default' }, counter),
  };
  const ADAPTIVE = new Set([
    'samre-early-stop',
    'debate-summeval',
    'debate-topical-chat',
    'debate-tie-breaker',
    'debate-summeval-moderate',
    'debate-summeval-weak',
    'debate-summeval-plain',
    'cascade-fastchat-chateval',
  ]);

  for (const preset of PRESETS) {
    it(`${preset.id}: ${ADAPTIVE.has(preset.id) ? 'brackets' : 'equals'} the calls made`, async () => {
      const task = preset.taskKind === 'pairwise' ? PAIRWISE : POINTWISE;
      const config = resolveMethodConfig(preset.id, undefined);
      const method = getMethod(config.method);
      const e = await estimateTask(method, config, task, deps);
      // The longest path is the plan, and every synthetic reply parsed (no repair call).
      expect(e.max.calls).toBe(plannedCalls(method, createEvaluation(method, config, task)));
      expect(e.expected.calls).toBe(e.max.calls);
      expect(e.min.costUsd).toBeLessThanOrEqual(e.expected.costUsd);
      expect(e.expected.costUsd).toBeLessThanOrEqual(e.max.costUsd);
      for (const seed of ['s1', 's2', 's3']) {
        const made = await actualCalls(preset.id, task, `${preset.id}-${seed}`);
        if (ADAPTIVE.has(preset.id)) {
          expect(made).toBeGreaterThanOrEqual(e.min.calls);
          expect(made).toBeLessThanOrEqual(e.max.calls);
        } else {
          expect(made).toBe(e.min.calls);
          expect(made).toBe(e.max.calls);
        }
      }
      if (ADAPTIVE.has(preset.id)) expect(e.min.calls).toBeLessThan(e.max.calls);
    });
  }
});
