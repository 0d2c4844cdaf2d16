/**
 * A tier a model has no price for is billed at the standard price (docs/pricing.md): every route that takes
 * `tier` says so in `warnings` (`tier_price_missing`, naming the model), and says nothing when the tier is priced,
 * standard, or the model is free. The deployment's price table here: `mock-judge` has a standard price only,
 * `mock-priced` has flex and batch prices too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { apiWith } from './api-fetch.js';
import { drainAlarms, newTestId, PAIRWISE } from './helpers.js';
import { items } from './batches-support.js';

afterEach(drainAlarms);

const PRICES = {
  LLM_PRICES: JSON.stringify({
    'mock-judge': { input: 2, output: 8 },
    'mock-priced': { input: 2, output: 8, flex: { input: 1, output: 4 }, batch: { input: 1, output: 4 } },
  }),
};

interface Warned {
  warnings?: { code: string; field: string; message: string }[];
}

/** A single-call judge on the mock model `base` (`mock-judge` unless given). */
function judge(seed: string, base?: string) {
  return {
    preset: 'fastchat-pair',
    config: {
      calibration: { enabled: false },
      defaults: { model: mockModel({ seed, ...(base !== undefined ? { base } : {}) }) },
    },
  };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}, bindings = PRICES) {
  const r = await apiWith(bindings, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json<Warned>() };
}

const comparison = (seed: string, tier: string) => ({
  ...judge(seed),
  tier,
  candidates: ['prod', 'pr'],
  design: { baseline: 'prod' },
  items: [{ id: 'q0', question: `${seed}?`, outputs: { prod: 'prod answer', pr: 'pr answer' } }],
});

describe('tier_price_missing', () => {
  it('warns on every route that takes `tier` when the model has no price for it', async () => {
    const seed = newTestId('tier-warn');
    const bodies: [string, unknown][] = [
      ['/v1/evaluations', { ...judge(seed), tier: 'flex', task: PAIRWISE }],
      ['/v1/batches', { ...judge(seed), tier: 'flex', items: items(2) }],
      ['/v1/meta-evaluations', { ...judge(seed), tier: 'batch', items: [{ id: 'q1', task: PAIRWISE, human: 'A' }] }],
      ['/v1/comparisons', comparison(seed, 'flex')],
      ['/v1/estimates', { ...judge(seed), tier: 'flex', task: PAIRWISE }],
      ['/v1/estimates', comparison(seed, 'batch')],
    ];
    for (const [path, body] of bodies) {
      const r = await post(path, body);
      expect(r.status, path).toBeLessThan(300);
      const tier = (body as { tier: string }).tier;
      expect(r.body.warnings, path).toEqual([
        {
          code: 'tier_price_missing',
          field: 'tier',
          message: expect.stringContaining(`has no ${tier} price`) as string,
        },
      ]);
      expect(r.body.warnings?.[0]?.message).toContain('mock-judge');
      expect(r.body.warnings?.[0]?.message).toContain('billed at the standard price');
    }
  });

  it('also on the ended evaluation a `Prefer: wait` answers with', async () => {
    const r = await post(
      '/v1/evaluations',
      { ...judge(newTestId('tier-warn-wait')), tier: 'flex', task: PAIRWISE },
      { Prefer: 'wait=60' },
    );
    expect(r.status).toBe(200);
    expect(r.body.warnings?.map((w) => w.code)).toEqual(['tier_price_missing']);
  });

  it('says nothing when the tier is priced, standard, or the model is free', async () => {
    const seed = newTestId('tier-quiet');
    const quiet: [string, unknown, typeof PRICES][] = [
      ['/v1/evaluations', { ...judge(seed, 'mock-priced'), tier: 'flex', task: PAIRWISE }, PRICES],
      ['/v1/batches', { ...judge(seed, 'mock-priced'), tier: 'batch', items: items(1) }, PRICES],
      ['/v1/evaluations', { ...judge(seed), tier: 'standard', task: PAIRWISE }, PRICES],
      ['/v1/estimates', { ...judge(seed), task: PAIRWISE }, PRICES],
      // The deployment's own table: mock models cost 0 at every tier.
      ['/v1/evaluations', { ...judge(seed), tier: 'flex', task: PAIRWISE }, { LLM_PRICES: '' }],
    ];
    for (const [path, body, bindings] of quiet) {
      const r = await post(path, body, {}, bindings);
      expect(r.status, path).toBeLessThan(300);
      expect(r.body.warnings, path).toBeUndefined();
    }
  });
});
