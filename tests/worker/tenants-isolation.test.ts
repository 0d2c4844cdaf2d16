/**
 * Tenant isolation for every resource on this base: another tenant's evaluations (read, transcript,
 * events, cancel), meta-evaluations and usage read as absent (404 / empty), exactly as ids that do not
 * exist; the owner still reads them. Webhooks, triggers and chat completions: ./tenants-isolation-hooks.test.ts;
 * batches and evaluation listing / deletion: ./tenants-batches.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { drainAlarms, PAIRWISE, waitForEnd } from './helpers.js';
import { as, errorOf, keyed, submitOk, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

describe('tenant isolation', () => {
  it("a tenant cannot read, stream, cancel or meter another tenant's work", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const evaluation = await submitOk(a.key);
    const meta = await keyed(
      '/v1/meta-evaluations',
      as(a.key, { body: { preset: 'chateval-single', items: [{ id: 'x', task: PAIRWISE, human: 'A' }] } }),
    );
    expect(meta.status).toBe(202);
    const metaId = (await meta.json<{ id: string }>()).id;
    await waitForEnd(evaluation);

    const reads: [string, RequestInit][] = [
      [`/v1/evaluations/${evaluation}`, {}],
      [`/v1/evaluations/${evaluation}/transcript`, {}],
      [`/v1/evaluations/${evaluation}/task`, {}],
      [`/v1/evaluations/${evaluation}/events`, {}],
      [`/v1/evaluations/${evaluation}/cancel`, { method: 'POST' }],
      [`/v1/meta-evaluations/${metaId}`, {}],
    ];
    for (const [path, init] of reads) {
      const owner = await keyed(path, as(a.key, { method: init.method ?? 'GET' }));
      // The owner gets the resource (a cancel of an ended evaluation is 409, which still proves it was found).
      expect([200, 409], `${path} as owner`).toContain(owner.status);
      await owner.body?.cancel();
      const other = await keyed(path, as(b.key, { method: init.method ?? 'GET' }));
      expect(other.status, `${path} as another tenant`).toBe(404);
      const missing = await keyed(
        path
          .replace(evaluation, 'ev_00000000000000000000000000000000')
          .replace(metaId, 'me_00000000000000000000000000000000'),
        as(b.key, { method: init.method ?? 'GET' }),
      );
      // Indistinguishable from an id that does not exist.
      expect((await errorOf(other)).code).toBe((await errorOf(missing)).code);
    }
    const usageA = await (await keyed('/v1/usage', as(a.key))).json<{ totals: { calls: number } }>();
    const usageB = await (await keyed('/v1/usage', as(b.key))).json<{ totals: { calls: number } }>();
    expect(usageA.totals.calls).toBeGreaterThan(0);
    expect(usageB.totals.calls).toBe(0);
  });
});
