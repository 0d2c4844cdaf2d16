/**
 * The isolate's lease of provider-gate slots (`PROVIDER_GATE_REUSE_MS`, src/provider-gate/lease-pool.ts): a
 * single-call evaluation whose tenant's attempt just ended well in this isolate takes that slot without asking
 * the gate; the slot goes back once idle, its successes with it; another tenant never gets it; and once the
 * shard's window is contended nothing is kept, so a waiting tenant's turn is not skipped.
 */
import { describe, expect, it } from 'vitest';
import { providerGateOf, providerGateStub } from '../../src/provider-gate/worker-gate.js';
import { countedGates } from './gate-counting.js';
import { testEnv } from './helpers.js';

const attempt = (model: string, callId: string) => ({ provider: 'default', model, callId, attempt: 1 });

/** The gate of evaluation `evaluationId` of `tenant` over `env`. */
function gateOf(env: Parameters<typeof providerGateOf>[0], tenant: string, evaluationId: string) {
  const gate = providerGateOf(env, { tenant, evaluationId });
  if (!gate) throw new Error('the provider gate is off in the test bindings');
  return gate;
}

describe("an isolate's lease of provider-gate slots", () => {
  it("a tenant's next single-call evaluation reuses the slot its last one gave back: 2 gate RPCs for 2 evaluations, not 4", async () => {
    const model = `mock-judge?seed=lease-reuse-${Date.now()}`;
    // One shard, as every evaluation of these tests then meets the same gate object.
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '8', PROVIDER_GATE_REUSE_MS: '1000' });
    const first = await gateOf(env, 'tn_lease', 'ev_lease_1').acquire(attempt(model, 'c1'));
    first.release('ok');
    const second = await gateOf(env, 'tn_lease', 'ev_lease_2').acquire(attempt(model, 'c1'));
    const stub = providerGateStub(testEnv, 'default', model);
    // The slot is the first evaluation's, still held at the gate: one grant for both attempts.
    expect(calls).toEqual(['exchange']);
    expect(await stub.stats()).toMatchObject({ granted: 1, inFlight: 1 });
    second.release('ok');
    // Kept until idle, then given back in one exchange with both successes.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(calls).toEqual(['exchange', 'exchange']);
  });

  it('is off by default: each evaluation asks and gives back (4 RPCs for 2)', async () => {
    const model = `mock-judge?seed=lease-off-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '8' });
    (await gateOf(env, 'tn_lease_off', 'ev_off_1').acquire(attempt(model, 'c1'))).release('ok');
    (await gateOf(env, 'tn_lease_off', 'ev_off_2').acquire(attempt(model, 'c1'))).release('ok');
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(calls).toEqual(['exchange', 'exchange', 'exchange', 'exchange']);
    expect((await stub.stats()).granted).toBe(2);
  });

  it("never hands a tenant's kept slot to another tenant, nor keeps a slot after a failure", async () => {
    const model = `mock-judge?seed=lease-tenants-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '8', PROVIDER_GATE_REUSE_MS: '1000' });
    (await gateOf(env, 'tn_lease_a', 'ev_a').acquire(attempt(model, 'c1'))).release('ok');
    const b = await gateOf(env, 'tn_lease_b', 'ev_b').acquire(attempt(model, 'c1'));
    const stub = providerGateStub(testEnv, 'default', model);
    expect((await stub.stats()).granted).toBe(2);
    b.release('failed');
    // The failed attempt's slot goes back at once; the other tenant's kept one once idle.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(calls.length).toBe(4);
  });

  it("keeps nothing once the shard's window is contended: a waiting tenant gets the slot before the holder's next attempt", async () => {
    const model = `mock-judge?seed=lease-contended-${Date.now()}`;
    // One slot.
    const { env } = countedGates({
      PROVIDER_CONCURRENCY_MAX: '1',
      PROVIDER_CONCURRENCY_START: '1',
      PROVIDER_GATE_REUSE_MS: '1000',
    });
    const holder = gateOf(env, 'tn_lease_holder', 'ev_holder');
    const held = await holder.acquire(attempt(model, 'c1'));
    const order: string[] = [];
    const waiter = gateOf(env, 'tn_lease_waiter', 'ev_waiter')
      .acquire(attempt(model, 'c1'))
      .then((l) => {
        order.push('waiter');
        return l;
      });
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).waiting).toBe(1);
    held.release('ok');
    // The holder's tenant asks again at once: without the contention rule it would take its kept slot here.
    const again = holder.acquire(attempt(model, 'c2')).then((l) => {
      order.push('holder');
      return l;
    });
    (await waiter).release('ok');
    (await again).release('ok');
    expect(order).toEqual(['waiter', 'holder']);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect((await stub.stats()).granted).toBe(3);
  });
});
