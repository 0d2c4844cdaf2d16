/**
 * The gate's traffic from one evaluation: the asks and releases of a turn go in one `exchange`, so a debate's
 * 8 attempts cost 5 gate RPCs when its waves go in step, not 16; an ask the gate cannot grant at once waits its
 * turn; a release reaches the gate when no ask comes with it.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderGateEnv, ProviderGateObject } from '../../src/provider-gate/rpc.js';
import { providerGateOf, providerGateStub } from '../../src/provider-gate/worker-gate.js';
import { testEnv } from './helpers.js';
import { capturingLogLines } from './log-capture.js';

/**
 * The deployment's gate namespace, with every RPC to a gate object counted by method; `hold`: the calls of that
 * method wait (`held` resolves at the first) until `letGo()`, then go to the object, their answers kept in `answers`.
 */
function countedGates(
  env: { PROVIDER_CONCURRENCY_MAX?: string; PROVIDER_CONCURRENCY_START?: string } = {},
  hold?: 'exchange' | 'withdraw',
) {
  const calls: string[] = [];
  const answers: unknown[] = [];
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const ns = testEnv.PROVIDER_GATE;
  const namespace = {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = ns.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof prop !== 'string' || !['acquire', 'release', 'exchange', 'withdraw'].includes(prop)) return value;
          // A stub's method is itself a stub (`.apply` would be a remote property): call it through the stub.
          const call = (args: unknown[]) =>
            (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]?.(...args);
          return async (...args: unknown[]) => {
            calls.push(prop);
            if (prop !== hold) return call(args);
            reached();
            await released;
            const answer = await call(args);
            answers.push(answer);
            return answer;
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace<ProviderGateObject>;
  return { env: { ...testEnv, ...env, PROVIDER_GATE: namespace }, calls, letGo, held, answers };
}

/**
 * `ns` whose gate objects apply the calls of `methods` but whose replies are lost: the caller gets an error
 * (after `then`, run once the object answered).
 */
function repliesLost<T extends ProviderGateObject>(
  ns: DurableObjectNamespace<T>,
  methods: readonly string[],
  then: () => void = () => undefined,
): DurableObjectNamespace<T> {
  return {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = ns.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof prop !== 'string' || !methods.includes(prop)) return value;
          return async (...args: unknown[]) => {
            await (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]?.(...args);
            then();
            throw new Error('the reply was lost');
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace<T>;
}

/** The next turn of the event loop: what a settled RPC's answer led to in its own turn has happened. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Whether `p` settled by the end of this turn (its holder was answered without waiting for the gate). */
async function settledNow(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await nextTurn();
  return settled;
}

const attempt = (model: string, callId: string) => ({ provider: 'default', model, callId, attempt: 1 });

/** The gate of evaluation `evaluationId` of `tenant` through `env`'s namespace (on in the test bindings). */
function gateOf<T extends ProviderGateObject>(env: ProviderGateEnv<T>, tenant: string, evaluationId: string) {
  const gate = providerGateOf(env, { tenant, evaluationId });
  if (!gate) throw new Error('the provider gate is off in the test bindings');
  return gate;
}

/**
 * An ask of evaluation `ev_<key>` (tenant `tn_<key>`) through {@link countedGates} with `hold`'s calls held, in a
 * window of `slots`, which its holder can withdraw (`controller`); with `heldBy`, another tenant takes one slot
 * first (lease `hold/<heldBy>`).
 */
async function withdrawableAsk(key: string, hold: 'exchange' | 'withdraw', slots: number, heldBy?: string) {
  const model = `mock-judge?seed=exchange-${key}-${Date.now()}`;
  const counted = countedGates(
    { PROVIDER_CONCURRENCY_MAX: String(slots), PROVIDER_CONCURRENCY_START: String(slots) },
    hold,
  );
  const stub = providerGateStub(testEnv, 'default', model);
  if (heldBy !== undefined) await stub.acquire(`hold/${heldBy}`, 'tn_other', { start: 1, max: 1 });
  const gate = gateOf(counted.env, `tn_${key}`, `ev_${key}`);
  const controller = new AbortController();
  const asked = gate.acquire(attempt(model, 'x'), controller.signal);
  return { ...counted, stub, controller, asked };
}

describe("the provider gate's exchange", () => {
  it('takes one RPC per wave of a debate and one for its last releases: 5 for 8 attempts (was an acquire and a release each, 16)', async () => {
    const model = `mock-judge?seed=exchange-waves-${Date.now()}`;
    const { env, calls } = countedGates({ PROVIDER_CONCURRENCY_MAX: '64' });
    const gate = gateOf(env, 'tn_exchange', 'ev_waves');
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
    const first = gateOf(env, 'tn_first', 'ev_first');
    const second = gateOf(env, 'tn_second', 'ev_second');
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
    const gate = gateOf(env, 'tn_full', 'ev_full');
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
    const gate = gateOf({ ...env, PROVIDER_GATE: failing }, 'tn_failed', 'ev_failed');
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
    const lossy = repliesLost(ns, ['exchange'], () => {
      controller.abort();
    });
    const gate = gateOf({ ...env, PROVIDER_GATE: lossy }, 'tn_lost', 'ev_lost');
    const stub = providerGateStub(testEnv, 'default', model);
    // Answered at once as not granted: its holder sends nothing.
    await gate.acquire(attempt(model, 'a'), controller.signal);
    expect(controller.signal.aborted).toBe(true);
    expect((await stub.stats()).granted).toBe(1);
    // The slot the gate granted goes back at once, not when its lease expires (5 min).
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
  });

  it('a grant that crosses a withdraw in flight goes back at once, and the withdraw finds nothing waiting', async () => {
    // One slot, held by another tenant; this evaluation's withdraw reaches the object only when the test says.
    const { calls, letGo, held, answers, stub, controller, asked } = await withdrawableAsk(
      'crossed',
      'withdraw',
      1,
      'crossed',
    );
    await expect.poll(async () => (await stub.stats()).waiting).toBe(1);
    // Its evaluation ends: answered at once, without a slot; the withdraw is on its way.
    controller.abort();
    expect(await settledNow(asked)).toBe(true);
    await held;
    // The slot frees before the withdraw arrives: the gate grants the ask, and the grant crosses the withdraw.
    await stub.release('hold/crossed', 'ok');
    expect((await stub.stats()).granted).toBe(2);
    // Given back unused at once (not when its lease expires, 5 min), and counted once.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    letGo();
    await expect.poll(() => answers).toEqual([0]);
    expect(await stub.stats()).toMatchObject({ inFlight: 0, waiting: 0, granted: 2 });
    expect(calls).toEqual(['exchange', 'acquire', 'withdraw', 'exchange']);
  });

  it('an ask withdrawn while its exchange is out is answered at once; the grant the exchange brings back goes back', async () => {
    const { calls, letGo, held, stub, controller, asked } = await withdrawableAsk('open-grant', 'exchange', 2);
    await held;
    controller.abort();
    expect(await settledNow(asked)).toBe(true);
    letGo();
    await expect.poll(() => calls).toEqual(['exchange', 'exchange']);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect(await stub.stats()).toMatchObject({ waiting: 0, granted: 1 });
  });

  it('an ask withdrawn while its exchange is out goes no further when the exchange could not grant it: no wait in acquire', async () => {
    const { calls, letGo, held, answers, stub, controller, asked } = await withdrawableAsk(
      'open-null',
      'exchange',
      1,
      'open',
    );
    await held;
    controller.abort();
    expect(await settledNow(asked)).toBe(true);
    letGo();
    await expect.poll(() => answers).toEqual([[null]]);
    // The turn after the answer: an ask still alive would have gone to `acquire` in it.
    await nextTurn();
    expect(calls).toEqual(['exchange']);
    expect(await stub.stats()).toMatchObject({ inFlight: 1, waiting: 0, granted: 1 });
    await stub.release('hold/open', 'ok');
    // The slot freed goes to nobody: no ask of the withdrawn attempt was left waiting for it.
    expect(await stub.stats()).toMatchObject({ inFlight: 0, waiting: 0, granted: 1 });
  });
  it('a gate that stays down costs each attempt one fresh stub, two warnings and an exchange, an acquire and a release', async () => {
    const model = `mock-judge?seed=exchange-down-${Date.now()}`;
    const calls: string[] = [];
    let connects = 0;
    // Every RPC on every stub fails, as while the object cannot be reached.
    const down = {
      idFromName: (name: string) => testEnv.PROVIDER_GATE.idFromName(name),
      get: () => {
        connects += 1;
        return new Proxy(
          {},
          {
            get: (_t, prop) => () => {
              calls.push(String(prop));
              return Promise.reject(new Error('Network connection lost.'));
            },
          },
        );
      },
    } as unknown as typeof testEnv.PROVIDER_GATE;
    const env = { ...testEnv, PROVIDER_GATE: down };
    const gate = gateOf(env, 'tn_down', 'ev_down');
    const { lines } = await capturingLogLines(async () => {
      await gate.acquire(attempt(model, 'a'));
      await gate.acquire(attempt(model, 'b'));
    });
    const warnings = lines.filter((l) => l.level === 'warn' && l.evaluationId === 'ev_down').map((l) => l.event);
    // Per attempt: the exchange fails (a fresh stub, one warning), the re-ask through it fails (let through,
    // logged), and a withdraw and a release go for an ask still waiting there or a slot a lost reply granted; no
    // third ask, no third stub.
    expect(warnings).toEqual(['gate.exchange_failed', 'gate.unavailable', 'gate.exchange_failed', 'gate.unavailable']);
    expect(calls).toEqual(['exchange', 'acquire', 'withdraw', 'release', 'exchange', 'acquire', 'withdraw', 'release']);
    expect(connects).toBe(3);
  });

  it('gives back a slot granted by asks whose replies were all lost: the attempt goes out without it, not holding it 5 min', async () => {
    const model = `mock-judge?seed=exchange-lost-twice-${Date.now()}`;
    // The gate applies the exchange and the re-ask (the same lease: an ask is idempotent); both replies are lost.
    const lossy = repliesLost(testEnv.PROVIDER_GATE, ['exchange', 'acquire']);
    const env = { ...testEnv, PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2', PROVIDER_GATE: lossy };
    const gate = gateOf(env, 'tn_lost2', 'ev_lost2');
    const stub = providerGateStub(testEnv, 'default', model);
    await capturingLogLines(() => gate.acquire(attempt(model, 'a')));
    expect((await stub.stats()).granted).toBe(1);
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
  });

  it('withdraws an ask still waiting at the gate when its attempt goes out without a slot: no later grant holds one', async () => {
    const model = `mock-judge?seed=exchange-let-through-${Date.now()}`;
    const limits = { PROVIDER_CONCURRENCY_MAX: '2', PROVIDER_CONCURRENCY_START: '2' };
    // Another evaluation holds the window's two slots.
    const other = providerGateOf({ ...testEnv, ...limits }, { tenant: 'tn_full', evaluationId: 'ev_full' });
    // This one's `acquire` reaches the gate, which queues it, but the connection fails before any answer.
    const ns = testEnv.PROVIDER_GATE;
    const lost = {
      idFromName: (name: string) => ns.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = ns.get(id);
        return new Proxy(stub, {
          get(target, prop) {
            const value = Reflect.get(target, prop) as unknown;
            if (prop !== 'acquire') return value;
            return (...args: unknown[]) => {
              void (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>).acquire?.(...args);
              return Promise.reject(new Error('Network connection lost.'));
            };
          },
        });
      },
    } as unknown as typeof testEnv.PROVIDER_GATE;
    const gate = providerGateOf(
      { ...testEnv, ...limits, PROVIDER_GATE: lost },
      { tenant: 'tn_lt', evaluationId: 'ev_lt' },
    );
    if (!other || !gate) throw new Error('the provider gate is off in the test bindings');
    const stub = providerGateStub(testEnv, 'default', model);
    const held = await Promise.all([other.acquire(attempt(model, 'a')), other.acquire(attempt(model, 'b'))]);
    // Both tries fail: the attempt goes out without a slot.
    await capturingLogLines(() => gate.acquire(attempt(model, 'c')));
    // Its ask no longer waits there: before, it waited until a slot came back and then held it (5 min).
    await expect.poll(async () => (await stub.stats()).waiting).toBe(0);
    for (const lease of held) lease.release('ok');
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    expect((await stub.stats()).granted).toBe(2);
  });
});
