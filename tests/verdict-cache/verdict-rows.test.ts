/**
 * Which verdicts D1 keeps a JSON copy of (src/evaluations/verdict-rows.ts): those its own queries read the JSON
 * of; a plain pairwise verdict is kept by its evaluation's object alone.
 */
import { describe, expect, it } from 'vitest';
import type { VerdictSummary } from '../../src/evaluations/live-events.js';
import { verdictKeptInD1 } from '../../src/evaluations/verdict-rows.js';

const PAIRWISE: VerdictSummary = {
  method: 'chateval',
  taskKind: 'pairwise',
  winner: 'A',
  votes: [],
  confidence: 1,
  positionFlip: false,
  unparsed: [],
  calls: 2,
  usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } as VerdictSummary['usage'],
  details: {},
};

describe('verdictKeptInD1', () => {
  it('keeps no copy of a plain pairwise verdict', () => {
    expect(verdictKeptInD1(PAIRWISE)).toBe(false);
  });

  it.each([
    ['pointwise (the listing reads its scale)', { taskKind: 'pointwise', score: 4, winner: undefined }],
    ['with aspects (a batch averages them)', { aspects: [] }],
    ['with repeat runs (a batch sums their stability)', { details: { repeat: { runs: [] } } }],
    ['with a first failing step (a trace lists it)', { firstFailingStep: null }],
    ["a rubric version's steps (src/rubrics reads them in D1)", { method: 'rubric-steps' }],
  ] as const)('keeps one %s', (_name, change) => {
    expect(verdictKeptInD1({ ...PAIRWISE, ...change } as VerdictSummary)).toBe(true);
  });
});
