/**
 * Integration: every preset runs end to end through `runEvaluation` with `createLlm` against the mock
 * in judge mode, and every reply parses (no `unparsed` entries, no repairs needed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/engine/task.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, PRESETS, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import { createLlm } from '../../src/llm/client.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});

function taskFor(presetId: string, kind: Task['kind']): Task {
  if (kind === 'pairwise') {
    return {
      kind: 'pairwise',
      question: 'What causes the seasons on Earth?',
      answerA: 'The tilt of the Earth’s axis changes how directly sunlight hits each hemisphere over the year.',
      answerB: 'The Earth is closer to the Sun in summer and farther away in winter.',
    };
  }
  if (presetId.includes('topical-chat')) {
    return {
      kind: 'pointwise',
      source: 'A: Did you know the Eiffel Tower grows in summer?\nB: Really? Why is that?',
      context: 'Thermal expansion makes the iron tower up to 15 cm taller on hot days.',
      output: 'Yes, the heat makes the metal expand, so it can be about 15 centimetres taller!',
      aspect: { name: 'naturalness', scale: { min: 1, max: 3 } },
    };
  }
  return {
    kind: 'pointwise',
    source:
      'The city council approved a new budget on Tuesday that increases funding for public parks by 12 percent and cuts road maintenance.',
    output: 'The council passed a budget raising park funding by 12% while reducing road maintenance.',
    aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
  };
}

describe('every preset against the mock judge', () => {
  const llm = () =>
    createLlm({
      providers: { default: { baseUrl: mock.baseUrl } },
      defaultModel: 'mock-judge',
      timeoutMs: 10_000,
    });

  it.each(PRESETS.map((p) => [p.id, p] as const))('%s succeeds with every reply parsed', async (_id, preset) => {
    const config = resolveMethodConfig(preset.id, undefined);
    const method = getMethod(config.method);
    const state = createEvaluation(method, config, taskFor(preset.id, preset.taskKind));
    const { outcome } = await runEvaluation(method, state, llm());
    if (outcome.status !== 'succeeded') throw new Error(`failed: ${JSON.stringify(outcome.error)}`);
    const repairs = outcome.verdict.transcript.filter((t) => t.parseError !== undefined);
    expect(outcome.verdict.unparsed, JSON.stringify(repairs.slice(0, 2), null, 1)).toEqual([]);
    expect(repairs.map((r) => `${r.callId}: ${r.parseError}`)).toEqual([]);
    expect(outcome.verdict.calls).toBeGreaterThan(0);
    expect(outcome.verdict.usage.promptTokens).toBeGreaterThan(0);
  });
});

describe('the mock judge keeps to the scale the authors’ prompts state', () => {
  it('Topical-Chat groundedness "(0 or 1)": every final reply ends in 0 or 1', async () => {
    const llm = createLlm({
      providers: { default: { baseUrl: mock.baseUrl } },
      defaultModel: 'mock-judge',
      timeoutMs: 10_000,
    });
    const config = resolveMethodConfig('chateval-topical-chat', undefined);
    const method = getMethod(config.method);
    const task = {
      ...taskFor('topical-chat', 'pointwise'),
      aspect: { name: 'groundedness', scale: { min: 0, max: 1 } },
    } as Task;
    const { outcome } = await runEvaluation(method, createEvaluation(method, config, task), llm);
    if (outcome.status !== 'succeeded') throw new Error('failed');
    for (const v of outcome.verdict.votes) expect([0, 1]).toContain(v.score);
  });
});
