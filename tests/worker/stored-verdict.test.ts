/**
 * The read of a verdict the pipeline stored (src/evaluations/schemas.ts `storedVerdictSummary`): without a zod
 * pass, it must give what the schema's parse gives for anything the pipeline writes, old rows included.
 */
import { describe, expect, it } from 'vitest';
import { storedVerdictSummary, VerdictSummarySchema } from '../../src/evaluations/schemas.js';

const pairwise = {
  method: 'single',
  taskKind: 'pairwise',
  winner: 'A',
  votes: [{ agent: 'judge', label: 'Judge', order: 'AB', winner: 'A', parsed: true }],
  confidence: 0.75,
  positionFlip: false,
  unparsed: [],
  calls: 1,
  usage: { promptTokens: 120, completionTokens: 30, cachedPromptTokens: 0, estimated: false, costUsd: 0.0001 },
  details: { margin: 1 },
};

describe('a stored verdict read without zod', () => {
  it('equals the schema parse for a current row, a row that kept its transcript and a row without details', () => {
    const withTranscript = { ...pairwise, transcript: [] };
    const { details: _d, ...noDetails } = pairwise;
    for (const stored of [pairwise, withTranscript, noDetails]) {
      const { transcript: _t, ...summary } = stored as typeof withTranscript;
      const parsed = VerdictSummarySchema.parse(summary);
      expect(storedVerdictSummary(JSON.parse(JSON.stringify(stored)))).toEqual(parsed);
    }
    expect(storedVerdictSummary(noDetails)?.details).toEqual({});
  });

  it('is null for anything that is not an object, and for a row without the required keys that does not parse', () => {
    for (const stored of [null, 'A', 3, ['A']]) expect(storedVerdictSummary(stored)).toBeNull();
    const { taskKind: _k, ...partial } = pairwise;
    expect(storedVerdictSummary(partial)).toBeNull();
  });
});
