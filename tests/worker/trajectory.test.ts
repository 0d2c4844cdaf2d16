/**
 * A trajectory task through the API: `trajectory-judge` scores the six default aspects and names the first
 * failing step with its span id (the bundled mock names the first step with an error); the evaluation lists
 * as a trajectory; a step without a type is a 400 naming the field; a pairwise-only preset is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, waitForEnd } from './helpers.js';
import { TRAJECTORY_RUBRIC_EXAMPLES, TRAJECTORY_RUBRIC_TEMPLATE } from '../../src/rubrics/templates.js';

afterEach(drainAlarms);

const task = {
  kind: 'trajectory',
  request: 'What is the weather in Paris, in Celsius?',
  steps: [
    { type: 'tool', spanId: '1111111111111111', name: 'weather', input: '{"city":"Paris"}', error: 'timeout' },
    { type: 'tool', spanId: '2222222222222222', name: 'weather', input: '{"city":"Paris"}', output: '{"f":68}' },
    { type: 'llm', spanId: '3333333333333333', name: 'gpt-4o', output: 'It is 20 °C in Paris.' },
  ],
  finalAnswer: 'It is 20 °C in Paris.',
};

interface Evaluation {
  status: string;
  taskKind: string;
  verdict: {
    score?: number | null;
    firstFailingStep?: { step: number; spanId?: string } | null;
    aspects?: { name: string; score?: number }[];
  } | null;
}

describe('trajectory tasks over the API', () => {
  it('trajectory-judge scores the default aspects and names the first failing step with its span', async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'trajectory-judge',
      config: { defaults: { model: mockModel({ seed: newTestId('traj') }) } },
      task,
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const ev = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
    expect(ev.taskKind).toBe('trajectory');
    expect(ev.verdict?.aspects?.map((a) => a.name)).toEqual([
      'task_completion',
      'tool_selection',
      'argument_correctness',
      'plan_adherence',
      'step_efficiency',
      'error_recovery',
    ]);
    expect(ev.verdict?.firstFailingStep).toEqual({ step: 1, spanId: '1111111111111111' });
  });

  it('is a 400 naming the field for a step without a type, and for a pairwise-only preset', async () => {
    const bad = await postJson('/v1/evaluations', {
      preset: 'trajectory-judge',
      task: { ...task, steps: [{ name: 'weather' }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('task.steps.0.type');
    const pairwise = await postJson('/v1/evaluations', { preset: 'fastchat-pair', task });
    expect(pairwise.status).toBe(400);
    expect((await pairwise.json<{ error: { code: string } }>()).error.code).toBe('task_kind_unsupported');
  });

  it('the rubric templates: each is a valid POST /v1/rubrics body, and a trajectory judged by one is scored on its aspects', async () => {
    const ids: Record<string, string> = {};
    for (const [key, example] of Object.entries(TRAJECTORY_RUBRIC_EXAMPLES)) {
      const r = await postJson('/v1/rubrics', example.value);
      expect(r.status, key).toBe(201);
      ids[key] = (await r.json<{ id: string }>()).id;
    }
    expect(Object.keys(ids)).toHaveLength(7);
    const judged = async (rubric: string | undefined) => {
      const r = await postJson('/v1/evaluations', {
        preset: 'trajectory-judge',
        config: { defaults: { model: mockModel({ seed: newTestId('traj-rubric') }) } },
        rubric,
        task,
      });
      expect(r.status).toBe(202);
      const { id } = await r.json<{ id: string }>();
      expect((await waitForEnd(id)).status).toBe('succeeded');
      return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
    };
    const all = await judged(ids.trajectory);
    expect(all.verdict?.aspects?.map((a) => a.name)).toEqual(TRAJECTORY_RUBRIC_TEMPLATE.aspects.map((a) => a.name));
    expect(all.verdict?.aspects?.every((a) => typeof a.score === 'number')).toBe(true);
    const one = await judged(ids['trajectory-error-recovery']);
    // One aspect alone: one score on the template's scale, no aspect list.
    expect(one.verdict?.score).toBeGreaterThanOrEqual(1);
    expect(one.verdict?.score).toBeLessThanOrEqual(5);
    expect(one.verdict?.aspects ?? []).toHaveLength(0);
  });
});
