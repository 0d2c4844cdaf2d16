import { describe, expect, it } from 'vitest';
import { evaluateGate, GateResultSchema, GateSchema, projectMoreItems } from '../../src/metrics/gate.js';
import type { PairResult } from '../../src/metrics/pairs.js';

/** A pair tally as `tallyPairs` gives it (the gate recomputes the interval at its own confidence). */
function pair(a: string, b: string, wins: number, ties: number, losses: number, missing = 0): PairResult {
  const n = wins + ties + losses;
  return { a, b, wins, ties, losses, missing, winRate: n === 0 ? null : (wins + ties / 2) / n, interval: [0, 1] };
}

const gate = { candidate: 'v2', baseline: 'v1' };

describe('the gate', () => {
  it('passes when the lower bound clears the bar: 70 W / 10 T / 20 L is 0.75, Wilson 95% [0.657, 0.825]', () => {
    const r = evaluateGate(gate, [pair('v2', 'v1', 70, 10, 20)]);
    expect(r.outcome).toBe('passed');
    expect(r.winRate).toBe(0.75);
    expect(r.interval[0]).toBeCloseTo(0.656955364519384, 10);
    expect(r.interval[1]).toBeCloseTo(0.8245478863771232, 10);
    expect(r.moreItems).toBeNull();
    expect(r.summary).toBe(
      'gate passed: v2 beats v1 75.0% of the time (95% CI 65.7%–82.5%), above the 50.0% bar; 100 items: 70 wins, 10 ties, 20 losses',
    );
    expect(GateResultSchema.parse(r)).toEqual(r);
  });

  it('fails when the upper bound is under the bar: 30 W / 10 T / 60 L is 0.35, Wilson 95% [0.264, 0.447]', () => {
    const r = evaluateGate(gate, [pair('v2', 'v1', 30, 10, 60)]);
    expect(r.outcome).toBe('failed');
    expect(r.interval[1]).toBeCloseTo(0.44745556703112027, 10);
    expect(r.summary.startsWith('gate failed: v2 beats v1 35.0% of the time')).toBe(true);
  });

  it('stays inconclusive when the interval spans the bar, with the items that would likely decide it', () => {
    // 52 W / 6 T / 42 L: p̂ = 0.55, Wilson 95% [0.452, 0.644] spans 0.5.
    // N = max(⌈(1.95996 + 0.84162)²·0.55·0.45/0.05²⌉, N_W) = max(⌈777.04⌉, 385) = 778; 778 − 100 = 678 more.
    const r = evaluateGate(gate, [pair('v2', 'v1', 52, 6, 42)]);
    expect(r.outcome).toBe('inconclusive');
    expect(r.interval[0]).toBeCloseTo(0.45244602997442135, 10);
    expect(r.interval[1]).toBeCloseTo(0.6438546202048803, 10);
    expect(r.moreItems).toBe(678);
    expect(r.summary).toBe(
      'gate inconclusive: v2 beats v1 55.0% of the time (95% CI 45.2%–64.4%), which spans the 50.0% bar; 100 items: 52 wins, 6 ties, 42 losses; about 678 more items would likely decide it',
    );
  });

  it('budgets for items without a verdict: with 25 of 125 missing, ⌈678 / 0.8⌉ = 848 more', () => {
    expect(evaluateGate(gate, [pair('v2', 'v1', 52, 6, 42, 25)]).moreItems).toBe(848);
  });

  it('reads the pair in either orientation', () => {
    const r = evaluateGate(gate, [pair('v1', 'v2', 20, 10, 70)]);
    expect(r).toMatchObject({ outcome: 'passed', wins: 70, ties: 10, losses: 20, winRate: 0.75 });
  });

  it('uses its own confidence and bar: the inconclusive 0.55 passes at 50% confidence and fails a 0.7 bar', () => {
    expect(evaluateGate({ ...gate, confidence: 0.5 }, [pair('v2', 'v1', 52, 6, 42)]).outcome).toBe('passed');
    expect(evaluateGate({ ...gate, minWinRate: 0.7 }, [pair('v2', 'v1', 52, 6, 42)]).outcome).toBe('failed');
  });

  it('is inconclusive with no verdict, and projects nothing when the rate sits on the bar', () => {
    const none = evaluateGate(gate, []);
    expect(none).toMatchObject({ outcome: 'inconclusive', n: 0, winRate: null, interval: [0, 1], moreItems: null });
    expect(none.summary).toBe('gate inconclusive: no verdict yet on v2 vs v1');
    const even = evaluateGate(gate, [pair('v2', 'v1', 40, 20, 40)]);
    expect(even.outcome).toBe('inconclusive');
    expect(even.moreItems).toBeNull();
    expect(even.summary.endsWith('no number of items is likely to decide it at this rate')).toBe(true);
  });

  it('projection at p̂ = 1 is set by Wilson (the power term is 0): 3 wins of 3 needs 4 items, so 1 more', () => {
    expect(projectMoreItems(1, 3, 3, 0.5, 0.95)).toBe(1);
  });
});

describe('GateSchema', () => {
  it('fills the defaults: minWinRate 0.5, confidence 0.95', () => {
    expect(GateSchema.parse(gate)).toEqual({ ...gate, minWinRate: 0.5, confidence: 0.95 });
  });

  it.each([
    [{ ...gate, minWinRate: 0 }, 'minWinRate'],
    [{ ...gate, minWinRate: 1 }, 'minWinRate'],
    [{ ...gate, confidence: 0.49 }, 'confidence'],
    [{ ...gate, confidence: 1 }, 'confidence'],
    [{ candidate: 'v1', baseline: 'v1' }, 'baseline'],
  ])('rejects %j naming %s', (input, field) => {
    const parsed = GateSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([field]);
  });
});
