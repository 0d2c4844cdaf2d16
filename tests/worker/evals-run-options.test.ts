/**
 * Tribunal's options on an Evals run, through the real `openai` SDK against the Worker and the mock LLM (every
 * answer checked against the served OpenAPI document): `service_tier` (the run's model calls at that tier, the
 * 400s naming the field, the price warning); the verdict cache of model graders, seen in the run's `cache` and
 * usage; the run's end as a signed webhook event, exactly once.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { webhookEventId } from '../../src/webhooks/outbox.js';
import { api } from './api-fetch.js';
import { mockRequests, pollUntil, testEnv } from './helpers.js';
import { failure, sdk } from './openai-support.js';
import { configureSink, deliveriesOf, hookEnv, received, sinkUrl } from './webhooks-helpers.js';

const client = sdk();
type Run = OpenAI.Evals.RunRetrieveResponse;

const ITEMS = [
  { question: 'Capital of France?', answer: 'Paris' },
  { question: 'Largest planet?', answer: 'Jupiter' },
];

/** An eval with one label model grader on `model`. */
async function labelEval(model: string, c: OpenAI = client): Promise<string> {
  const ev = await c.evals.create({
    data_source_config: {
      type: 'custom',
      item_schema: { type: 'object', properties: { question: { type: 'string' }, answer: { type: 'string' } } },
      include_sample_schema: true,
    },
    testing_criteria: [
      {
        type: 'label_model',
        name: 'verdict',
        model,
        input: [{ role: 'user', content: 'Q: {{item.question}} A: {{sample.output_text}} Ref: {{item.answer}}' }],
        labels: ['correct', 'incorrect'],
        passing_labels: ['correct'],
      },
    ],
  });
  return ev.id;
}

const jsonl = {
  type: 'jsonl' as const,
  source: { type: 'file_content' as const, content: ITEMS.map((item) => ({ item, sample: { output_text: 'Paris' } })) },
};

function ended(evalId: string, runId: string): Promise<Run> {
  return pollUntil(
    () => client.evals.runs.retrieve(runId, { eval_id: evalId }),
    (r) => ['completed', 'failed', 'canceled'].includes(r.status),
    30_000,
    50,
  );
}

/** The tiers of the usage rows of a run's calls. */
async function tiersOf(runId: string): Promise<string[]> {
  const { results } = await testEnv.DB.prepare(
    `SELECT u.tier FROM usage u JOIN evaluations e ON e.id = u.evaluation_id WHERE json_extract(e.metadata, '$.run_id') = ?`,
  )
    .bind(runId)
    .all<{ tier: string }>();
  return results.map((r) => r.tier);
}

describe('service_tier on a run', () => {
  it("runs the model graders' calls at flex, and warns when the model has no flex price", async () => {
    const prices = { LLM_PRICES: JSON.stringify({ 'mock-judge': { input: 2, output: 8 } }) };
    const priced = sdk({ overrides: prices });
    const evalId = await labelEval(mockModel({ seed: 'evals-run-flex' }), priced);
    const created = (await priced.evals.runs.create(evalId, {
      data_source: jsonl,
      service_tier: 'flex',
    } as never)) as Run & { service_tier: string; warnings?: { code: string; field: string }[] };
    expect(created.service_tier).toBe('flex');
    expect(created.warnings).toEqual([expect.objectContaining({ code: 'tier_price_missing', field: 'service_tier' })]);
    const run = await ended(evalId, created.id);
    expect(run.status).toBe('completed');
    expect(run).not.toHaveProperty('warnings');
    expect(await tiersOf(run.id)).toEqual(['flex', 'flex']);
  });

  it('defaults to standard, and refuses a tier the provider lacks or an unknown one, naming the field', async () => {
    const evalId = await labelEval(mockModel({ seed: 'evals-run-standard' }));
    const run = await ended(evalId, (await client.evals.runs.create(evalId, { data_source: jsonl })).id);
    expect(run).toMatchObject({ status: 'completed', service_tier: 'standard' });
    expect(await tiersOf(run.id)).toEqual(['standard', 'standard']);

    const noFlex = sdk({ overrides: { LLM_SUPPORTS_FLEX: 'false' } });
    const lacking = await failure(
      noFlex.evals.runs.create(evalId, { data_source: jsonl, service_tier: 'flex' } as never),
    );
    expect(lacking).toMatchObject({ status: 400, code: 'tier_unsupported', param: 'service_tier' });
    expect(lacking.message).toMatch(/LLM_SUPPORTS_FLEX/);
    const unknown = await failure(
      client.evals.runs.create(evalId, { data_source: jsonl, service_tier: 'turbo' } as never),
    );
    expect(unknown).toMatchObject({ status: 400, param: 'service_tier' });
  });
});

describe('a webhook when a run ends', () => {
  it('each run announces its end once, signed, to the endpoints subscribed to its type', async () => {
    const ep = await createEndpoint(hookEnv, 'default', {
      url: sinkUrl('eval-runs'),
      events: ['eval.run.succeeded', 'eval.run.canceled'],
    });
    await configureSink('eval-runs', [ep.secret]);
    const evalId = await labelEval(mockModel({ seed: 'evals-run-hook' }));
    const done = await ended(evalId, (await client.evals.runs.create(evalId, { data_source: jsonl })).id);
    expect(done.status).toBe('completed');
    await expect.poll(async () => (await received('eval-runs')).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const [got] = await received('eval-runs');
    expect(got).toMatchObject({ verified: true, webhookId: webhookEventId('eval.run.succeeded', done.id) });
    expect(JSON.parse(got?.body ?? '')).toMatchObject({
      type: 'eval.run.succeeded',
      data: { id: done.id, eval_id: evalId, status: 'completed', error: null },
    });
    // A repeat of the end (a worker resuming a run another had ended) writes no second event.
    await testEnv.DB.prepare("UPDATE eval_runs SET status = 'in_progress', lease_until = 1 WHERE id = ?")
      .bind(done.id)
      .run();
    expect((await ended(evalId, done.id)).status).toBe('completed');
    expect(await deliveriesOf(done.id)).toHaveLength(1);

    // A grader slow enough (3 s a call, 3 items) that the cancel always finds the run not ended: the cancel's
    // event is then asserted on every run, never skipped when the worker happened to finish first.
    const slowEval = await labelEval(mockModel({ seed: 'evals-run-hook-cancel', latency: 3_000 }));
    const queued = await client.evals.runs.create(slowEval, { data_source: jsonl });
    const cancelled = await client.evals.runs.cancel(queued.id, { eval_id: slowEval });
    expect(cancelled.status).toBe('canceled');
    await client.evals.runs.cancel(queued.id, { eval_id: slowEval });
    await expect.poll(async () => (await received('eval-runs')).length, { timeout: 20_000, interval: 50 }).toBe(2);
    expect(JSON.parse((await received('eval-runs'))[1]?.body ?? '')).toMatchObject({
      type: 'eval.run.canceled',
      data: { id: queued.id, status: 'canceled' },
    });
    expect(await deliveriesOf(queued.id)).toHaveLength(1);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });

  it('a run deleted before it ends, alone or with its eval, announces eval.run.canceled once', async () => {
    const ep = await createEndpoint(hookEnv, 'default', {
      url: sinkUrl('eval-runs-deleted'),
      events: ['eval.run.canceled'],
    });
    await configureSink('eval-runs-deleted', [ep.secret]);
    // Slow graders (3 s a call), so each delete finds its run not ended.
    const slowEval = await labelEval(mockModel({ seed: 'evals-run-hook-delete', latency: 3_000 }));
    const run = await client.evals.runs.create(slowEval, { data_source: jsonl });
    await client.evals.runs.delete(run.id, { eval_id: slowEval });
    // The retried delete: 404, and no second event.
    expect((await failure(client.evals.runs.delete(run.id, { eval_id: slowEval }))).status).toBe(404);
    const other = await client.evals.runs.create(slowEval, { data_source: jsonl });
    await client.evals.delete(slowEval);
    expect((await failure(client.evals.delete(slowEval))).status).toBe(404);
    await expect
      .poll(async () => (await received('eval-runs-deleted')).length, { timeout: 20_000, interval: 50 })
      .toBe(2);
    const bodies = (await received('eval-runs-deleted')).map(
      (r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string } },
    );
    const seen = bodies.map((b) => [b.type, b.data.id, b.data.status]);
    expect(seen.sort()).toEqual(
      [
        ['eval.run.canceled', run.id, 'canceled'],
        ['eval.run.canceled', other.id, 'canceled'],
      ].sort(),
    );
    expect(await deliveriesOf(run.id)).toHaveLength(1);
    expect(await deliveriesOf(other.id)).toHaveLength(1);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });
});

describe('the verdict cache for runs', () => {
  it("answers a model grader's repeated call from the cache, counted in the run's cache and not billed", async () => {
    const seed = 'evals-run-cache';
    const evalId = await labelEval(mockModel({ seed }));
    type Cached = Run & { cache: { mode: string; hits: number; saved_usd: number } };
    const run = async (extra: object = {}) =>
      (await ended(evalId, (await client.evals.runs.create(evalId, { data_source: jsonl, ...extra })).id)) as Cached;
    const cost = async (runId: string) =>
      (await testEnv.DB.prepare(
        `SELECT count(*) AS n, coalesce(sum(u.cost_usd), 0) AS usd FROM usage u JOIN evaluations e ON e.id = u.evaluation_id
           WHERE json_extract(e.metadata, '$.run_id') = ?`,
      )
        .bind(runId)
        .first<{ n: number; usd: number }>()) ?? { n: -1, usd: -1 };
    const first = await run();
    expect(first.cache).toEqual({ mode: 'use', hits: 0, saved_usd: 0 });
    const calls = await mockRequests(seed);
    const paid = await cost(first.id);
    expect(paid.n).toBe(2);

    const second = await run();
    expect(second.cache).toMatchObject({ mode: 'use', hits: 2 });
    expect(second.cache.saved_usd).toBeCloseTo(paid.usd, 12);
    expect(second.result_counts).toEqual(first.result_counts);
    expect(await mockRequests(seed)).toBe(calls);
    expect(await cost(second.id)).toEqual({ n: 0, usd: 0 });
    expect(second.per_model_usage).toEqual([expect.objectContaining({ invocation_count: 0, total_tokens: 0 })]);

    const off = await run({ cache: 'off' });
    expect(off.cache).toEqual({ mode: 'off', hits: 0, saved_usd: 0 });
    const refreshed = await run({ cache: 'refresh' });
    expect(refreshed.cache).toEqual({ mode: 'refresh', hits: 0, saved_usd: 0 });
    expect(await mockRequests(seed)).toBe(calls + 4);
    expect(
      (await failure(client.evals.runs.create(evalId, { data_source: jsonl, cache: 'sometimes' } as never))).param,
    ).toBe('cache');
  });
});
