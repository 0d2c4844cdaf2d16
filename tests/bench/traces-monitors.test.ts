/**
 * bench:traces --monitors' pass/fail (bench/traces-monitors.ts): the trace contract's p95 of 10 s from a trace's
 * end to its verdict is a gate, as duplicates and the budget are, not only a printed figure.
 */
import { describe, expect, it } from 'vitest';
import { monitorFailures, TRACE_VERDICT_P95_TARGET_S } from '../../bench/traces-monitors.js';

const passing = { settled: true, duplicates: 0, withinBudget: true, delays: [1.2, 3.4, 6.0] };

describe('bench:traces --monitors gate', () => {
  it('passes a settled run with no duplicate, within budget, p95 at most 10 s', () => {
    expect(TRACE_VERDICT_P95_TARGET_S).toBe(10);
    expect(monitorFailures(passing)).toEqual([]);
    expect(monitorFailures({ ...passing, delays: [10] })).toEqual([]);
  });

  it('fails a p95 above 10 s, naming it', () => {
    const delays = [...Array<number>(18).fill(2), 10.5, 12.3];
    expect(monitorFailures({ ...passing, delays })).toEqual([
      'trace end → verdict p95 10.5 s is above the 10 s target',
    ]);
  });

  it('fails a run that measured no delay, and each other check', () => {
    expect(monitorFailures({ settled: false, duplicates: 2, withinBudget: false, delays: [] })).toEqual([
      'the monitors did not settle within 300 s',
      '2 duplicate evaluations',
      'the span monitor spent past its daily budget plus one evaluation',
      'no trace end → verdict delay was measured',
    ]);
  });
});
