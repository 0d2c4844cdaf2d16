/**
 * Spares in the Worker: an evaluation making calls one after another takes the slot the gate granted it ahead, so
 * from its third call on a call goes out with no gate round trip before it, at the same count of exchanges; the
 * spare left at the end goes back in the exchange of the last release; a single call never holds one; and with a
 * window of two, spares never put more than two attempts in flight and a waiting tenant is passed at most once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GateLease } from '../../src/llm/provider-gate-hook.js';
import type { ProviderGateObject } from '../../src/provider-gate/worker-gate.js';
import { providerGateOf, providerGateStub } from '../../src/provider-gate/worker-gate.js';
import { drainAlarms, testEnv } from './helpers.js';

afterEach(drainAlarms);

/** The gate namespace with every RPC counted: its method when sent, `<method>:done` when answered. */
type Env = Omit<typeof testEnv, 'PROVIDER_GATE'> & { PROVIDER_GATE: DurableObjectNamespace<ProviderGateObject> };

function countedGates(env: Record<string, string>): { env: Env; calls: string[] } {
  const calls: string[] = [];
  const ns = testEnv.PROVIDER_GATE;
  const namespace = {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) =>
      new Proxy(ns.get(id), {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof prop !== 'string' || !['acquire', 'release', 'exchange'].includes(prop)) return value;
          return async (...args: unknown[]) => {
            calls.push(prop);
            // A stub's method is itself a stub: call it through the stub.
            const out = await (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]?.(
              ...args,
            );
            calls.push(`${prop}:done`);
            return out;
          };
        },
      }),
  } as unknown as DurableObjectNamespace<ProviderGateObject>;
  return { env: { ...testEnv, ...env, PROVIDER_GATE: namespace }, calls };
}

const attempt = (model: string, callId: string) => ({ provider: 'default', model, callId, attempt: 1 });
const sent = (calls: string[]) => calls.filter((c) => !c.endsWith(':done')).length;
/**
 * Every RPC sent so far has been answered, after the channel's end of turn: its exchange goes out from a timer of 0
 * queued before this one, so the timer here orders after it (no sleep).
 */
async function settled(calls: string[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await expect.poll(() => calls.filter((c) => c.endsWith(':done')).length).toBe(sent(calls));
}

/**
 * Four calls one after another, each asked for in the turn the one before it ended in (as the object's call
 * pool does). @returns per call the RPCs sent between its ask and its grant.
 */
async function inTurn(env: Env, model: string, calls: string[]): Promise<number[]> {
  const gate = providerGateOf(env, { tenant: 'tn_spares', evaluationId: `ev_${model}` });
  if (!gate) throw new Error('the provider gate is off in the test bindings');
  const between: number[] = [];
  let lease: GateLease | undefined;
  for (const id of ['c1', 'c2', 'c3', 'c4']) {
    // The call before is out and its exchange answered (a spare it topped up is here): a call takes L ≫ a round trip.
    await settled(calls);
    lease?.release('ok');
    const before = sent(calls);
    lease = await gate.acquire(attempt(model, id));
    between.push(sent(calls) - before);
  }
  lease?.release('ok');
  await settled(calls);
  return between;
}

describe("the provider gate's spares", () => {
  it('a call after the second goes out with no RPC before it, in no more exchanges; the last spare goes back in the last', async () => {
    const model = `mock-judge?seed=spares-turns-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '64', PROVIDER_GATE_SPARES: '2' });
    const between = await inTurn(env, model, calls);
    // c1 and c2 waited for an exchange; c3 and c4 took a spare.
    expect(between).toEqual([1, 1, 0, 0]);
    // c4 ended in the turn it went out in, so its spare's notice and its release went in one exchange: 4.
    expect(calls.filter((c) => !c.endsWith(':done'))).toEqual(Array(4).fill('exchange'));
    const stub = providerGateStub(testEnv, 'default', model);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    // Returned, not left to expire; and counted as granted only when used.
    expect(await stub.stats()).toMatchObject({ spares: 0, granted: 4, maxInFlight: 1 });
  });

  it('with PROVIDER_GATE_SPARES = "0" every call waits for its exchange, as before', async () => {
    const model = `mock-judge?seed=spares-off-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '64', PROVIDER_GATE_SPARES: '0' });
    expect(await inTurn(env, model, calls)).toEqual([1, 1, 1, 1]);
    expect(sent(calls)).toBe(5);
  });

  it('a single call holds no spare: one exchange to ask, one to give back', async () => {
    const model = `mock-judge?seed=spares-single-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '64' });
    const gate = providerGateOf(env, { tenant: 'tn_single', evaluationId: 'ev_single' });
    const lease = await gate?.acquire(attempt(model, 'only'));
    const stub = providerGateStub(testEnv, 'default', model);
    expect((await stub.stats()).spares).toBe(0);
    lease?.release('ok');
    await settled(calls);
    expect(sent(calls)).toBe(2);
  });

  it('with a window of two, attempts plus spares stay within it and a waiting tenant is passed at most once', async () => {
    const model = `mock-judge?seed=spares-bound-${Date.now()}`;
    const { env, calls } = countedGates({
      PROVIDER_CONCURRENCY_MAX: '2',
      PROVIDER_CONCURRENCY_START: '2',
      PROVIDER_GATE_SPARES: '2',
    });
    const stub = providerGateStub(testEnv, 'default', model);
    const held = async () => {
      const s = await stub.stats();
      return s.inFlight + s.spares;
    };
    const a = providerGateOf(env, { tenant: 'tn_a', evaluationId: 'ev_a' });
    const b = providerGateOf(env, { tenant: 'tn_b', evaluationId: 'ev_b' });
    if (!a || !b) throw new Error('the provider gate is off in the test bindings');
    const a1 = await a.acquire(attempt(model, 'a1'));
    await settled(calls);
    a1.release('ok');
    // a2's exchange grants it and a spare: the window is full.
    const a2 = await a.acquire(attempt(model, 'a2'));
    await settled(calls);
    expect(await stub.stats()).toMatchObject({ inFlight: 1, spares: 1 });
    let bGranted = false;
    const waiting = b.acquire(attempt(model, 'b1')).then((l) => {
      bGranted = true;
      return l;
    });
    await expect.poll(async () => (await stub.stats()).waiting).toBe(1);
    expect(await held()).toBe(2);
    // a3 takes the spare (the one pass), and a2's release in the same exchange goes to b.
    a2.release('ok');
    const a3 = await a.acquire(attempt(model, 'a3'));
    const b1 = await waiting;
    expect(bGranted).toBe(true);
    await settled(calls);
    expect(await stub.stats()).toMatchObject({ inFlight: 2, spares: 0, waiting: 0 });
    // a's next call finds no spare: it asks, with a3's slot given back in the same exchange.
    a3.release('ok');
    const before = sent(calls);
    const a4 = await a.acquire(attempt(model, 'a4'));
    expect(sent(calls) - before).toBe(1);
    b1.release('ok');
    a4.release('ok');
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    const stats = await stub.stats();
    expect(stats.maxInFlight).toBeLessThanOrEqual(2);
    expect(stats.spares).toBe(0);
  });
});
