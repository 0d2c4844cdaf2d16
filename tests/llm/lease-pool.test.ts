/**
 * The isolate's pool of kept provider-gate slots (src/provider-gate/lease-pool.ts): a slot is reused only by its
 * tenant at its shard, only within the reuse time of its grant, never when it was granted after a wait nor while
 * the shard is contended; idle slots come back; the gate counts a reused slot's successes with its release.
 */
import { describe, expect, it } from 'vitest';
import { LeasePool } from '../../src/provider-gate/lease-pool.js';
import { ConcurrencyGate } from '../../src/provider-gate/window.js';

function pool(reuseMs = 1000, idleMs = 50) {
  let now = 1_000_000;
  const p = new LeasePool({ reuseMs, idleMs, now: () => now });
  return { p, advance: (ms: number) => (now += ms) };
}

const A = { shard: 'gate-0', tenant: 'tn_a' };
const B = { shard: 'gate-0', tenant: 'tn_b' };

describe('LeasePool', () => {
  it('keeps a slot granted at once for its tenant and shard only, counting its successes', () => {
    const { p } = pool();
    const slot = p.granted('ev_1/c/1', false);
    expect(p.keep(A, slot)).toBe(true);
    expect(p.take(B)).toBeNull();
    expect(p.take({ shard: 'gate-1', tenant: 'tn_a' })).toBeNull();
    const again = p.take(A);
    expect(again?.id).toBe('ev_1/c/1');
    expect(again?.oks).toBe(1);
    expect(p.take(A)).toBeNull();
  });

  it('reuses a slot only within the reuse time of its grant, and gives idle ones back', () => {
    const { p, advance } = pool(1000, 50);
    const slot = p.granted('s', false);
    advance(900);
    expect(p.keep(A, slot)).toBe(true);
    expect(p.expired(A)).toEqual([]);
    advance(49);
    expect(p.expired(A)).toEqual([]);
    advance(1);
    // Idle for 50 ms (and past its reuse time): back to the gate.
    expect(p.expired(A).map((s) => s.id)).toEqual(['s']);
    expect(p.holds(A)).toBe(false);
    const old = p.granted('t', false);
    advance(1000);
    expect(p.keep(A, old)).toBe(false);
  });

  it('never keeps a slot granted after a wait, nor any while the shard is contended', () => {
    const { p, advance } = pool();
    expect(p.keep(A, p.granted('waited', true))).toBe(false);
    const kept = p.granted('k', false);
    expect(p.keep(B, kept)).toBe(true);
    // A refusal at the shard: what is kept goes back, and nothing is kept for a reuse time.
    expect(p.contend('gate-0').map((s) => s.id)).toEqual(['k']);
    expect(p.take(B)).toBeNull();
    expect(p.keep(A, p.granted('x', false))).toBe(false);
    // Another shard is not affected.
    expect(p.keep({ shard: 'gate-1', tenant: 'tn_a' }, p.granted('y', false))).toBe(true);
    advance(1000);
    expect(p.keep(A, p.granted('z', false))).toBe(true);
  });

  it('reuses nothing with a reuse time of 0', () => {
    const { p } = pool(0);
    expect(p.enabled).toBe(false);
    expect(p.keep(A, p.granted('s', false))).toBe(false);
    expect(p.contend('gate-0')).toEqual([]);
  });
});

describe("the gate's release of a reused slot", () => {
  it("counts the slot's earlier successes before its outcome: the window grows as if each had been released", () => {
    const gate = new ConcurrencyGate({ start: 2, max: 16 });
    expect(gate.tryAcquire('a', 't')).not.toBeNull();
    expect(gate.tryAcquire('b', 't')).not.toBeNull();
    // The window is full (2 of 2): three successes on slot a, the last as its outcome, each grow it in slow start.
    gate.release('a', 'ok', 2);
    expect(gate.stats().window).toBe(5);
    expect(gate.stats().inFlight).toBe(1);
  });
});
