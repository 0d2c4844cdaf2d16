/**
 * `POST /v1/estimates` in workerd (the tokenizer included): evaluation and batch bodies, no LLM call and
 * no row, the same validation as `POST /v1/evaluations`, and the estimate against a real run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import type { EstimateResponse } from '../../src/estimates/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, appFetch, postJson } from './api-fetch.js';
import { drainAlarms, mockRequests, PAIRWISE, pollUntil, POINTWISE, testEnv, waitForEnd } from './helpers.js';
import { labelledRubric } from './certify-support.js';

afterEach(drainAlarms);

async function estimateOf(body: Record<string, unknown>): Promise<EstimateResponse> {
  const r = await postJson('/v1/estimates', body);
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json<EstimateResponse>();
}

async function rows(): Promise<number> {
  return (await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>())?.n ?? -1;
}

/** Runs the body as an evaluation through the pipeline and returns the calls it made. */
async function callsMade(body: Record<string, unknown>): Promise<number> {
  const r = await postJson('/v1/evaluations', body);
  const { id } = await r.json<EvaluationAccepted>();
  await waitForEnd(id);
  const ev = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
  expect(ev.status).toBe('succeeded');
  return ev.usage.calls;
}

describe('POST /v1/estimates', () => {
  it('estimates every tier: its price, its availability, rounds of calls times a round, batch by waves', async () => {
    // DEBATE: 3 rounds of dependent calls on the shortest path, 5 on the longest (one call each).
    const e = await estimateOf({ preset: 'debate-summeval', task: POINTWISE, tier: 'flex' });
    expect(e.waves).toEqual({ min: 3, max: 5 });
    const { standard, flex, batch } = e.tiers;
    expect(standard.costUsd).toEqual(e.costUsd);
    // gpt-4o-mini: the Batch API at half price; no flex price of its own, so flex is billed at the standard one.
    for (const level of ['min', 'expected', 'max'] as const) {
      expect(batch.costUsd[level]).toBeCloseTo(standard.costUsd[level] / 2, 12);
      expect(flex.costUsd[level]).toBeCloseTo(standard.costUsd[level], 12);
    }
    // Worst: 5 rounds, 5 attempts each to the timeout (LLM_TIMEOUT_MS 5 s here; flex 15 min).
    expect(standard).toMatchObject({ available: true, seconds: { typical: 50, worst: 5 * 5 * 5 } });
    expect(flex).toMatchObject({ available: true, seconds: { typical: 300, worst: 5 * 5 * 900 } });
    // The test deployment declares the Batch API: waves × the provider's turnaround, the 24 h window per wave at worst.
    expect(batch).toMatchObject({ available: true, seconds: { typical: 5 * 3600, worst: 5 * 86_400 } });
    expect(batch.unavailableReason).toBeUndefined();
    // A batch's items run side by side: the deepest item's waves, not their sum.
    const two = await estimateOf({
      preset: 'debate-summeval',
      items: [{ task: POINTWISE }, { task: { ...POINTWISE, output: 'Another one.' } }],
    });
    expect(two.waves).toEqual({ min: 3, max: 5 });
    expect(two.tiers.batch.seconds.typical).toBe(5 * 3600);
  });

  it('a tier a provider of the judge does not offer is a 400 naming the provider', async () => {
    const before = await rows();
    // The test deployment declares every tier; this one's provider offers no batches.
    const r = await appFetch({ LLM_SUPPORTS_BATCH: 'false' })('https://tribunal.test/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ preset: 'fastchat-pair', task: PAIRWISE, tier: 'batch' }),
    });
    expect(r.status).toBe(400);
    const body = await r.json<ErrorJson>();
    expect(body.error.code).toBe('tier_unsupported');
    expect(body.error.message).toContain('provider "default" does not offer the batch tier');
    expect(await rows()).toBe(before);
  });

  it('estimates an evaluation body without an LLM call or a row: SAMRE, 23 calls, gpt-4o-mini priced', async () => {
    const before = await rows();
    const seed = 'estimate-samre';
    const e = await estimateOf({
      preset: 'samre-mtbench',
      task: PAIRWISE,
      config: { defaults: { model: mockModel({ seed }) } },
    });
    expect(await rows()).toBe(before);
    expect(await mockRequests(seed)).toBe(0);
    expect(e).toMatchObject({
      method: 'samre',
      preset: 'samre-mtbench',
      evaluations: 1,
      sampled: null,
      adaptive: false,
      budget: null,
    });
    expect(e.calls).toMatchObject({ min: 23, expected: 23, max: 23 });
    expect(e.promptTokens.min).toBeGreaterThan(1000);
    // Every SAMRE call may answer with MetaGPT's max_token, 4096.
    expect(e.completionTokens.max).toBe(23 * 4096);

    const plain = await estimateOf({ preset: 'samre-mtbench', task: PAIRWISE });
    expect(plain.models).toHaveLength(1);
    expect(plain.models[0]).toMatchObject({
      model: 'gpt-4o-mini',
      provider: 'default',
      priced: true,
      tokenCount: 'o200k-proxy',
    });
    const cost = plain.costUsd;
    expect(cost.min).toBeGreaterThan(0);
    expect(cost.min).toBeLessThan(cost.expected);
    expect(cost.expected).toBeLessThan(cost.max);
  });

  it('equals the calls a fixed-length run makes and brackets an adaptive one (DEBATE)', async () => {
    const fixed = {
      preset: 'chateval-faireval',
      task: PAIRWISE,
      config: { defaults: { model: mockModel({ seed: 'estimate-fixed' }) } },
    };
    const e1 = await estimateOf(fixed);
    expect(e1.adaptive).toBe(false);
    expect(await callsMade(fixed)).toBe(e1.calls.max);

    const adaptive = {
      preset: 'debate-summeval',
      task: POINTWISE,
      config: { defaults: { model: mockModel({ seed: 'estimate-adaptive' }) } },
    };
    const e2 = await estimateOf(adaptive);
    expect(e2.adaptive).toBe(true);
    // Shortest: S1, the Commander's C1, a critique saying NO_ISSUE; longest: S1, C1, K1, S2, K2.
    expect(e2.calls).toMatchObject({ min: 3, max: 5 });
    const made = await callsMade(adaptive);
    expect(made).toBeGreaterThanOrEqual(e2.calls.min);
    expect(made).toBeLessThanOrEqual(e2.calls.max);
  });

  it('sums a batch body over its items and compares a budget per limit', async () => {
    const one = await estimateOf({ preset: 'chateval-single', task: PAIRWISE });
    const batch = await estimateOf({
      preset: 'chateval-single',
      items: [
        { task: PAIRWISE },
        { id: 'b', task: { ...PAIRWISE, question: 'And deflation?' } },
        { task: PAIRWISE, metadata: { k: 1 } },
      ],
      webhook: { url: 'https://example.com/hook' },
      budget: { maxCalls: 3, maxCostUsd: 1_000 },
    });
    expect(batch.evaluations).toBe(3);
    expect(batch.calls.max).toBe(3 * one.calls.max);
    expect(batch.budget).toEqual({ maxCostUsd: 'yes', maxCalls: one.calls.max === 1 ? 'yes' : 'no' });
  });

  it('validates like POST /v1/evaluations: task or items, known preset, strict query and body', async () => {
    const both = await postJson('/v1/estimates', {
      preset: 'chateval-single',
      task: PAIRWISE,
      items: [{ task: PAIRWISE }],
    });
    expect(both.status).toBe(400);
    expect((await both.json<ErrorJson>()).error.issues?.[0]?.path).toBe('items');

    const neither = await postJson('/v1/estimates', { preset: 'chateval-single' });
    expect(neither.status).toBe(400);
    expect((await neither.json<ErrorJson>()).error.issues?.[0]?.path).toBe('task');

    const kind = await postJson('/v1/estimates', {
      preset: 'debate-summeval',
      items: [{ task: POINTWISE }, { task: POINTWISE }, { task: PAIRWISE }],
    });
    expect(kind.status).toBe(400);

    const unknown = await postJson('/v1/estimates', { preset: 'no-such-preset', task: PAIRWISE });
    expect((await unknown.json<ErrorJson>()).error.code).toBe('unknown_preset');

    const query = await postJson('/v1/estimates?dry_run=true', { preset: 'chateval-single', task: PAIRWISE });
    expect(query.status).toBe(400);

    const extra = await postJson('/v1/estimates', { preset: 'chateval-single', task: PAIRWISE, surprise: 1 });
    expect((await extra.json<ErrorJson>()).error.issues?.[0]?.path).toBe('surprise');
  });
});

describe('POST /v1/estimates with certify', () => {
  it("counts the calibration run once: the rubric version's labelled items judged by the judge", async () => {
    const rubric = await (
      await postJson('/v1/rubrics', { name: 'cal', kind: 'pairwise', criteria: 'The correct answer is better.' })
    ).json<{ id: string }>();
    const items = Array.from({ length: 12 }, (_, i) => ({
      id: `c-${i}`,
      task: { ...PAIRWISE, question: `(${i}) What is the capital of France?` },
    }));
    const queue = await (
      await postJson('/v1/annotation-queues', { name: 'cal', rubric: rubric.id, items })
    ).json<{ id: string }>();
    for (const it of items)
      expect(
        (await postJson(`/v1/annotation-queues/${queue.id}/items/${it.id}/labels`, { label: { winner: 'A' } })).status,
      ).toBe(200);
    const body = { preset: 'fastchat-pair', task: PAIRWISE, rubric: rubric.id };
    const plain = await estimateOf(body);
    const certified = await estimateOf({ ...body, certify: { agreement: 0.8, risk: 0.05 } });
    // One evaluation plus the 12 labelled items, each judged as the evaluation is.
    expect(certified.calls.min).toBe(plain.calls.min * 13);
    expect(certified.costUsd.max).toBeGreaterThan(plain.costUsd.max * 12);
    expect(certified.evaluations).toBe(1);
    expect(certified.assumptions.join(' ')).toContain("rubric version's 12 labelled items once");
    // Without a stored rubric, as the evaluation would: a 400 naming rubric.
    const inline = await postJson('/v1/estimates', {
      preset: 'fastchat-pair',
      task: PAIRWISE,
      certify: { agreement: 0.8, risk: 0.05 },
    });
    expect(inline.status).toBe(400);
    expect((await inline.json<ErrorJson>()).error.message).toContain('rubric:');
  });

  it('counts nothing for a calibration the same judge and labels already ran', async () => {
    const rubric = await labelledRubric('estimate-reuse', 30);
    const judge = { preset: 'fastchat-pair', config: { defaults: { model: mockModel({ seed: 'estimate-reuse' }) } } };
    const body = { ...judge, task: PAIRWISE, rubric };
    const certify = { agreement: 0.8, risk: 0.05 };
    const plain = await estimateOf(body);
    expect((await estimateOf({ ...body, certify })).calls.min).toBe(plain.calls.min * 31);
    // The evaluation the estimate was for: it runs the calibration (503 until it has judged the 30 items).
    const created = await pollUntil(
      () => postJson('/v1/evaluations', { ...body, certify }),
      (r) => r.status !== 503,
    );
    expect(created.status, await created.clone().text()).toBe(202);
    const again = await estimateOf({ ...body, certify });
    expect(again.calls).toEqual(plain.calls);
    expect(again.costUsd).toEqual(plain.costUsd);
    expect(again.assumptions.join(' ')).toContain('stored already');
  });
});
