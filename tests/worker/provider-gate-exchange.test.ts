/**
 * The gate's traffic from one evaluation: the asks and releases of a turn go in one `exchange`, so a debate's
 * 8 attempts cost 5 gate RPCs when its waves go in step, not 16; an ask the gate cannot grant at once waits its
 * turn; a release reaches the gate when no ask comes with it.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderGateObject } from '../../src/provider-gate/worker-gate.js';
import { providerGateOf, providerGateStub } from '../../src/provider-gate/worker-gate.js';
import { testEnv } from './helpers.js';

/** The deployment's gate namespace, with every RPC to a gate object counted by method. */
function countedGates(env: { PROVIDER_CONCURRENCY_MAX?: string; PROVIDER_CONCURRENCY_START?: string } = {}) {
  const calls: string[] = [];
  const ns = testEnv.PROVIDER_GATE;
  const namespace = {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = ns.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof prop !== 'string' || !['acquire', 'release', 'exchange'].includes(prop)) return value;
          return (...args: unknown[]) => {
            calls.push(prop);
            // A stub's method is itself a stub (`.apply` would be a remote property): call it through the stub.
            return (target as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]?.(...args);
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace<ProviderGateObject>;
  return { env: { ...testEnv, ...env, PROVIDER_GATE: namespace }, calls };
}

const attempt = (model: string, callId: string) => ({ provider: 'default', model, callId, attempt: 1 });

describe("the provider gate's exchange", () => {
  it('takes one RPC per wave of a debate and one for its last releases: 5 for 8 attempts (was an acquire and a release each, 16)', async () => {
    const model = `mock-judge?seed=exchange-waves-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '64' });
    const gate = providerGateOf(env, { tenant: 'tn_exchange', evaluationId: 'ev_waves' });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    // Four waves of two calls, each asked for in the turn the wave before it ended in: the object's call pool
    // launches a call in the turn of the result that made it ready.
    let leases = await Promise.all([gate.acquire(attempt(model, 'w1a')), gate.acquire(attempt(model, 'w1b'))]);
    for (let wave = 2; wave <= 4; wave++) {
      const [a, b] = leases;
      a.release('ok');
      b.release('ok');
      leases = await Promise.all([
        gate.acquire(attempt(model, `w${wave}a`)),
        gate.acquire(attempt(model, `w${wave}b`)),
      ]);
    }
    for (const l of leases) l.release('ok');
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect((await stub.stats()).granted).toBe(8);
    expect(calls).toEqual(['exchange', 'exchange', 'exchange', 'exchange', 'exchange']);
  });

  it('an ask the gate cannot grant at once waits its turn, and a release with no ask beside it ends the wait', async () => {
    const model = `mock-judge?seed=exchange-wait-${Date.now()}`;
    // One shard of two slots.
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2' });
    const first = providerGateOf(env, { tenant: 'tn_first', evaluationId: 'ev_first' });
    const second = providerGateOf(env, { tenant: 'tn_second', evaluationId: 'ev_second' });
    if (!first || !second) throw new Error('the provider gate is off in the test bindings');
    const [a, b] = await Promise.all([first.acquire(attempt(model, 'a')), first.acquire(attempt(model, 'b'))]);
    // The window is full: the second evaluation's ask is not granted by the exchange and waits in `acquire`.
    const waiting = second.acquire(attempt(model, 'c'));
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).waiting).toBe(1);
    // One slot comes back while the other is still out, and the first evaluation asks for nothing more.
    a.release('ok');
    const c = await waiting;
    expect((await stub.stats()).inFlight).toBe(2);
    b.release('ok');
    c.release('ok');
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(calls.filter((m) => m === 'acquire')).toEqual(['acquire']);
    expect((await stub.stats()).granted).toBe(3);
  });

  it("applies a turn's releases before its asks: a full window's two releases make room for the same turn's two asks", async () => {
    const model = `mock-judge?seed=exchange-full-${Date.now()}`;
    // One shard of two slots, both held by this evaluation.
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2' });
    const gate = providerGateOf(env, { tenant: 'tn_full', evaluationId: 'ev_full' });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    const [a, b] = await Promise.all([gate.acquire(attempt(model, 'a')), gate.acquire(attempt(model, 'b'))]);
    a.release('ok');
    b.release('ok');
    const next = await Promise.all([gate.acquire(attempt(model, 'c')), gate.acquire(attempt(model, 'd'))]);
    // Granted in the exchange that carried the releases: nothing waited in `acquire`.
    expect(calls).toEqual(['exchange', 'exchange']);
    for (const l of next) l.release('ok');
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect((await stub.stats()).granted).toBe(4);
  });

  it('falls back to one acquire and one release each when an exchange fails, so the slots are not held until they expire', async () => {
    const model = `mock-judge?seed=exchange-failed-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2' });
    // As a gate object on code without `exchange` answers during a deploy.
    const ns = env.PROVIDER_GATE;
    const failing = {
      idFromName: (name: string) => ns.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = ns.get(id);
        return new Proxy(stub, {
          get(target, prop) {
            if (prop === 'exchange')
              return () => {
                calls.push('exchange');
                return Promise.reject(new Error('exchange is not a method of this object'));
              };
            return Reflect.get(target, prop) as unknown;
          },
        });
      },
    } as unknown as typeof ns;
    const gate = providerGateOf({ ...env, PROVIDER_GATE: failing }, { tenant: 'tn_failed', evaluationId: 'ev_failed' });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    const [a, b] = await Promise.all([gate.acquire(attempt(model, 'a')), gate.acquire(attempt(model, 'b'))]);
    const stub = providerGateStub(testEnv, 'default', model);
    // Both asks went through the gate (granted, counted in its window), not around it.
    expect((await stub.stats()).granted).toBe(2);
    expect((await stub.stats()).inFlight).toBe(2);
    a.release('ok');
    b.release('ok');
    // Given back at once through `release`, not left to expire.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(calls.filter((m) => m === 'acquire')).toEqual(['acquire', 'acquire']);
    expect(calls.filter((m) => m === 'release')).toEqual(['release', 'release']);
  });

  it('gives back the slot of an ask withdrawn during an exchange the gate applied but whose reply was lost', async () => {
    const model = `mock-judge?seed=exchange-lost-${Date.now()}`;
    const { env } = countedGates({ PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2' });
    const ns = env.PROVIDER_GATE;
    const controller = new AbortController();
    // The gate grants the slot; the reply is lost after the holder's evaluation ended (its signal aborted).
    const lossy = {
      idFromName: (name: string) => ns.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = ns.get(id);
        return new Proxy(stub, {
          get(target, prop) {
            const value = Reflect.get(target, prop) as unknown;
            if (prop !== 'exchange') return value;
            return async (...args: unknown[]) => {
              await (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>).exchange?.(...args);
              controller.abort();
              throw new Error('the reply was lost');
            };
          },
        });
      },
    } as unknown as typeof ns;
    const gate = providerGateOf({ ...env, PROVIDER_GATE: lossy }, { tenant: 'tn_lost', evaluationId: 'ev_lost' });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    const stub = providerGateStub(testEnv, 'default', model);
    // Answered at once as not granted: its holder sends nothing.
    await gate.acquire(attempt(model, 'a'), controller.signal);
    expect(controller.signal.aborted).toBe(true);
    expect((await stub.stats()).granted).toBe(1);
    // The slot the gate granted goes back at once, not when its lease expires (5 min).
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
  });
});
