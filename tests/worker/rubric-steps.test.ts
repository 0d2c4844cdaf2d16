/**
 * G-Eval's auto-CoT run by the API (src/evaluations/rubric-steps.ts), against the mock LLM: a stored rubric
 * version without steps, judged by a template that carries steps, gets them written by one `rubric-steps`
 * evaluation, stored on the version and applied in the steps slot of every later evaluation and batch, never
 * written (or paid) twice; a failed writing answers 502 and the next use claims again; `autoSteps: false` and
 * judges without a steps slot write none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { withRubricSteps } from '../../src/evaluations/rubric-steps.js';
import { ApiError } from '../../src/http/errors.js';
import { resolveJudge } from '../../src/methods/resolve-judge.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { resolveRubricRef } from '../../src/rubrics/resolve.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { createBatchId, resultsPage, waitForBatch } from './batches-support.js';
import { drainAlarms, mockPrompts, mockRequests, PAIRWISE, POINTWISE, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

const TASK = {
  kind: 'pointwise' as const,
  source: POINTWISE.kind === 'pointwise' ? POINTWISE.source : '',
  output: 'The council raised park funding.',
};

/** A pointwise rubric without steps (one criteria: one steps call). */
const RUBRIC = {
  name: 'Faithful summary',
  kind: 'pointwise' as const,
  criteria: 'The summary states only what the source says.',
  scale: { min: 1, max: 5 },
};

async function createdRubric(body: object = RUBRIC): Promise<RubricVersion> {
  const r = await postJson('/v1/rubrics', body);
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<RubricVersion>();
}

function judge(rubric: string, model: string, output = TASK.output, preset = 'rubric-judge') {
  return postJson('/v1/evaluations', {
    preset,
    config: { defaults: { model } },
    task: { ...TASK, output },
    rubric,
  });
}

async function judged(rubric: string, model: string, output?: string, preset?: string): Promise<Evaluation> {
  const r = await judge(rubric, model, output, preset);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<EvaluationAccepted>();
  await waitForEnd(id);
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

const version = async (v: RubricVersion): Promise<RubricVersion> =>
  (await api(`/v1/rubrics/${v.id}/versions/${v.version}`)).json<RubricVersion>();

/** The `rubric-steps` evaluations D1 holds for a rubric. */
async function stepsRuns(rubricId: string): Promise<number> {
  const row = await testEnv.DB.prepare(
    "SELECT count(*) AS n FROM evaluations WHERE method = 'rubric-steps' AND rubric_id = ?",
  )
    .bind(rubricId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("G-Eval's auto-CoT for a stored rubric version", () => {
  it('writes the steps once across two evaluations and a batch, stores them on the version and fills the steps slot', async () => {
    const v1 = await createdRubric();
    const seed = 'steps-once';
    const model = mockModel({ seed });
    const first = await judged(v1.id, model);
    expect(first.status).toBe('succeeded');
    const stored = await version(v1);
    expect(stored.steps).toMatchObject({ status: 'written', aspects: null });
    const steps = stored.steps?.evaluationSteps ?? '';
    expect(steps).toMatch(/^1\. /);
    // The evaluation records the content it judged by: the version's, with its steps.
    expect(first.rubric).toEqual({ id: v1.id, version: 1, hash: stored.steps?.hash });
    expect(stored.steps?.hash).not.toBe(v1.hash);
    // The steps' own evaluation is an ordinary one: stored, billed, readable.
    const run = await (await api(`/v1/evaluations/${stored.steps?.evaluationId ?? ''}`)).json<Evaluation>();
    expect(run).toMatchObject({ method: 'rubric-steps', status: 'succeeded', rubric: { id: v1.id, version: 1 } });
    expect(run.usage.calls).toBe(1);

    const second = await judged(`${v1.id}@1`, model, 'The council cut park funding.');
    expect(second.rubric).toEqual(first.rubric);
    const batch = await createBatchId({
      preset: 'rubric-judge',
      config: { defaults: { model } },
      rubric: `${v1.id}@1`,
      items: [0, 1].map((i) => ({ task: { ...TASK, output: `Reply ${i}.` } })),
    });
    expect((await waitForBatch(batch)).counts.succeeded).toBe(2);
    const { lines } = await resultsPage(batch);
    expect(lines.map((l) => l.rubric)).toEqual([first.rubric, first.rubric]);

    // One steps call, then one call per judged output: the steps were never written again.
    expect(await stepsRuns(v1.id)).toBe(1);
    expect(await mockRequests(seed)).toBe(1 + 1 + 1 + 2);
    const prompts = await mockPrompts(seed);
    expect(prompts[0]).toMatch(/Evaluation Steps:$/);
    // Every judging prompt carries the written steps in G-Eval's steps slot.
    for (const p of prompts.slice(1)) expect(p).toContain(steps);
  });

  it('a failed writing answers 502 with its error; the next use claims again and writes them', async () => {
    const v1 = await createdRubric();
    const r = await judge(v1.id, mockModel({ seed: 'steps-fail', permanent: 400 }));
    expect(r.status).toBe(502);
    const error = (await r.json<ErrorJson>()).error;
    expect(error.code).toBe('rubric_steps_failed');
    expect(error.message).toMatch(/^rubric: writing the evaluation steps of rb_\w+@1 .*evaluation ev_\w+\) failed: /);
    const failed = await version(v1);
    expect(failed.steps?.status).toBe('failed');

    const ok = await judged(v1.id, mockModel({ seed: 'steps-retry' }));
    expect(ok.status).toBe('succeeded');
    const written = await version(v1);
    expect(written.steps?.status).toBe('written');
    expect(written.steps?.evaluationId).not.toBe(failed.steps?.evaluationId);
    expect(await stepsRuns(v1.id)).toBe(2);
  });

  it('writes none for autoSteps: false, for an inline rubric, or for a judge without a steps slot', async () => {
    const seed = 'steps-none';
    const model = mockModel({ seed });
    const off = await createdRubric({ ...RUBRIC, autoSteps: false });
    expect((await judged(off.id, model)).rubric).toEqual({ id: off.id, version: 1, hash: off.hash });
    const { name: _name, ...inline } = RUBRIC;
    const r = await postJson('/v1/evaluations', {
      preset: 'rubric-judge',
      config: { defaults: { model } },
      task: TASK,
      rubric: inline,
    });
    expect(r.status).toBe(202);
    await waitForEnd((await r.json<EvaluationAccepted>()).id);
    const pairwise = await createdRubric({ name: 'Pairwise', kind: 'pairwise', criteria: 'Names the right city.' });
    const fastchat = await postJson('/v1/evaluations', {
      preset: 'fastchat-pair',
      config: { defaults: { model } },
      task: PAIRWISE,
      rubric: pairwise.id,
    });
    expect(fastchat.status).toBe(202);
    await waitForEnd((await fastchat.json<EvaluationAccepted>()).id);
    expect((await version(off)).steps).toBeNull();
    expect((await version(pairwise)).steps).toBeNull();
    expect((await mockPrompts(seed)).some((p) => /Evaluation Steps:$/.test(p))).toBe(false);
  });
});

describe('waiting for steps another request is writing', () => {
  it('past RUBRIC_STEPS_WAIT_SECONDS: 503 rubric_steps_pending with Retry-After, and nothing created', async () => {
    const v1 = await createdRubric();
    const resolved = await resolveRubricRef(testEnv, 'default', v1.id);
    const judge = resolveJudge('rubric-judge', { defaults: { model: mockModel({ seed: 'steps-pending' }) } });
    // A claimant that never creates its evaluation: the claim stays pending (its row does not exist yet).
    let claimed = '';
    const start = async (id: string) => {
      claimed = id;
      await Promise.resolve();
    };
    const env = { ...testEnv, RUBRIC_STEPS_WAIT_SECONDS: '1' };
    const started = Date.now();
    const error = await withRubricSteps(env, 'default', judge, resolved, start, () => `ev_pending${v1.id.slice(3)}`)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect([e.status, e.code, e.extra.headers?.['Retry-After']]).toEqual([503, 'rubric_steps_pending', '1']);
    expect(e.message).toMatch(new RegExp(`^rubric: the evaluation steps of ${v1.id}@1 are being written`));
    // It waited on the claim's object up to the setting, not longer.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(claimed).toMatch(/^ev_pending/);
    expect((await version(v1)).steps?.status).toBe('pending');
    expect(await stepsRuns(v1.id)).toBe(0);

    // A claimant whose create is refused (e.g. the tenant's quota) answers with that refusal and gives the claim up.
    const v2 = await createdRubric();
    const refused = new ApiError(429, 'quota_exceeded', 'monthly evaluations used up');
    const fresh = await resolveRubricRef(testEnv, 'default', v2.id);
    const fail = () => Promise.reject(refused);
    await expect(withRubricSteps(env, 'default', judge, fresh, fail, () => `ev_refused${v2.id.slice(3)}`)).rejects.toBe(
      refused,
    );
    expect((await version(v2)).steps).toBeNull();
  });
});
