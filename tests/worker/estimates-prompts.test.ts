/**
 * `POST /v1/estimates` with `include: ["prompts"]`: the exact prompts an evaluation sends first, without an
 * LLM call. Each case is checked against a real run of the same body: the prompts the mock LLM then
 * received first are the ones the estimate showed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EvaluationAccepted } from '../../src/evaluations/schemas.js';
import type { EstimateResponse } from '../../src/estimates/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { postJson } from './api-fetch.js';
import { drainAlarms, mockPrompts, mockRequests, newTestId, POINTWISE, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

type Prompts = NonNullable<EstimateResponse['prompts']>;

/** The estimate of `body` with its prompts; no LLM call is made for it. */
async function promptsOf(body: Record<string, unknown>, seed: string): Promise<Prompts> {
  const r = await postJson('/v1/estimates', { ...body, include: ['prompts'] });
  expect(r.status, await r.clone().text()).toBe(200);
  const e = await r.json<EstimateResponse>();
  expect(await mockRequests(seed)).toBe(0);
  expect(e.prompts).toBeDefined();
  return e.prompts!;
}

/** Runs `body` as an evaluation; the prompts the mock received, in order (message contents joined by a blank line). */
async function promptsOfRun(body: Record<string, unknown>, seed: string): Promise<string[]> {
  const r = await postJson('/v1/evaluations', body);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<EvaluationAccepted>();
  expect((await waitForEnd(id)).status).toBe('succeeded');
  return mockPrompts(seed);
}

const joined = (call: Prompts['calls'][number]): string => call.messages.map((m) => m.content).join('\n\n');

describe('POST /v1/estimates with include: ["prompts"]', () => {
  it("renders a pointwise task's reference into the caller's own template, exactly as the run then sends it", async () => {
    const seed = newTestId('prompts-ref');
    const template = 'Expected: {{reference}}\nAnswer: {{output}}\nScore ({{min}}-{{max}}):';
    const body = {
      preset: 'geval-summeval',
      config: { samples: 1, templatesByAspect: { correctness: template }, defaults: { model: mockModel({ seed }) } },
      task: {
        kind: 'pointwise',
        source: 'What is the capital of Canada?',
        output: 'Toronto.',
        reference: 'Ottawa.',
        aspect: { name: 'correctness', description: 'Agrees with the expected answer.', scale: { min: 1, max: 5 } },
      },
    };
    const prompts = await promptsOf(body, seed);
    expect(prompts.evaluation).toBe(0);
    expect(prompts.calls).toHaveLength(1);
    const [call] = prompts.calls;
    expect(call).toMatchObject({ model: mockModel({ seed }), provider: expect.any(String) as unknown });
    expect(call!.messages.at(-1)?.content).toContain('Expected: Ottawa.\nAnswer: Toronto.\nScore (1-5):');
    // What the provider then received is what the estimate showed.
    expect(await promptsOfRun(body, seed)).toEqual([joined(call!)]);
  });

  it("shows a debate preset's first round, the calls made before any reply, and only those", async () => {
    const seed = newTestId('prompts-debate');
    const body = { preset: 'debate-summeval', config: { defaults: { model: mockModel({ seed }) } }, task: POINTWISE };
    const prompts = await promptsOf(body, seed);
    expect(prompts.calls.length).toBeGreaterThan(0);
    expect(new Set(prompts.calls.map((c) => c.stage)).size).toBe(1);
    const { output } = POINTWISE as { output: string };
    for (const c of prompts.calls) expect(joined(c)).toContain(output);
    const run = await promptsOfRun(body, seed);
    // The run's first calls are these (a wave's calls may reach the mock in any order); later ones carry replies.
    expect(run.length).toBeGreaterThan(prompts.calls.length);
    expect(run.slice(0, prompts.calls.length).sort()).toEqual(prompts.calls.map(joined).sort());
  });

  it('leaves prompts out unless asked, and names the field of an unknown part', async () => {
    const r = await postJson('/v1/estimates', { preset: 'geval-summeval', task: POINTWISE });
    expect(r.status).toBe(200);
    expect(await r.json<EstimateResponse>()).not.toHaveProperty('prompts');
    const bad = await postJson('/v1/estimates', { preset: 'geval-summeval', task: POINTWISE, include: ['prompt'] });
    expect(bad.status).toBe(400);
    const err = await bad.json<ErrorJson>();
    expect(err.error.code).toBe('invalid_request');
    expect(err.error.message).toContain('include.0');
  });
});
