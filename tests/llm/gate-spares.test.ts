/**
 * The gate's spares (slots granted ahead to an evaluation): they count in the window like leases, so attempts in
 * flight plus spares never pass it; none is granted while anybody waits; one given back or expired lets a waiter
 * in; a used one is a lease like any (its 429 cuts the window, its release frees the slot); ids never repeat.
 */
import { describe, expect, it } from 'vitest';
import { ConcurrencyGate, SPARE_MS } from '../../src/provider-gate/window.js';

/** Leases plus spares, the number the window bounds. */
const held = (gate: ConcurrencyGate) => gate.stats().inFlight + gate.stats().spares;

describe('ConcurrencyGate spares', () => {
  it('are granted only into the window: with spares held, an ask finds the window full', () => {
    const gate = new ConcurrencyGate({ start: 3, max: 3 });
    expect(gate.tryAcquire('a', 't1')).not.toBeNull();
    const spares = gate.spare('t1', 5);
    // Two of the five asked for: the third slot is the window's last.
    expect(spares).toHaveLength(2);
    expect(held(gate)).toBe(3);
    expect(gate.tryAcquire('b', 't2')).toBeNull();
    expect(gate.spare('t1', 1)).toEqual([]);
    // A used spare is a lease; the window is still 3 in all.
    gate.use(spares[0] ?? '', 't1');
    expect(gate.stats()).toMatchObject({ inFlight: 2, spares: 1, granted: 2 });
    expect(held(gate)).toBe(3);
  });

  it('keeps leases plus spares within the window through a random run of asks, spares, uses and releases', () => {
    const gate = new ConcurrencyGate({ start: 4, max: 4 });
    const leases: string[] = [];
    const spares: string[] = [];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 500; step++) {
      const move = rand(5);
      if (move === 0) {
        const id = `a${step}`;
        if (gate.tryAcquire(id, `t${rand(3)}`)) leases.push(id);
      } else if (move === 1) spares.push(...gate.spare(`t${rand(3)}`, 1 + rand(3)));
      else if (move === 2 && spares.length > 0) {
        const id = spares.splice(rand(spares.length), 1)[0] ?? '';
        gate.use(id, 't0');
        leases.push(id);
      } else if (move === 3 && spares.length > 0) gate.unspare(spares.splice(rand(spares.length), 1)[0] ?? '');
      else if (leases.length > 0) gate.release(leases.splice(rand(leases.length), 1)[0] ?? '', 'failed');
      expect(held(gate)).toBeLessThanOrEqual(4);
      expect(gate.stats()).toMatchObject({ inFlight: leases.length, spares: spares.length });
    }
    expect(gate.stats().maxInFlight).toBeLessThanOrEqual(4);
  });

  it('none while somebody waits; a spare given back goes to the waiter', async () => {
    const gate = new ConcurrencyGate({ start: 2, max: 2 });
    gate.tryAcquire('a', 't1');
    const [spare] = gate.spare('t1', 1);
    let granted = false;
    const waiting = gate.acquire('b', 't2').then(() => (granted = true));
    expect(gate.contended()).toBe(true);
    gate.release('a', 'ok');
    // The freed slot went to the waiter, and no spare is granted past it.
    await waiting;
    expect(granted).toBe(true);
    expect(gate.contended()).toBe(false);
    const late = gate.acquire('c', 't3');
    expect(gate.spare('t1', 1)).toEqual([]);
    gate.unspare(spare ?? '');
    await late;
    expect(gate.stats()).toMatchObject({ inFlight: 2, spares: 0, waiting: 0 });
  });

  it('an unused spare expires SPARE_MS after its grant and lets a waiter in; a used one lives as a lease', async () => {
    let now = 1_000;
    const gate = new ConcurrencyGate({ start: 2, max: 2, now: () => now });
    const [used, idle] = gate.spare('t1', 2);
    expect(gate.nextExpiry()).toBe(1_000 + SPARE_MS);
    now += 1;
    gate.use(used ?? '', 't1');
    const waiting = gate.acquire('b', 't2');
    now = 1_000 + SPARE_MS;
    // The idle spare is dropped (not counted as a lost lease), the used one is kept.
    expect(gate.reap()).toBe(0);
    await waiting;
    expect(gate.stats()).toMatchObject({ inFlight: 2, spares: 0 });
    expect(idle).not.toEqual(used);
  });

  it("a used spare's 429 cuts the window as any attempt's; a late notice of a spare already expired still counts it", () => {
    let now = 0;
    const gate = new ConcurrencyGate({ start: 8, max: 8, now: () => now });
    const [a, b] = gate.spare('t1', 2);
    gate.use(a ?? '', 't1');
    expect(gate.release(a ?? '', 'rate_limited')).toBe(true);
    expect(gate.stats().window).toBe(4);
    now = SPARE_MS + 1;
    gate.reap();
    expect(gate.stats().spares).toBe(0);
    gate.use(b ?? '', 't1');
    expect(gate.stats().inFlight).toBe(1);
    gate.release(b ?? '', 'ok');
    expect(gate.stats().inFlight).toBe(0);
  });

  it('never hands out the same id twice', () => {
    const gate = new ConcurrencyGate({ start: 64, max: 64 });
    const ids = [...gate.spare('t1', 32), ...gate.spare('t2', 32)];
    expect(new Set(ids).size).toBe(64);
  });
});
