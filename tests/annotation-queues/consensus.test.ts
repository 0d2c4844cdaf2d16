/**
 * The consensus rules of an annotation item (src/annotation-queues/consensus.ts): pending below
 * `labelsPerItem`, a strict majority (pairwise, or a score), the mean within one point, disagreement
 * otherwise, an adjudicator settling anything, judge labels never counted.
 */
import { describe, expect, it } from 'vitest';
import type { CountedLabel } from '../../src/annotation-queues/consensus.js';
import { consensusOf, humanValue } from '../../src/annotation-queues/consensus.js';
import type { Label } from '../../src/annotation-queues/schemas.js';

const human = (label: Label): CountedLabel => ({ role: 'annotator', provenance: 'human', label });

describe('consensusOf', () => {
  it('waits for labelsPerItem annotators, judges not counted', () => {
    const judge: CountedLabel = { role: 'annotator', provenance: 'judge', label: { winner: 'B' } };
    expect(consensusOf([judge], 1).status).toBe('pending');
    expect(consensusOf([human({ winner: 'A' }), judge], 2)).toEqual({
      status: 'pending',
      resolution: null,
      label: null,
    });
    expect(consensusOf([human({ winner: 'A' }), judge], 1)).toEqual({
      status: 'labelled',
      resolution: 'single',
      label: { winner: 'A' },
    });
  });

  it('takes a strict pairwise majority and refuses a split', () => {
    const ab = [human({ winner: 'A' }), human({ winner: 'B' })];
    expect(consensusOf(ab, 2)).toEqual({ status: 'needs_adjudication', resolution: null, label: null });
    expect(consensusOf([...ab, human({ winner: 'A' })], 2)).toEqual({
      status: 'labelled',
      resolution: 'majority',
      label: { winner: 'A' },
    });
    expect(consensusOf([human({ winner: 'tie' }), human({ winner: 'tie' })], 2).resolution).toBe('unanimous');
  });

  it('averages pointwise scores within one point and refuses wider spreads, per aspect too', () => {
    expect(consensusOf([human({ score: 3 }), human({ score: 4 })], 2)).toEqual({
      status: 'labelled',
      resolution: 'mean',
      label: { score: 3.5 },
    });
    expect(consensusOf([human({ score: 2 }), human({ score: 4 })], 2).status).toBe('needs_adjudication');
    const aspects = [human({ aspects: { tone: 5, policy: 1 } }), human({ aspects: { tone: 5, policy: 4 } })];
    expect(consensusOf(aspects, 2).status).toBe('needs_adjudication');
    const close = [human({ score: 4, aspects: { tone: 5 } }), human({ score: 4, aspects: { tone: 4 } })];
    expect(consensusOf(close, 2)).toEqual({
      status: 'labelled',
      resolution: 'mean',
      label: { score: 4, aspects: { tone: 4.5 } },
    });
  });

  it("settles anything with the adjudicator's label", () => {
    const split = [human({ winner: 'A' }), human({ winner: 'B' })];
    const adjudicator: CountedLabel = { role: 'adjudicator', provenance: 'human', label: { winner: 'B' } };
    expect(consensusOf([...split, adjudicator], 2)).toEqual({
      status: 'adjudicated',
      resolution: 'adjudicated',
      label: { winner: 'B' },
    });
    expect(consensusOf([adjudicator], 3).status).toBe('adjudicated');
  });

  it('gives the metrics one value: the winner, else the score, else null', () => {
    expect(humanValue({ winner: 'tie' })).toBe('tie');
    expect(humanValue({ score: 0 })).toBe(0);
    expect(humanValue({ aspects: { tone: 3 } })).toBeNull();
  });
});
