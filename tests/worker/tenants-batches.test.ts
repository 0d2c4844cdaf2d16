/**
 * Tenants and batches: another tenant's batch (and the listing / deletion of evaluations) reads as absent
 * and cannot be cancelled; a batch's items count against the monthly evaluation cap all at once (429
 * `quota_exceeded`, nothing stored) and each record the key that submitted it; the batch window never
 * starts items past the tenant's running cap, and items not handed over yet never take a slot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runningCount, slotCounts } from '../../src/evaluations/admission.js';
import type { Bindings } from '../../src/config/bindings.js';
import { drainAlarms, testEnv } from './helpers.js';
import { items, singleCallJudge } from './batches-support.js';
import { as, errorOf, keyed, submitOk, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

async function postBatchAs(key: string, body: unknown, overrides: Partial<Bindings> = {}): Promise<Response> {
  return keyed('/v1/batches', as(key, { body }), overrides);
}

async function batchOf(
  key: string,
  n: number,
  seed: string,
  mock = {},
  overrides: Partial<Bindings> = {},
): Promise<string> {
  const r = await postBatchAs(key, { ...singleCallJudge(seed, mock), items: items(n) }, overrides);
  expect(r.status, await r.clone().text()).toBe(202);
  return (await r.json<{ id: string }>()).id;
}

async function ended(batch: string): Promise<boolean> {
  const row = await testEnv.DB.prepare('SELECT completed_at FROM batches WHERE id = ?')
    .bind(batch)
    .first<{ completed_at: number | null }>();
  return row?.completed_at !== null && row?.completed_at !== undefined;
}

describe('tenant isolation: batches and evaluation listing', () => {
  it('another tenant cannot read, list, page the results of or cancel a batch, nor list or delete its evaluations', async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const batch = await batchOf(a.key, 2, `iso-batch-${Date.now()}`);
    const evaluation = await submitOk(a.key);
    for (const [method, path] of [
      ['GET', `/v1/batches/${batch}`],
      ['GET', `/v1/batches/${batch}/results`],
      ['POST', `/v1/batches/${batch}/cancel`],
      ['DELETE', `/v1/evaluations/${evaluation}`],
    ] as const) {
      const theirs = await keyed(path, as(b.key, { method }));
      expect(theirs.status, `${method} ${path} as another tenant`).toBe(404);
      const absent = await keyed(
        path
          .replace(batch, 'ba_00000000000000000000000000000000')
          .replace(evaluation, 'ev_00000000000000000000000000000000'),
        as(b.key, { method }),
      );
      expect((await errorOf(theirs)).code).toBe((await errorOf(absent)).code);
    }
    expect(await (await keyed('/v1/batches', as(b.key))).text()).not.toContain(batch);
    expect(await (await keyed('/v1/evaluations', as(b.key))).text()).not.toContain(evaluation);
    expect(await (await keyed(`/v1/evaluations?batch=${batch}`, as(b.key))).json()).toMatchObject({ data: [] });
    // The owner still has all of it.
    expect((await keyed(`/v1/batches/${batch}`, as(a.key))).status).toBe(200);
    expect(await (await keyed('/v1/evaluations', as(a.key))).text()).toContain(evaluation);
    expect((await keyed(`/v1/evaluations/${evaluation}`, as(a.key))).status).toBe(200);
  });
});

describe('quotas, key ids and the running cap on batches', () => {
  it('a batch that does not fit under the monthly evaluation cap is 429 quota_exceeded and stores nothing; one that fits records its key on every item', async () => {
    const { tenant, key, keyId } = await tenantWithKey({ monthlyEvaluationCap: 3 });
    const refused = await postBatchAs(key, { ...singleCallJudge(`quota-batch-${Date.now()}`), items: items(4) });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toContain('0 created this month, 4 more asked for');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(
      await testEnv.DB.prepare('SELECT count(*) AS n FROM batches WHERE tenant = ?')
        .bind(tenant)
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
    const batch = await batchOf(key, 3, `quota-batch-ok-${Date.now()}`);
    const keys = await testEnv.DB.prepare('SELECT DISTINCT key_id FROM evaluations WHERE batch_id = ?')
      .bind(batch)
      .all<{ key_id: string | null }>();
    expect(keys.results).toEqual([{ key_id: keyId }]);
    expect((await postBatchAs(key, { ...singleCallJudge('quota-batch-more'), items: items(1) })).status).toBe(429);
  });

  it("a batch runs at most the tenant's running cap at once, and its items not handed over never take or wait for a slot", async () => {
    const { tenant, key } = await tenantWithKey({ maxRunning: 2 });
    // A window of 3 items under a cap of 2: handed-over items wait for a slot (all 3 until the queue delivers
    // them); the other 5 wait for the window and are not counted (nor started) as waiting for a slot.
    const batch = await batchOf(key, 8, `cap-batch-${Date.now()}`, { latency: 150 }, { BATCH_CONCURRENCY: '3' });
    let most = { running: 0, waiting: 0 };
    for (;;) {
      const now = await slotCounts(testEnv.DB, tenant);
      most = { running: Math.max(most.running, now.running), waiting: Math.max(most.waiting, now.waiting) };
      if (await ended(batch)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(most.running).toBe(2);
    expect(most.waiting).toBeGreaterThan(0);
    expect(most.waiting).toBeLessThanOrEqual(3);
    expect(await runningCount(testEnv.DB, tenant)).toBe(0);
    const counts = await testEnv.DB.prepare(
      `SELECT status, count(*) AS n FROM evaluations WHERE batch_id = ? GROUP BY status`,
    )
      .bind(batch)
      .all<{ status: string; n: number }>();
    expect(counts.results).toEqual([{ status: 'succeeded', n: 8 }]);
  });
});
