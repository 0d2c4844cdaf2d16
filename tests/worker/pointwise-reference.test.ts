/**
 * A pointwise task's expected output through the API: judged where the single judge's template has a
 * `{{reference}}` slot, a 400 naming `task.reference` where the judge has none (never silently ignored).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { postJson } from './api-fetch.js';
import { drainAlarms, newTestId, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

const task = {
  kind: 'pointwise',
  source: 'What is the capital of Canada?',
  output: 'Toronto.',
  reference: 'Ottawa.',
  aspect: { name: 'correctness', description: 'Agrees with the expected answer.', scale: { min: 1, max: 5 } },
};

describe('task.reference on a pointwise task', () => {
  it('is judged by a template with a {{reference}} slot', async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'geval-summeval',
      config: {
        samples: 1,
        templatesByAspect: { correctness: 'Expected: {{reference}}\nAnswer: {{output}}\nScore ({{min}}-{{max}}):' },
        defaults: { model: mockModel({ seed: newTestId('pw-ref') }) },
      },
      task,
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<{ id: string }>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });

  it("is a 400 naming the field where the preset's template has no slot for it", async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'geval-summeval',
      task: { ...task, aspect: { name: 'coherence', scale: { min: 1, max: 5 } } },
    });
    expect(r.status).toBe(400);
    const body = await r.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe('invalid_task');
    expect(body.error.message).toMatch(/^task\.reference: /);
  });
});
