/**
 * A held single evaluation that cannot be a verdict cache hit asks the provider gate for its first call's slot
 * while its D1 insert is in flight (durable-objects/evaluation/pre-ask.ts), so the gate's exchange is off the
 * waited verdict's serial path, and its first attempt takes that slot without an exchange of its own. Nothing is
 * sent before the insert admitted the row: held at the tenant's cap, or a replay of an idempotency key, the slot
 * is given back at once (none leaks); a request the cache may serve asks nothing ahead (a hit never pays the gate).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { GateStats } from '../../src/provider-gate/window.js';
import { gateLimitsOf, gateShards, providerGateStub } from '../../src/provider-gate/worker-gate.js';
import type { EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { drainAlarms, mockRequests, newTestId, PAIRWISE, replyInGroups, testEnv, waitForEnd } from './helpers.js';
import { as, keyed, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

/** Every shard's gate stats of the mock model of `seed`, added up (an evaluation's shard follows from its id). */
async function gateTotals(seed: string): Promise<Pick<GateStats, 'granted' | 'inFlight' | 'waiting'>> {
  const limits = gateLimitsOf(testEnv);
  if (!limits) throw new Error('the provider gate is off in the test bindings');
  const all = await Promise.all(
    Array.from({ length: gateShards(limits) }, (_, shard) =>
      providerGateStub(testEnv, 'default', mockModel({ seed }), shard).stats(),
    ),
  );
  return all.reduce(
    (t, s) => ({ granted: t.granted + s.granted, inFlight: t.inFlight + s.inFlight, waiting: t.waiting + s.waiting }),
    {
      granted: 0,
      inFlight: 0,
      waiting: 0,
    },
  );
}

/** `run`'s gate exchanges and D1 batches in the order they were sent or answered (the object shares this isolate). */
async function orderOf(run: () => Promise<void>): Promise<string[]> {
  type Fn = (...args: unknown[]) => Promise<unknown>;
  const events: string[] = [];
  const db = Object.getPrototypeOf(testEnv.DB) as Record<string, Fn>;
  const batch = db.batch as Fn;
  db.batch = async function (this: unknown, ...args: unknown[]) {
    const sql = String((args[0] as { statement?: unknown }[])[0]?.statement);
    const name = sql.includes('INSERT INTO method_configs') ? 'insert' : 'batch';
    events.push(`${name} sent`);
    const out = await batch.apply(this, args);
    events.push(`${name} answered`);
    return out;
  };
  const ns = Object.getPrototypeOf(testEnv.PROVIDER_GATE) as Record<string, (...a: unknown[]) => unknown>;
  const get = ns.get as (...a: unknown[]) => Record<string, Fn>;
  ns.get = function (this: unknown, ...args: unknown[]) {
    const stub = get.apply(this, args);
    return new Proxy(stub, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop !== 'exchange') return value;
        return (...a: unknown[]) => {
          const ids = a[1] as string[];
          events.push(`exchange ${ids.map((i) => i.split('/').slice(-1)[0]).join(',') || 'release'}`);
          return (target.exchange as Fn)(...a);
        };
      },
    });
  };
  try {
    await run();
  } finally {
    db.batch = batch;
    ns.get = get;
  }
  return events;
}

/** A `fastchat-pair` request of `seed`'s mock model, one call (calibration off); `cache` off unless given. */
function request(seed: string, cache: 'off' | 'use' = 'off') {
  const config = { calibration: { enabled: false }, defaults: { model: mockModel({ seed }) } };
  return { preset: 'fastchat-pair', config, task: PAIRWISE, cache };
}

describe("a held evaluation's first call asks the provider gate while its insert is in flight", () => {
  it('asks before the insert answers; the call takes that slot (one grant, no exchange of its own), given back after', async () => {
    const { key } = await tenantWithKey({});
    const seed = newTestId('ahead_wait');
    let body: { id: string; status: string } = { id: '', status: '' };
    const order = await orderOf(async () => {
      const r = await keyed('/v1/evaluations', as(key, { body: request(seed), headers: { Prefer: 'wait=30' } }));
      expect(r.status).toBe(200);
      body = await r.json<{ id: string; status: string }>();
    });
    expect(body.status).toBe('succeeded');
    // The ask went out before D1 answered the insert, and the attempt asked nothing of its own (its release, sent
    // after the answer, is counted by the gate's totals below).
    const asked = order.indexOf('exchange ahead');
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(asked).toBeLessThan(order.indexOf('insert answered'));
    expect(order.filter((e) => e.startsWith('exchange') && e !== 'exchange release')).toEqual(['exchange ahead']);
    expect(await mockRequests(seed)).toBe(1);
    await expect.poll(() => gateTotals(seed)).toEqual({ granted: 1, inFlight: 0, waiting: 0 });
  });

  it("held at the tenant's cap: the slot asked for ahead is given back at once, and its start asks anew", async () => {
    const { key } = await tenantWithKey({ maxRunning: 1 });
    const first = newTestId('ahead_cap');
    await replyInGroups(first, Infinity);
    const submit = async (seed: string) => {
      const r = await keyed('/v1/evaluations', as(key, { body: request(seed) }));
      expect(r.status).toBe(202);
      return (await r.json<EvaluationAccepted>()).id;
    };
    await submit(first);
    const seed = `${first}_next`;
    const next = await submit(seed);
    // Asked for ahead, then given back: nothing held, nothing sent.
    await expect.poll(() => gateTotals(seed)).toEqual({ granted: 1, inFlight: 0, waiting: 0 });
    expect(await mockRequests(seed)).toBe(0);
    await replyInGroups(first, 1);
    expect((await waitForEnd(next)).status).toBe('succeeded');
    await expect.poll(() => gateTotals(seed)).toEqual({ granted: 2, inFlight: 0, waiting: 0 });
  });

  it("an idempotency key's replay: the new object's slot asked for ahead is given back, nothing is sent", async () => {
    const { key } = await tenantWithKey({});
    const seed = newTestId('ahead_replay');
    const headers = { 'Idempotency-Key': seed, Prefer: 'wait=30' };
    const post = () => keyed('/v1/evaluations', as(key, { body: request(seed), headers }));
    const r1 = await post();
    expect(r1.status).toBe(200);
    const r2 = await post();
    expect(r2.status).toBe(200);
    expect((await r2.json<{ id: string }>()).id).toBe((await r1.json<{ id: string }>()).id);
    expect(await mockRequests(seed)).toBe(1);
    // The first's call took its slot; the replay's object asked for one and gave it back.
    await expect.poll(() => gateTotals(seed)).toEqual({ granted: 2, inFlight: 0, waiting: 0 });
  });

  it('a request the verdict cache may serve asks nothing ahead: its hit makes no gate exchange', async () => {
    const { key } = await tenantWithKey({});
    const seed = newTestId('ahead_hit');
    const post = async () => {
      let hit = false;
      const order = await orderOf(async () => {
        const r = await keyed(
          '/v1/evaluations',
          as(key, { body: request(seed, 'use'), headers: { Prefer: 'wait=30' } }),
        );
        expect(r.status).toBe(200);
        hit = (await r.json<{ cache: { hit: boolean } }>()).cache.hit;
      });
      return { hit, exchanges: order.filter((e) => e.startsWith('exchange') && e !== 'exchange release') };
    };
    // A miss asks after its insert (the cache might have served it), a hit not at all.
    expect(await post()).toEqual({ hit: false, exchanges: ['exchange 1'] });
    expect(await post()).toEqual({ hit: true, exchanges: [] });
    await expect.poll(() => gateTotals(seed)).toEqual({ granted: 1, inFlight: 0, waiting: 0 });
  });
});
