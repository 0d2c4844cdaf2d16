/**
 * The provider gate in the Worker: every attempt of an evaluation's LLM calls asks the ProviderGateDO of
 * its provider and model for a slot; the mock's 429 fault controls (`fail=429:n`) cut the window, replies
 * grow it back, every slot is released, and the window survives in the object's storage.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { createLlm } from '../../src/llm/client.js';
import type { ProviderGate } from '../../src/llm/provider-gate-hook.js';
import { DEFAULT_LEASE_MS } from '../../src/provider-gate/window.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { llmEnvOf, settingsFromEnv } from '../../src/llm/settings.js';
import {
  gateLimitsOf,
  gateShardOf,
  gateShards,
  providerGateOf,
  providerGateStub,
} from '../../src/provider-gate/worker-gate.js';
import {
  billedCalls,
  drainAlarms,
  heldReplies,
  insertJob,
  PAIRWISE,
  pollUntil,
  replyInGroups,
  testEnv,
  waitForEnd,
} from './helpers.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { capturingLogLines } from './log-capture.js';

afterEach(drainAlarms);

function request(i: number, model: string): LlmCallRequest {
  return {
    id: `g${i}`,
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    model,
    messages: [{ role: 'user', content: `Which is better? item ${i}` }],
    temperature: 0,
    maxTokens: 32,
    parser: { type: 'text' },
  };
}

describe('the provider gate', () => {
  it('reads its bounds from the deployment (PROVIDER_CONCURRENCY_MAX = "0" turns it off)', () => {
    expect(gateLimitsOf(testEnv)).toEqual({ start: 32, max: 256 });
    expect(gateLimitsOf({ PROVIDER_CONCURRENCY_MAX: '0' })).toBeNull();
    expect(gateLimitsOf({ PROVIDER_CONCURRENCY_START: '500', PROVIDER_CONCURRENCY_MAX: '64' })).toEqual({
      start: 64,
      max: 64,
    });
    const off = { ...testEnv, PROVIDER_CONCURRENCY_MAX: '0' };
    expect(providerGateOf(off, { tenant: 't', evaluationId: 'e' })).toBeUndefined();
  });

  it("an evaluation's attempts go through it: the mock's 429s cut the window once, every slot comes back", async () => {
    const mock = { fail: [[429, 1]] as [number, number][], retryAfterMs: 5, seed: `gate-ev-${Date.now()}` };
    const model = mockModel(mock);
    const { id } = await insertJob({ preset: 'faireval-mec-bpc', task: PAIRWISE, mock });
    await evaluationStub(testEnv, id).start(id);
    expect((await waitForEnd(id)).status).toBe('succeeded');
    // The evaluation's shard of the model's gate (the deployment's 256 slots are 4 shards of 64).
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    const stub = providerGateStub(testEnv, 'default', model, gateShardOf(id, gateShards(limits)));
    // Releases are sent without waiting: the last one may still be on its way.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    const stats = await stub.stats();
    const billed = await billedCalls(id);
    const calls = { n: billed.length, attempts: billed.reduce((n, u) => n + u.attempts, 0) };
    expect(calls.n).toBeGreaterThan(1);
    // Two attempts per call (a 429, then the reply), each through the gate; none still held.
    expect(stats.granted).toBe(calls.attempts);
    expect(stats.cuts).toBe(1);
    expect(stats.window).toBeLessThan(32);
  });

  it('backs off on 429s and recovers on replies (AIMD), never above its window; the window is stored', async () => {
    const model = mockModel({ fail: [[429, 1]], retryAfterMs: 5, seed: `gate-aimd-${Date.now()}` });
    const settings = settingsFromEnv(llmEnvOf(testEnv));
    // A window of at most 64 slots is one shard (shard 0), which starts at 32: the whole window below.
    const oneShard = { ...testEnv, PROVIDER_CONCURRENCY_MAX: '64' };
    const real = providerGateOf(oneShard, { tenant: 'tn_gatetest', evaluationId: 'ev_gate' });
    if (!real) throw new Error('the provider gate is off in the test bindings');
    // Every first attempt waits until all 32 hold their slot: they all belong to one epoch even when a
    // loaded machine would let one 429 come back before the last of them asked (which cut twice).
    let held = 0;
    let allHeld!: () => void;
    const barrier = new Promise<void>((resolve) => (allHeld = resolve));
    const gate: ProviderGate = {
      async acquire(attempt) {
        const lease = await real.acquire(attempt);
        if (attempt.attempt === 1) {
          held += 1;
          if (held === 32) allHeld();
          await barrier;
        }
        return lease;
      },
    };
    const llm = createLlm(settings, { gate });
    const stub = providerGateStub(testEnv, 'default', model);
    // 32 new prompts at once (the whole window): each first attempt is a 429, all sent in one epoch, so
    // they cut the window once; each retry is a reply.
    const first = await Promise.all(Array.from({ length: 32 }, (_, i) => llm(request(i, model))));
    expect(first.every((r) => r.ok)).toBe(true);
    const cut = await stub.stats();
    expect(cut.cuts).toBe(1);
    expect(cut.window).toBeLessThan(32);
    // The same prompts again: the mock answers at once now; the window grows back.
    for (let round = 0; round < 4; round++)
      await Promise.all(Array.from({ length: 32 }, (_, i) => llm(request(i, model))));
    // Releases are sent without waiting: the last ones may still be on their way.
    await expect.poll(async () => (await stub.stats()).inFlight).toBe(0);
    const recovered = await stub.stats();
    expect(recovered.cuts).toBe(1);
    expect(recovered.window).toBeGreaterThan(cut.window);
    expect(recovered.maxInFlight).toBeLessThanOrEqual(32);
    const stored = await runInDurableObject(
      stub,
      (_o, state) => state.storage.sql.exec<{ state: string }>('SELECT state FROM aimd').one().state,
    );
    expect(Math.floor((JSON.parse(stored) as { window: number }).window)).toBe(recovered.window);
  });

  it('an evaluation whose gate object is reset mid-way asks the fresh object: its later attempts are gated, one warning logged', async () => {
    const { id } = await insertJob({ preset: 'chateval-faireval', task: PAIRWISE });
    const limits = gateLimitsOf(testEnv);
    if (!limits) throw new Error('the provider gate is off in the test bindings');
    const gateOf = () =>
      providerGateStub(testEnv, 'default', mockModel({ seed: id }), gateShardOf(id, gateShards(limits)));
    const gate = gateOf();
    // The mock holds every reply: the first stage's two calls hold their slots until the gate is reset.
    await replyInGroups(id, Infinity);
    const { result: attempts, lines } = await capturingLogLines(async () => {
      await evaluationStub(testEnv, id).start(id);
      await pollUntil(
        () => heldReplies(id),
        (n) => n === 2,
      );
      expect(await gate.stats()).toMatchObject({ inFlight: 2, granted: 2 });
      // Reset (as an eviction or a deploy does): the evaluation's stub of the object fails every call from now on.
      await runInDurableObject(gate, (_o, state) => {
        state.abort('test: the gate object was reset');
      }).catch(() => undefined);
      await replyInGroups(id, 1);
      expect((await waitForEnd(id)).status).toBe('succeeded');
      return (await billedCalls(id)).reduce((n, u) => n + u.attempts, 0);
    });
    // The fresh object counted every attempt after the first stage's (its leases went with the reset): none
    // went out ungated, and the slots all came back.
    const fresh = gateOf();
    await expect.poll(async () => (await fresh.stats()).inFlight).toBe(0);
    expect(attempts).toBe(8);
    expect((await fresh.stats()).granted).toBe(attempts - 2);
    const warnings = lines.filter((l) => l.level === 'warn' && l.event.startsWith('gate.') && l.evaluationId === id);
    expect(warnings.map((l) => l.event)).toEqual(['gate.exchange_failed']);
  });

  it("arms its reaper at the oldest lease's expiry once, and re-arms after the alarm while a lease is still held", async () => {
    const stub = providerGateStub(testEnv, 'default', `mock-judge?seed=reaper-${Date.now()}`);
    const limits = { start: 4, max: 8 };
    const alarmOf = () => runInDurableObject(stub, (_o, state) => state.storage.getAlarm());
    const t0 = Date.now();
    await stub.acquire('held/1', 'tn_reaper', limits);
    const armed = await alarmOf();
    expect(armed).toBeGreaterThanOrEqual(t0 + DEFAULT_LEASE_MS - 1_000);
    // A later lease expires later: the alarm stays where the oldest lease needs it.
    await stub.acquire('held/2', 'tn_reaper', limits);
    await stub.release('held/2', 'ok');
    expect(await alarmOf()).toBe(armed);
    // The alarm fires (here: now) before the lease expired: nothing is dropped, and the held lease re-arms it.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await alarmOf()).toBe(armed);
    expect((await stub.stats()).inFlight).toBe(1);
    await stub.release('held/1', 'ok');
    expect((await stub.stats()).inFlight).toBe(0);
  });
});
