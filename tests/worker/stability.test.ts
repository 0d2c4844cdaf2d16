/**
 * `repeat: N` through the API (method `repeat`, src/engine/methods/repeat/): every run is a separate LLM call
 * the mock counts, never answered by the verdict cache; `stability` per evaluation, per batch item and over
 * a batch; a redelivered start repeats no call; a provider error is an error, never a verdict.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { api, postJson } from './api-fetch.js';
import { countRows, drainAlarms, mockRequests, newTestId, testEnv, waitForEnd } from './helpers.js';
import { createBatchId, getBatch, items, resultsPage, singleCallJudge, waitForBatch } from './batches-support.js';
import type { Evaluation } from '../../src/evaluations/schemas.js';

afterEach(drainAlarms);

const task = (tag: string) => ({
  kind: 'pairwise' as const,
  question: `Which is the capital of France? (${tag})`,
  answerA: 'Paris.',
  answerB: 'Lyon.',
});

async function evaluate(body: Record<string, unknown>): Promise<Evaluation> {
  const r = await postJson('/v1/evaluations', body);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<{ id: string }>();
  await waitForEnd(id);
  const view = await api(`/v1/evaluations/${id}`);
  return view.json<Evaluation>();
}

describe('repeat on an evaluation', () => {
  it('makes N separate calls, reports stability, and the cache never answers a repeat', async () => {
    const seed = newTestId('rep_ev');
    const body = { ...singleCallJudge(seed, { vary: true }), task: task(seed), repeat: 4 };
    const first = await evaluate(body);
    expect(first.status).toBe('succeeded');
    expect(first.method).toBe('repeat');
    expect(first.preset).toBe('fastchat-pair');
    expect(await mockRequests(seed)).toBe(4);
    expect(first.usage.calls).toBe(4);
    const runs = (first.verdict?.details.repeat as { runs: { winner?: string }[] }).runs;
    expect(runs).toHaveLength(4);
    expect(first.stability).toMatchObject({ repeats: 4 });
    const winners = runs.map((r) => r.winner);
    const differing = winners.flatMap((w, i) => winners.slice(i + 1).filter((x) => x !== w)).length;
    expect(first.stability?.flipRate).toBeCloseTo(differing / 6);
    expect(first.stability?.unstable).toBe(differing > 0);
    expect(first.cache.mode).toBe('bypass');

    // The same request again: four new calls, not a cache hit.
    const second = await evaluate(body);
    expect(second.cache.hit).toBe(false);
    expect(await mockRequests(seed)).toBe(8);

    const refused = await postJson('/v1/evaluations', { ...body, cache: 'use' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('cache');
    for (const n of [1, 11]) {
      const bad = await postJson('/v1/evaluations', { ...body, repeat: n });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain('repeat');
    }
  });

  it('a start delivered again repeats no call', async () => {
    const seed = newTestId('rep_redeliver');
    const r = await postJson('/v1/evaluations', { ...singleCallJudge(seed), task: task(seed), repeat: 3 });
    const { id } = await r.json<{ id: string }>();
    await waitForEnd(id);
    const batch = createMessageBatch('tribunal-jobs', [
      { id: 'again', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    await getQueueResult(batch, ctx);
    expect(await mockRequests(seed)).toBe(3);
    expect(await countRows('usage', id)).toBe(3);
    expect(await countRows('verdicts', id)).toBe(1);
  });

  it('a provider error fails the evaluation: an error, never a verdict or a stability', async () => {
    const seed = newTestId('rep_fail');
    const view = await evaluate({ ...singleCallJudge(seed, { permanent: 400 }), task: task(seed), repeat: 2 });
    expect(view.status).toBe('failed');
    expect(view.error).not.toBeNull();
    expect(view.verdict).toBeNull();
    expect(view.stability).toBeNull();
  });
});

describe('repeat on a batch', () => {
  it('reports each item’s stability and the batch’s, failed items counted as errors', async () => {
    const seed = newTestId('rep_batch');
    const id = await createBatchId({ ...singleCallJudge(seed, { vary: true }), items: items(3), repeat: 3 });
    await waitForBatch(id, (b) => b.status === 'completed');
    expect(await mockRequests(seed)).toBe(9);
    const lines = (await resultsPage(id)).lines;
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l.stability).toMatchObject({ repeats: 3 });
    const b = await getBatch(id);
    const flips = lines.map((l) => l.stability?.flipRate ?? 0);
    expect(b.stability).toMatchObject({
      items: 3,
      errors: 0,
      unstable: lines.filter((l) => l.stability?.unstable).length,
    });
    expect(b.stability?.flipRate).toBeCloseTo(flips.reduce((s, x) => s + x, 0) / 3);

    const failing = newTestId('rep_batch_fail');
    const bad = await createBatchId({ ...singleCallJudge(failing, { permanent: 400 }), items: items(2), repeat: 2 });
    await waitForBatch(bad, (x) => x.status === 'completed');
    expect((await getBatch(bad)).stability).toEqual({
      flipRate: null,
      scoreStdDev: null,
      items: 0,
      unstable: 0,
      errors: 2,
    });
    // A batch without repeat has no stability.
    const plain = await createBatchId({ ...singleCallJudge(newTestId('rep_plain')), items: items(1) });
    await waitForBatch(plain, (x) => x.status === 'completed');
    expect((await getBatch(plain)).stability).toBeNull();
  });
});
