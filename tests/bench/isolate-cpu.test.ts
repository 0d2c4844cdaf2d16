/**
 * Whose workerd CPU it is (bench/isolate-cpu.ts, bench/cpu-profile.ts): a V8 profile's samples each count one
 * achieved sampler period (a gap in which the isolate was not locked counts for no one), and the split of an
 * unprofiled pass adds up to its main thread.
 */
import { describe, expect, it } from 'vitest';
import type { CpuProfile } from '../../bench/cpu-profile.js';
import { achievedPeriodUs, tables } from '../../bench/cpu-profile.js';
import { ownerOf, splitCpu } from '../../bench/isolate-cpu.js';

/** A profile of root → `a` and root → `b`, with the samples (node ids) and gaps (µs) given. */
function profile(samples: number[], timeDeltas: number[]): CpuProfile {
  const frame = (functionName: string) => ({ functionName, url: 'index.js', lineNumber: 0 });
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3] },
      { id: 2, callFrame: frame('a') },
      { id: 3, callFrame: frame('b') },
    ],
    samples,
    timeDeltas,
  };
}

describe('the V8 profile of one isolate in workerd', () => {
  // 40 samples of `a` 500 µs apart, then the isolate unlocked for 1 s, then 40 of `b` 500 µs apart.
  const p = profile(
    [...Array<number>(40).fill(2), ...Array<number>(40).fill(3)],
    [0, ...Array<number>(39).fill(500), 1_000_000, ...Array<number>(39).fill(500)],
  );

  it('measures the period from the gaps of consecutive locked ticks', () => {
    expect(achievedPeriodUs(p, 400)).toBe(500);
    // Too few close gaps: the asked interval.
    expect(achievedPeriodUs(profile([2, 3], [0, 9_000]), 400)).toBe(400);
  });

  it('counts each sample one period, so a wait counts for no function', () => {
    const t = tables(p, 1, 400);
    // 80 samples × 0.5 ms; a sample's gap to the next (the old count) gave `a` the second of waiting.
    expect(t.total).toBeCloseTo(40);
    expect(Object.fromEntries(t.self)).toEqual({ 'a index.js:1': 20, 'b index.js:1': 20 });
  });
});

describe('splitCpu', () => {
  const isolates = [
    {
      title: 'core:user:tribunal',
      owner: 'worker' as const,
      samples: 600,
      gcSamples: 60,
      inCallSamples: 120,
      heldMs: 300,
    },
    { title: 'd1:db', owner: 'emulation' as const, samples: 200, gcSamples: 0, inCallSamples: 0, heldMs: 100 },
    { title: 'core:entry', owner: 'emulation' as const, samples: 100, gcSamples: 0, inCallSamples: 0, heldMs: 50 },
  ];

  it("applies the profiled pass's shares of the main thread to the unprofiled pass's", () => {
    // 100 items; profiled main thread 5 ms / item, of which the isolates held 4.5; unprofiled 4 + 1 helpers.
    const s = splitCpu({ main: 4, helpers: 1 }, { cpu: 5, runQueue: 0 }, isolates, 100);
    expect(s.whole).toBe(5);
    expect(s.worker).toBeCloseTo(2.4);
    expect(s.workerGc).toBeCloseTo(0.24);
    // A fifth of its samples were the runtime's, inside the call named.
    expect(s.workerInCall).toBeCloseTo(0.48);
    expect(s.emulation).toBeCloseTo(1.2);
    expect(s.outside).toBeCloseTo(0.4);
    expect(s.worker + s.emulation + s.outside + s.helpers).toBeCloseTo(s.whole);
    expect(s.isolates.map((i) => i.title)).toEqual(['core:user:tribunal', 'd1:db', 'core:entry']);
  });

  it('never gives the isolates more than the main thread (preemption while locked counts as held)', () => {
    const s = splitCpu({ main: 4, helpers: 0 }, { cpu: 4, runQueue: 0 }, isolates, 100);
    expect(s.worker + s.emulation).toBeCloseTo(4);
    expect(s.outside).toBeCloseTo(0);
  });

  it('counts held time on the CPU only: as much waiting for a CPU as running halves it', () => {
    // Held 4.5 ms of wall per item, half of it preempted: 2.25 of the 5 ms of CPU; the Worker's 1.5 of them.
    const s = splitCpu({ main: 4, helpers: 0 }, { cpu: 5, runQueue: 5 }, isolates, 100);
    expect(s.worker).toBeCloseTo(1.2);
    expect(s.outside).toBeCloseTo(4 - 1.8);
    // Counted as held instead (the upper bound): as without any wait.
    expect(splitCpu({ main: 4, helpers: 0 }, { cpu: 5, runQueue: 5 }, isolates, 100, false).worker).toBeCloseTo(2.4);
  });

  it("tells the Worker's isolates from the local runtime's", () => {
    expect(ownerOf('workerd: worker core:user:tribunal', ['tribunal'])).toBe('worker');
    expect(ownerOf('workerd: worker core:user:tribunal-local-ops', ['tribunal'])).toBe('emulation');
    expect(ownerOf('workerd: worker core:user:', [''])).toBe('worker');
    expect(ownerOf('workerd: worker d1:db', ['tribunal'])).toBe('emulation');
  });
});
