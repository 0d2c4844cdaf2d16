/**
 * The provider gate's shards: no one object takes every tenant's attempts to a model. The window is split
 * over ceil(max / 64) objects whose shares of the max add up to the deployment's, each starting at the whole start
 * (at most its share), and an evaluation's attempts all go to the shard its id hashes to, with that shard's bounds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  GATE_SLOTS_PER_SHARD,
  gateLimitsOf,
  gateShardOf,
  gateShards,
  providerGateOf,
  providerGateStub,
  shardLimits,
} from '../../src/provider-gate/worker-gate.js';
import { GATE_SLOTS_PER_SHARD as MODEL_SLOTS_PER_SHARD } from '../../bench/scale-limits.js';
import { drainAlarms, testEnv } from './helpers.js';

afterEach(drainAlarms);

describe('provider gate shards', () => {
  it('split the window into shards of at most 64 slots whose shares add up to the max, each starting at the start', () => {
    expect(gateShards({ start: 32, max: 64 })).toBe(1);
    expect(gateShards({ start: 32, max: 65 })).toBe(2);
    expect(gateShards({ start: 32, max: 256 })).toBe(4);
    expect(gateShards({ start: 1000, max: 24_000 })).toBe(375);
    for (const limits of [
      { start: 32, max: 256 },
      { start: 5, max: 130 },
      { start: 1, max: 1 },
      { start: 100, max: 10_000 },
    ]) {
      const n = gateShards(limits);
      const shares = Array.from({ length: n }, (_, i) => shardLimits(limits, i, n));
      expect(shares.reduce((sum, s) => sum + s.max, 0)).toBe(limits.max);
      for (const s of shares) {
        expect(s.max).toBeLessThanOrEqual(GATE_SLOTS_PER_SHARD);
        // The whole start, not a share of it: a burst hashed unevenly would otherwise wait at a shard.
        expect(s.start).toBe(Math.max(1, Math.min(s.max, limits.start)));
      }
    }
    // The deployment's defaults: 4 shards of 64 slots, each starting at 32.
    const limits = gateLimitsOf(testEnv);
    expect(limits).toEqual({ start: 32, max: 256 });
    if (limits) expect(shardLimits(limits, 3, gateShards(limits))).toEqual({ start: 32, max: 64 });
    expect(shardLimits({ start: 100, max: 130 }, 2, 3)).toEqual({ start: 43, max: 43 });
  });

  it("the scale model (bench/scale-limits.ts, Node-typed, so it keeps a copy) shards by the gate's own slots", () => {
    expect(MODEL_SLOTS_PER_SHARD).toBe(GATE_SLOTS_PER_SHARD);
  });

  it('spread evaluations evenly over the shards, each evaluation always on the same one', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const shard = gateShardOf(`ev_${i.toString(36)}x${(i * 7919).toString(36)}`, 4);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    for (const n of counts) expect(n).toBeGreaterThan(850);
    expect(gateShardOf('ev_same', 4)).toBe(gateShardOf('ev_same', 4));
    expect(gateShardOf('ev_same', 1)).toBe(0);
  });

  it('grant a fresh shard a burst of up to the whole start at once, past a share of it', async () => {
    const model = `mock-judge?seed=shard-burst-${Date.now()}`;
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    const shards = gateShards(limits);
    // More asks than an even share of the start (8 of 32 over 4 shards), all of one evaluation, so of one shard.
    const burst = limits.start;
    expect(burst).toBeGreaterThan(Math.ceil(limits.start / shards));
    const evaluationId = 'ev_burst';
    const gate = providerGateOf(testEnv, { tenant: 'tn_burst', evaluationId });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    const asks = Array.from({ length: burst }, (_, i) =>
      gate.acquire({ provider: 'default', model, callId: `c${i}`, attempt: 1 }),
    );
    const stub = providerGateStub(testEnv, 'default', model, gateShardOf(evaluationId, shards));
    // Once every ask has reached the shard, each was granted from the first window: none waits for another's release.
    await expect
      .poll(async () => {
        const s = await stub.stats();
        return s.inFlight + s.waiting;
      })
      .toBe(burst);
    expect(await stub.stats()).toMatchObject({ inFlight: burst, waiting: 0, maxInFlight: burst, granted: burst });
    for (const l of await Promise.all(asks)) l.release('ok');
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
  });

  it("send an evaluation's attempts to its own shard, with the shard's share of the window", async () => {
    const model = `mock-judge?seed=shards-${Date.now()}`;
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    const shards = gateShards(limits);
    // Two evaluations on different shards.
    const ids = ['ev_a', 'ev_b', 'ev_c', 'ev_d', 'ev_e', 'ev_f', 'ev_g', 'ev_h'];
    const first = ids[0] ?? 'ev_a';
    const other = ids.find((id) => gateShardOf(id, shards) !== gateShardOf(first, shards));
    if (!other) throw new Error('no two test ids on different shards');
    for (const evaluationId of [first, other]) {
      const gate = providerGateOf(testEnv, { tenant: 'tn_shards', evaluationId });
      if (!gate) throw new Error('the provider gate is off in the test bindings');
      const leases = await Promise.all(
        [1, 2, 3].map((i) => gate.acquire({ provider: 'default', model, callId: `c${i}`, attempt: 1 })),
      );
      for (const l of leases) l.release('ok');
    }
    for (const evaluationId of [first, other]) {
      const shard = gateShardOf(evaluationId, shards);
      const stub = providerGateStub(testEnv, 'default', model, shard);
      await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
      const stats = await stub.stats();
      expect(stats.granted).toBe(3);
      // The shard's own window (its 64 of the deployment's 256), starting at the deployment's start.
      expect(stats.window).toBeLessThanOrEqual(shardLimits(limits, shard, shards).max);
      expect(stats.window).toBeLessThan(limits.max);
      expect(stats.window).toBeGreaterThanOrEqual(limits.start);
    }
  });

  it("grows a shard's window no further than its share of the max, with more asks than that waiting", async () => {
    const model = `mock-judge?seed=shard-cap-${Date.now()}`;
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    const shards = gateShards(limits);
    const evaluationId = 'ev_cap';
    const cap = shardLimits(limits, gateShardOf(evaluationId, shards), shards).max;
    expect(cap).toBeLessThan(limits.max);
    const gate = providerGateOf(testEnv, { tenant: 'tn_cap', evaluationId });
    if (!gate) throw new Error('the provider gate is off in the test bindings');
    // Each reply while asks wait grows the window by one (slow start): twice the cap of asks would take a
    // window with the deployment's max well past the shard's share.
    await Promise.all(
      Array.from({ length: 2 * cap + 8 }, (_, i) =>
        gate.acquire({ provider: 'default', model, callId: `c${i}`, attempt: 1 }).then((lease) => {
          lease.release('ok');
        }),
      ),
    );
    const stub = providerGateStub(testEnv, 'default', model, gateShardOf(evaluationId, shards));
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    const stats = await stub.stats();
    expect(stats.granted).toBe(2 * cap + 8);
    expect(stats.window).toBe(cap);
    expect(stats.maxInFlight).toBeLessThanOrEqual(cap);
  });
});
