/**
 * The provider gate: the AIMD window (slow start, one halving per epoch of 429s, additive growth, no
 * growth while the window is not the limit), the gate's grants (never more in flight than the window,
 * tenants in turn, idempotent, expiring leases), and the client end to end against a provider that
 * answers 429 whenever more than K attempts are in flight: with the gate a burst settles near K instead
 * of turning into a storm of 429s.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { Aimd } from '../../src/provider-gate/aimd.js';
import { createLlm } from '../../src/llm/client.js';
import type { ProviderGate } from '../../src/llm/provider-gate-hook.js';
import { gateName, gateOutcome } from '../../src/llm/provider-gate-hook.js';
import type { Grant } from '../../src/provider-gate/window.js';
import { ConcurrencyGate, localGate } from '../../src/provider-gate/window.js';

describe('Aimd', () => {
  it('slow start: +1 per success while below ssthresh (doubling per round), capped at max', () => {
    const a = new Aimd({ start: 4, max: 10 });
    for (let i = 0; i < 4; i++) a.onSuccess(true);
    expect(a.limit()).toBe(8);
    for (let i = 0; i < 8; i++) a.onSuccess(true);
    expect(a.limit()).toBe(10);
  });

  it('a 429 halves the window once per epoch; then +1 per window of successes', () => {
    const a = new Aimd({ start: 16, max: 64 });
    const epoch = a.state.epoch;
    expect(a.onRateLimited(epoch)).toBe(true);
    expect(a.limit()).toBe(8);
    // More 429s of attempts admitted before the cut do not cut again.
    expect(a.onRateLimited(epoch)).toBe(false);
    expect(a.limit()).toBe(8);
    // Congestion avoidance: 8 successes ≈ +1.
    for (let i = 0; i < 8; i++) a.onSuccess(true);
    expect(a.limit()).toBe(8);
    a.onSuccess(true);
    expect(a.limit()).toBe(9);
    expect(a.onRateLimited(a.state.epoch)).toBe(true);
    expect(a.limit()).toBe(4);
  });

  it('never below min, never above max, and no growth while the window is not the limit', () => {
    const a = new Aimd({ start: 2, max: 8, min: 2 });
    for (let i = 0; i < 5; i++) a.onRateLimited(a.state.epoch);
    expect(a.limit()).toBe(2);
    for (let i = 0; i < 100; i++) a.onSuccess(false);
    expect(a.limit()).toBe(2);
    const restored = new Aimd({ start: 1, max: 4 }, { window: 100, ssthresh: 50, epoch: 7 });
    expect(restored.limit()).toBe(4);
    expect(restored.state.epoch).toBe(7);
  });
});

describe('ConcurrencyGate', () => {
  it('grants up to the window at once, then one per release, tenants in turn', async () => {
    const gate = new ConcurrencyGate({ start: 2, max: 2 });
    const order: string[] = [];
    const grant = (id: string, tenant: string) =>
      gate.acquire(id, tenant).then(() => {
        order.push(id);
      });
    const pending = [
      grant('a1', 'A'),
      grant('a2', 'A'),
      grant('a3', 'A'),
      grant('a4', 'A'),
      grant('b1', 'B'),
      grant('b2', 'B'),
    ];
    await Promise.resolve();
    expect(order).toEqual(['a1', 'a2']);
    expect(gate.stats()).toMatchObject({ inFlight: 2, waiting: 4 });
    // One slot frees at a time: A (waiting first), then B, then A, then B.
    for (const id of ['a1', 'a2', 'a3', 'b1', 'a4', 'b2']) {
      gate.release(id, 'failed');
      await Promise.resolve();
      await Promise.resolve();
    }
    await Promise.all(pending);
    expect(order).toEqual(['a1', 'a2', 'a3', 'b1', 'a4', 'b2']);
    expect(gate.stats().maxInFlight).toBe(2);
  });

  it('tryAcquire grants only what can go at once and queues nothing: a full window or a waiter says null', async () => {
    const gate = new ConcurrencyGate({ start: 2, max: 2 });
    expect(gate.tryAcquire('a', 't1')).not.toBeNull();
    // Idempotent: the holder of a slot gets it again, without a second lease.
    expect(gate.tryAcquire('a', 't1')).not.toBeNull();
    expect(gate.tryAcquire('b', 't1')).not.toBeNull();
    expect(gate.stats().inFlight).toBe(2);
    expect(gate.tryAcquire('c', 't2')).toBeNull();
    expect(gate.stats().waiting).toBe(0);
    // A slot given back goes to the waiter in `acquire`; once one is free again, tryAcquire grants it.
    const waiter = gate.acquire('d', 't2');
    gate.release('a', 'ok');
    await waiter;
    gate.release('b', 'ok');
    expect(gate.tryAcquire('e', 't1')).not.toBeNull();
    expect(gate.stats()).toMatchObject({ inFlight: 2, waiting: 0, granted: 4 });
  });

  it('is idempotent per attempt id, ignores unknown releases, and drops leases nobody released', async () => {
    let now = 0;
    const gate = new ConcurrencyGate({ start: 1, max: 1, leaseMs: 1_000, now: () => now });
    await gate.acquire('x', 'A');
    await gate.acquire('x', 'A');
    expect(gate.stats().inFlight).toBe(1);
    expect(gate.release('nope', 'ok')).toBe(false);
    let granted = false;
    void gate.acquire('y', 'A').then(() => {
      granted = true;
    });
    expect(gate.nextExpiry()).toBe(1_000);
    now = 999;
    expect(gate.reap()).toBe(0);
    now = 1_001;
    expect(gate.reap()).toBe(1);
    await Promise.resolve();
    expect(granted).toBe(true);
  });

  it('an id asked again while it waits keeps one place in the queue: the earlier ask answers null, one slot is granted', async () => {
    const gate = new ConcurrencyGate({ start: 1, max: 1 });
    await gate.acquire('a', 'A');
    const order: string[] = [];
    // `x` waits, then its holder asks again (the first RPC's connection was lost); `y` asked between the two.
    let first: Grant | null | 'waiting' = 'waiting';
    void gate.acquire('x', 'B').then((g) => (first = g));
    const other = gate.acquire('y', 'C').then(() => order.push('y'));
    const again = gate.acquire('x', 'B').then((g) => {
      order.push('x');
      return g;
    });
    await Promise.resolve();
    expect(first).toBeNull();
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 2 });
    gate.release('a', 'ok');
    // `x` keeps the place its first ask took (before `y`), and takes one slot, counted once.
    expect(await again).not.toBeNull();
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 1, granted: 2 });
    gate.release('x', 'ok');
    await other;
    expect(order).toEqual(['x', 'y']);
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 0, granted: 3, maxInFlight: 1 });
  });

  it('withdraw: a waiting ask answers null at once, takes and frees no slot; a held slot is untouched', async () => {
    const gate = new ConcurrencyGate({ start: 1, max: 1 });
    await gate.acquire('a', 'A');
    const grants: Record<string, unknown> = {};
    const ask = (id: string, tenant: string) =>
      gate.acquire(id, tenant).then((g) => {
        grants[id] = g;
      });
    const waits = [ask('b', 'B'), ask('c', 'B'), ask('d', 'C')];
    expect(gate.withdraw(['b', 'a', 'nope'])).toBe(1);
    await waits[0];
    expect(grants).toEqual({ b: null });
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 2 });
    // B keeps its turn for c; the slot freed goes to c, then d: never more than the window.
    gate.release('a', 'ok');
    await waits[1];
    expect(grants.c).not.toBeNull();
    expect(gate.withdraw(['c'])).toBe(0);
    gate.release('c', 'ok');
    await waits[2];
    expect(gate.stats()).toMatchObject({ inFlight: 1, waiting: 0, maxInFlight: 1, granted: 3 });
    // A localGate ask whose signal aborts while it waits resolves at once without a slot.
    const local = localGate({ start: 1, max: 1 });
    const held = await local.acquire({ provider: 'p', model: 'm', callId: 'x', attempt: 1 });
    const abort = new AbortController();
    const waiting = local.acquire({ provider: 'p', model: 'm', callId: 'y', attempt: 1 }, abort.signal);
    abort.abort();
    await waiting;
    expect(local.gates.get(gateName('p', 'm'))?.stats()).toMatchObject({ inFlight: 1, waiting: 0 });
    held.release('ok');
    expect(local.gates.get(gateName('p', 'm'))?.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
  });

  it('maps attempts to outcomes: a reply grows, a 429 cuts, anything else neither', () => {
    expect([
      gateOutcome(true, undefined),
      gateOutcome(false, 429),
      gateOutcome(false, 500),
      gateOutcome(false, undefined),
    ]).toEqual(['ok', 'rate_limited', 'failed', 'failed']);
  });
});

/** A provider that answers 429 to every attempt that finds more than `capacity` in flight, else a reply after `latencyMs`. */
function crowdedProvider(capacity: number, latencyMs: number) {
  let inFlight = 0;
  const stats = { attempts: 0, rejected: 0, maxInFlight: 0 };
  const fetchImpl: typeof fetch = async () => {
    stats.attempts += 1;
    if (inFlight >= capacity) {
      stats.rejected += 1;
      return new Response(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after-ms': '5' },
      });
    }
    inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, latencyMs));
    inFlight -= 1;
    const body = {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '[[A]]' } }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetchImpl, stats };
}

function request(i: number): LlmCallRequest {
  return {
    id: `c${i}`,
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    messages: [{ role: 'user', content: `item ${i}` }],
    temperature: 0,
    maxTokens: 16,
    parser: { type: 'text' },
  };
}

/** 120 calls at once (three waves of 40) against a provider that takes 8 at a time. */
async function burst(gate: ProviderGate | undefined) {
  const provider = crowdedProvider(8, 15);
  const llm = createLlm(
    {
      providers: { default: { baseUrl: 'http://crowded.test/v1' } },
      defaultModel: 'm',
      retry: { maxAttempts: 20, baseDelayMs: 5, maxDelayMs: 50 },
    },
    { fetch: provider.fetchImpl, ...(gate ? { gate } : {}) },
  );
  const results = [];
  for (let wave = 0; wave < 3; wave++)
    results.push(...(await Promise.all(Array.from({ length: 40 }, (_, i) => llm(request(wave * 40 + i))))));
  return { ok: results.filter((r) => r.ok).length, ...provider.stats };
}

describe('a burst against a provider that takes 8 at a time', () => {
  it('without the gate most attempts are 429s; with it few are, and every call still succeeds', async () => {
    const without = await burst(undefined);
    const gate = localGate({ start: 32, max: 256 });
    const withGate = await burst(gate);
    expect(without.ok).toBe(120);
    expect(withGate.ok).toBe(120);
    // The storm: without the gate the provider refuses more attempts than it serves.
    expect(without.rejected).toBeGreaterThan(120);
    // With it, the first wave's 429s cut the window to the provider's size and later waves fit.
    expect(withGate.rejected).toBeLessThan(without.rejected / 4);
    const window = [...gate.gates.values()][0]?.stats();
    expect(window?.cuts).toBeGreaterThan(0);
    expect(window?.window).toBeLessThanOrEqual(16);
    console.log(
      `crowded provider (8 at a time), 120 calls: 429s without the gate ${without.rejected}, with it ${withGate.rejected}; final window ${window?.window}`,
    );
  }, 30_000);
});
