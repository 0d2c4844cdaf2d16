/**
 * A comparison's cost before it runs: `POST /v1/estimates` takes a comparison's body (its evaluations are
 * items × pairs × evaluations per pair) and answers as for the same evaluations sent as a batch; a
 * comparison whose `budget` not even the estimate's floor fits is refused at submit, naming the limit and
 * the figure, with nothing stored. No LLM call.
 */
import { describe, expect, it } from 'vitest';
import type { EstimateResponse } from '../../src/estimates/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { postJson } from './api-fetch.js';
import { testEnv } from './helpers.js';

/** fastchat-pair on the default model (gpt-4o-mini, priced): both orders inside one evaluation. */
const comparison = {
  preset: 'fastchat-pair',
  candidates: ['v1', 'v2', 'v3'],
  design: 'all-pairs',
  items: [
    {
      id: 'q1',
      question: 'Capital of Australia?',
      outputs: { v1: 'Sydney.', v2: 'Canberra.', v3: 'Melbourne, I think.' },
    },
    { id: 'q2', question: '2 + 2?', outputs: { v1: '5', v2: '4', v3: 'Four, since 2 + 2 = 4.' } },
  ],
};

/** The same six evaluations as a batch: each item and pair (v1-v2, v1-v3, v2-v3), the first listed as A. */
const asBatch = {
  preset: 'fastchat-pair',
  items: comparison.items.flatMap((it) =>
    (
      [
        ['v1', 'v2'],
        ['v1', 'v3'],
        ['v2', 'v3'],
      ] as const
    ).map(([a, b]) => ({
      task: { kind: 'pairwise', question: it.question, answerA: it.outputs[a], answerB: it.outputs[b] },
    })),
  ),
};

async function estimateOf(body: unknown): Promise<EstimateResponse> {
  const r = await postJson('/v1/estimates', body);
  expect(r.status, await r.clone().text()).toBe(200);
  return r.json<EstimateResponse>();
}

const stored = async () =>
  (await testEnv.DB.prepare('SELECT count(*) AS n FROM comparisons').first<{ n: number }>())?.n ?? -1;

describe('a comparison estimated', () => {
  it('POST /v1/estimates takes its body: the figures of the same evaluations as a batch, per tier', async () => {
    const e = await estimateOf({ ...comparison, budget: { maxCalls: 1_000 } });
    const b = await estimateOf(asBatch);
    expect(e.evaluations).toBe(6);
    expect(e.calls).toEqual(b.calls);
    expect(e.promptTokens).toEqual(b.promptTokens);
    // The same figures per tier, summed in another order (slot by slot, not item by item).
    for (const tier of ['standard', 'flex', 'batch'] as const) {
      expect(e.tiers[tier].seconds).toEqual(b.tiers[tier].seconds);
      expect(e.tiers[tier].costUsd.min).toBeGreaterThan(0);
      for (const level of ['min', 'expected', 'max'] as const)
        expect(e.tiers[tier].costUsd[level]).toBeCloseTo(b.tiers[tier].costUsd[level], 12);
    }
    // FastChat runs both orders in each evaluation: 2 calls each.
    expect(e.calls.min).toBe(12);
    expect(e.budget).toEqual({ maxCalls: 'yes' });
    expect(e.assumptions.at(-1)).toBe(
      'Comparison: 2 items × 3 pairs × 1 evaluation (both presentation orders inside each) per pair = 6 evaluations.',
    );
    // Against a baseline: 2 pairs per item instead of 3.
    expect((await estimateOf({ ...comparison, design: { baseline: 'v1' } })).evaluations).toBe(4);
  });

  it('a bad comparison body is a 400 naming the field, as POST /v1/comparisons names it', async () => {
    const items = [comparison.items[0], { id: 'q2', question: '2 + 2?', outputs: { v1: '5', v2: '4' } }];
    const r = await postJson('/v1/estimates', { ...comparison, items });
    const json = await r.json<ErrorJson>();
    expect(r.status).toBe(400);
    expect(json.error.issues?.map((i) => i.path)).toEqual(['items.1.outputs.v3']);
  });

  it('a budget below the floor is refused at submit, naming the limit and the estimate; nothing is stored', async () => {
    const before = await stored();
    for (const [budget, limit, floor] of [
      [{ maxCalls: 11 }, 'maxCalls', '12'],
      [{ maxCostUsd: 0.000_001 }, 'maxCostUsd', null],
    ] as const) {
      const r = await postJson('/v1/comparisons', { ...comparison, budget });
      const json = await r.json<ErrorJson>();
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(json.error.code).toBe('invalid_request');
      expect(json.error.issues?.[0]?.path).toBe(`budget.${limit}`);
      expect(json.error.message).toMatch(
        new RegExp(
          `^budget\\.${limit}: \\S+ is below the least the comparison's 6 evaluations need \\(estimated ${floor ?? '[0-9.e-]+'}; see POST /v1/estimates\\)$`,
        ),
      );
    }
    expect(await stored()).toBe(before);
  });
});
