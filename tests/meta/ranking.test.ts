import { describe, expect, it } from 'vitest';
import type { Tournament } from '../../src/metrics/ranking.js';
import { countsOf, rankCandidates } from '../../src/metrics/ranking.js';

describe('rankCandidates', () => {
  /** Items of a 3-candidate all-pairs tournament, cycling through fixed results so counts are known. */
  function tournament(items: number, results: (i: number) => [0 | 1 | 2, 0 | 1 | 2, 0 | 1 | 2]): Tournament {
    return {
      candidates: ['x', 'y', 'z'],
      pairs: [
        { i: 0, j: 1 },
        { i: 1, j: 2 },
        { i: 0, j: 2 },
      ],
      items: Array.from({ length: items }, (_, u) => results(u).map((result, pair) => ({ pair, result }))),
    };
  }
  // x beats y and z, y beats z, on every item but one in four (where the weaker one wins).
  const ordered = (u: number): [0 | 1 | 2, 0 | 1 | 2, 0 | 1 | 2] => (u % 4 === 0 ? [1, 1, 1] : [0, 0, 0]);

  it('item counts add up per pair', () => {
    const counts = countsOf(tournament(8, ordered));
    expect(counts[0]).toEqual({ i: 0, j: 1, winsI: 6, winsJ: 2, ties: 0 });
  });

  it('ranks a clear order 1, 2, 3 with intervals around the strengths, best first', () => {
    const r = rankCandidates(tournament(400, ordered), { bootstrap: { resamples: 300 } });
    expect(r.ranking.map((e) => [e.candidate, e.rank])).toEqual([
      ['x', 1],
      ['y', 2],
      ['z', 3],
    ]);
    for (const e of r.ranking) {
      expect(e.interval![0]).toBeLessThanOrEqual(e.strength);
      expect(e.interval![1]).toBeGreaterThanOrEqual(e.strength);
    }
    expect(r.bootstrap).toEqual({ resamples: 300, seed: 0, level: 0.95, dropped: 0 });
  });

  it('shares a rank when the intervals overlap (8 items cannot separate them)', () => {
    const r = rankCandidates(tournament(8, ordered), { bootstrap: { resamples: 300 } });
    expect(r.ranking.map((e) => e.rank)).toEqual([1, 1, 1]);
  });

  it('is reproducible by seed and changes with it', () => {
    const t = tournament(40, ordered);
    const a = rankCandidates(t, { bootstrap: { resamples: 200, seed: 7 } });
    const b = rankCandidates(t, { bootstrap: { resamples: 200, seed: 7 } });
    const c = rankCandidates(t, { bootstrap: { resamples: 200, seed: 8 } });
    expect(a.ranking).toEqual(b.ranking);
    expect(a.ranking).not.toEqual(c.ranking);
  });

  it('pins a reference candidate at 0 with interval [0, 0]', () => {
    const r = rankCandidates(tournament(100, ordered), { reference: 2, bootstrap: { resamples: 100 } });
    const z = r.ranking.find((e) => e.candidate === 'z')!;
    expect(z.strength).toBe(0);
    expect(z.interval).toEqual([0, 0]);
    expect(r.ranking[0]!.strength).toBeGreaterThan(0);
  });
});
