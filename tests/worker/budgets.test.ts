/**
 * Budgets through the whole pipeline in workerd: `budget` on POST /v1/evaluations, checked by the
 * Durable Object before every call with the real tokenizer, the mock LLM over HTTP. A refused call is
 * never sent to the mock, a truncated SAMRE or DEBATE run succeeds with the flag, a run that cannot
 * conclude fails `budget_exceeded`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { loadTokenizer } from '../../src/budgets/prompt-tokens.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  mockRequests,
  PAIRWISE,
  POINTWISE,
  statusRow,
  testEnv,
  waitForEnd,
} from './helpers.js';

afterEach(drainAlarms);

/** Creates an evaluation through the API (the mock model carries the seed) and waits for its end. */
async function runWith(seed: string, body: Record<string, unknown>): Promise<Evaluation> {
  const config = { ...(body.config as Record<string, unknown> | undefined), defaults: { model: mockModel({ seed }) } };
  const r = await postJson('/v1/evaluations', { ...body, config });
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<EvaluationAccepted>();
  await waitForEnd(id);
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

describe('a budget on POST /v1/evaluations', () => {
  it('cuts SAMRE after two rounds at maxCalls 12: succeeded with budgetTruncated, 12 calls made and billed', async () => {
    const ev = await runWith('budget-samre', { preset: 'samre-mtbench', task: PAIRWISE, budget: { maxCalls: 12 } });
    expect(ev.status, JSON.stringify(ev.error)).toBe('succeeded');
    const v = ev.verdict;
    expect(v?.budgetTruncated).toBe(true);
    expect(v?.truncation?.refused.map((r) => r.callId)).toEqual(['round3/advocate/b', 'juror/0']);
    expect(v?.truncation?.cut).toEqual({ roundsRun: 2, roundsPlanned: 4, jurorsRun: 0, jurorsPlanned: 3 });
    expect(v?.calls).toBe(12);
    expect(ev.usage.calls).toBe(12);
    expect(await countRows('usage', ev.id)).toBe(12);
    expect(await countRows('transcripts', ev.id)).toBe(12);
    // The refused calls never reached the LLM.
    expect(await mockRequests('budget-samre')).toBe(12);
  });

  it("cuts DEBATE after its first score at maxCalls 1: the Commander's reply is refused, the first score stands", async () => {
    const ev = await runWith('budget-debate', { preset: 'debate-summeval', task: POINTWISE, budget: { maxCalls: 1 } });
    expect(ev.status, JSON.stringify(ev.error)).toBe('succeeded');
    expect(ev.verdict?.budgetTruncated).toBe(true);
    expect(ev.verdict?.truncation?.refused.map((r) => r.callId)).toEqual(['commander0']);
    expect(ev.verdict?.truncation?.cut).toMatchObject({ iterationsRun: 0, iterationsPlanned: 2, scorerTurns: 1 });
    expect(ev.verdict?.score).toBeTypeOf('number');
    expect(await mockRequests('budget-debate')).toBe(1);
  });

  it('fails a method that cannot stop early with budget_exceeded before the call that would pass the budget', async () => {
    // MORE's advocates run in parallel: 9 calls planned, 5 allowed. The API refuses such a budget at submit
    // (below); the object's own check still stops a run whose budget no longer fits (stored straight).
    const { id } = await insertJob({
      preset: 'more-mtbench',
      task: PAIRWISE,
      config: { budget: { maxCalls: 5 } },
      id: `ev_budget_more_${Date.now()}`,
      mock: { seed: 'budget-more' },
      tenant: 'default',
    });
    await testEnv.JOBS.send({ id });
    await waitForEnd(id);
    const ev = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
    expect(ev.status).toBe('failed');
    expect(ev.error?.code).toBe('budget_exceeded');
    expect(ev.error?.message).toContain('budget maxCalls 5');
    expect(ev.usage.calls).toBe(5);
    expect(await mockRequests('budget-more')).toBe(5);
    // Progress counts calls made: the stored refusal is not one.
    expect(ev.progress.callsDone).toBe(5);
    expect((await statusRow(ev.id))?.calls_done).toBe(5);
  });

  it('leaves a run the budget fits untouched: no flag, every planned call made', async () => {
    const ev = await runWith('budget-fits', {
      preset: 'debate-summeval',
      task: POINTWISE,
      budget: { maxCalls: 5, maxCostUsd: 5 },
    });
    expect(ev.status).toBe('succeeded');
    expect(ev.verdict?.budgetTruncated).toBeUndefined();
    expect(ev.verdict?.truncation).toBeUndefined();
  });

  it('refuses a budget given twice, an empty one, and a cost limit on a model without a price (400 naming the field)', async () => {
    const twice = await postJson('/v1/evaluations', {
      preset: 'debate-summeval',
      task: POINTWISE,
      budget: { maxCalls: 2 },
      config: { budget: { maxCalls: 3 } },
    });
    expect(twice.status).toBe(400);
    expect((await twice.json<ErrorJson>()).error.issues?.[0]?.path).toBe('budget');

    const empty = await postJson('/v1/evaluations', { preset: 'debate-summeval', task: POINTWISE, budget: {} });
    expect(empty.status).toBe(400);
    expect((await empty.json<ErrorJson>()).error.issues?.[0]?.path).toBe('budget');

    const unpriced = await postJson('/v1/evaluations', {
      preset: 'debate-summeval',
      task: POINTWISE,
      config: { defaults: { model: 'house-model-7b' } },
      budget: { maxCostUsd: 0.5 },
    });
    expect(unpriced.status).toBe(400);
    const e = (await unpriced.json<ErrorJson>()).error;
    expect(e.issues?.[0]?.path).toBe('budget.maxCostUsd');
    expect(e.message).toContain('"house-model-7b"');
  });
});

describe('a budget that cannot produce a verdict is refused at submit, naming the least it needs', () => {
  /** The 400 of POST /v1/evaluations with `body`; nothing is stored and the mock sees nothing. */
  async function refused(seed: string, body: Record<string, unknown>): Promise<ErrorJson['error']> {
    const before = await countAll();
    // The mock's model unless the body names one (a cost limit needs a priced model; nothing is sent anyway).
    const config = {
      defaults: { model: mockModel({ seed }) },
      ...(body.config as Record<string, unknown> | undefined),
    };
    const r = await postJson('/v1/evaluations', { ...body, config });
    expect(r.status, `${seed}: ${await r.clone().text()}`).toBe(400);
    expect(await countAll()).toBe(before);
    expect(await mockRequests(seed)).toBe(0);
    return (await r.json<ErrorJson>()).error;
  }
  const countAll = async () =>
    (await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>())?.n ?? 0;

  it('chateval-faireval with maxCalls 5: 400 naming budget.maxCalls and its least (its first turn must end)', async () => {
    const e = await refused('floor-chateval', { preset: 'chateval-faireval', task: PAIRWISE, budget: { maxCalls: 5 } });
    expect(e.code).toBe('invalid_request');
    expect(e.issues?.[0]?.path).toBe('budget.maxCalls');
    const least = Number(/the least it needs is (\d+)/.exec(e.message)?.[1]);
    expect(least).toBeGreaterThan(5);
    // The least named is enough: a run with exactly it reaches a verdict.
    const ev = await runWith('floor-chateval-least', {
      preset: 'chateval-faireval',
      task: PAIRWISE,
      budget: { maxCalls: least },
    });
    expect(ev.status, JSON.stringify(ev.error)).toBe('succeeded');
    // One less is refused.
    const below = await refused('floor-chateval-below', {
      preset: 'chateval-faireval',
      task: PAIRWISE,
      budget: { maxCalls: least - 1 },
    });
    expect(below.message).toContain(`the least it needs is ${least}`);
  });

  it('MORE (no early stop) with maxCalls 5 is refused naming its 9 calls; config.budget is named as such', async () => {
    const e = await refused('floor-more', {
      preset: 'more-mtbench',
      task: PAIRWISE,
      config: { budget: { maxCalls: 5 } },
    });
    expect(e.issues?.[0]?.path).toBe('config.budget.maxCalls');
    expect(e.message).toContain('the least it needs is 9');
  });

  it('a token or cost limit below any verdict is refused naming that limit', async () => {
    const tokens = await refused('floor-tokens', {
      preset: 'chateval-faireval',
      task: PAIRWISE,
      budget: { maxTokens: 50 },
    });
    expect(tokens.issues?.[0]?.path).toBe('budget.maxTokens');
    expect(Number(/the least it needs is (\d+)/.exec(tokens.message)?.[1])).toBeGreaterThan(50);
    const cost = await refused('floor-cost', {
      preset: 'chateval-faireval',
      task: PAIRWISE,
      config: { defaults: { model: 'gpt-4o-mini' } },
      budget: { maxCostUsd: 0.000001 },
    });
    expect(cost.issues?.[0]?.path).toBe('budget.maxCostUsd');
    expect(cost.message).toMatch(/the least it needs is \$0\.\d+/);
  });
});

describe('the tokenizer inside workerd', () => {
  it('counts cl100k_base tokens: "hello world" is 2', async () => {
    const t = await loadTokenizer();
    expect(t.encoding).toBe('cl100k_base');
    expect(t.count('hello world')).toBe(2);
    expect(t.count('The score of Assistant 1: 9\nThe score of Assistant 2: 1')).toBe(19);
  });
});
