/**
 * A large running comparison's statistics come from verdict counts per pair (above LIVE_ITEM_LEVEL_MAX
 * evaluations, src/comparisons/outcomes.ts), and must say what the per-item path says on the same verdicts.
 * No LLM runs: the comparison is stored by the statements its submit runs (batch row, comparison row, pair
 * evaluations expanded in SQL), then its evaluations are ended here with seeded verdicts written straight
 * into D1. The running comparison is read (the counts path), then marked completed and read again (the
 * final statistics, from every item), and the two are compared.
 */
import { describe, expect, it } from 'vitest';
import { insertBatchStatements } from '../../src/batches/rows.js';
import { pairsOf, widthOf } from '../../src/comparisons/layout.js';
import type { Layout } from '../../src/comparisons/layout.js';
import type { ExpansionItem } from '../../src/comparisons/rows.js';
import { expandStatement, insertComparisonStatement } from '../../src/comparisons/rows.js';
import type { Comparison } from '../../src/comparisons/answer-schemas.js';
import { ComparisonSchema } from '../../src/comparisons/answer-schemas.js';
import { LIVE_ITEM_LEVEL_MAX } from '../../src/comparisons/statistics.js';
import { api } from './api-fetch.js';
import { newTestId, testEnv } from './helpers.js';

const candidates = ['v1', 'v2', 'v3'];
const layout: Layout = { candidates, pairs: pairsOf(candidates, 'all-pairs'), orders: 1 };
/** Just over the bound: 1,700 items × 3 pairs = 5,100 evaluations. */
const ITEMS = Math.floor(LIVE_ITEM_LEVEL_MAX / widthOf(layout)) + 34;
const gate = { candidate: 'v2', baseline: 'v1', minWinRate: 0.5, confidence: 0.95 };
const statistics = { model: 'bradley-terry' as const, level: 0.95, resamples: 100, seed: 0 };

/**
 * Stores a running comparison of {@link ITEMS} items with the submit's own statements, ends every
 * evaluation with a seeded verdict (1 in 97 failed, no verdict), and returns its id.
 */
async function seedComparison(): Promise<string> {
  const id = newTestId('cp_counts');
  const tenant = 'default';
  const now = Date.now();
  const items: ExpansionItem[] = Array.from({ length: ITEMS }, (_, n) => [
    n,
    `q${n}`,
    { kind: 'pairwise', question: `question ${n}` },
    candidates.map((c) => `answer of ${c} to ${n}`),
    1,
  ]);
  const statements = [
    ...insertBatchStatements(testEnv.DB, {
      id,
      tenant,
      kind: 'comparison',
      method: 'single',
      preset: 'fastchat-pair',
      config: { method: 'single' },
      webhookUrl: null,
      idempotencyKey: null,
      requestHash: null,
      concurrency: 1,
      items: [],
      itemsTotal: ITEMS * widthOf(layout),
      now,
    }),
    insertComparisonStatement(testEnv.DB, {
      id,
      tenant,
      candidates,
      design: 'all-pairs',
      orders: 1,
      itemsTotal: ITEMS,
      gate,
      statistics,
      now,
    }),
  ];
  // Chunks of 500 items keep each statement's bound JSON small.
  for (let from = 0; from < ITEMS; from += 500)
    statements.push(
      expandStatement(
        testEnv.DB,
        layout,
        {
          batchId: id,
          tenant,
          method: 'single',
          preset: 'fastchat-pair',
          config: { method: 'single' },
          keyId: null,
          cacheMode: 'off',
          rubric: null,
          tier: 'standard',
          flexFallback: 'standard',
          now,
        },
        items.slice(from, from + 500),
      ),
    );
  await testEnv.DB.batch(statements);
  // The verdicts (by a hash of the position): v1 vs v2 mostly v2, v1 vs v3 even, v2 vs v3 mostly v2; a
  // flip on every 7th, and every 97th evaluation failed without one.
  const hash = '((e.batch_seq * 7919 + 13) % 100)';
  const winner = `CASE e.batch_seq % 3
      WHEN 0 THEN (CASE WHEN ${hash} < 30 THEN 'A' WHEN ${hash} < 40 THEN 'tie' ELSE 'B' END)
      WHEN 1 THEN (CASE WHEN ${hash} < 45 THEN 'A' WHEN ${hash} < 55 THEN 'tie' ELSE 'B' END)
      ELSE (CASE WHEN ${hash} < 65 THEN 'A' WHEN ${hash} < 70 THEN 'tie' ELSE 'B' END) END`;
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      `UPDATE evaluations SET status = CASE WHEN batch_seq % 97 = 0 THEN 'failed' ELSE 'succeeded' END,
         error_code = CASE WHEN batch_seq % 97 = 0 THEN 'provider_error' END,
         error_message = CASE WHEN batch_seq % 97 = 0 THEN 'seeded' END
       WHERE batch_id = ?`,
    ).bind(id),
    // The verdict on the row, as the final write leaves it (migrations/0026_verdict_on_the_row.sql).
    testEnv.DB.prepare(
      `UPDATE evaluations AS e SET winner = ${winner}, confidence = 1,
         position_flip = CASE WHEN e.batch_seq % 7 = 0 THEN 1 ELSE 0 END, finished_at = ?
       WHERE e.batch_id = ? AND e.status = 'succeeded'`,
    ).bind(now, id),
  ]);
  return id;
}

async function view(id: string): Promise<Comparison> {
  const r = await api(`/v1/comparisons/${id}`);
  const json = await r.json();
  expect(r.status, JSON.stringify(json).slice(0, 500)).toBe(200);
  return ComparisonSchema.parse(json);
}

describe('a large running comparison: statistics from counts', () => {
  it('says what the per-item statistics say on the same verdicts, in one bounded read', async () => {
    const id = await seedComparison();
    expect(ITEMS * widthOf(layout)).toBeGreaterThan(LIVE_ITEM_LEVEL_MAX);

    const started = performance.now();
    const live = await view(id);
    const liveMs = performance.now() - started;
    expect(live.status).toBe('running');
    expect(live.basis).toBe('live-counts');

    // The same verdicts through the per-item path: the comparison ends, its final statistics are computed.
    const done = Date.now();
    await testEnv.DB.batch([
      testEnv.DB.prepare(`UPDATE batches SET status = 'completed', completed_at = ? WHERE id = ?`).bind(done, id),
      testEnv.DB.prepare(`UPDATE comparisons SET completed_at = ? WHERE id = ?`).bind(done, id),
    ]);
    const final = await view(id);
    expect(final.basis).toBe('final');

    // Identical tallies, intervals, matrix, judge rates and gate.
    expect(live.pairs).toEqual(final.pairs);
    expect(live.matrix).toEqual(final.matrix);
    expect(live.judge).toEqual(final.judge);
    expect(live.gate).toEqual(final.gate);
    expect(live.summary).toBe(final.summary);
    const missing = final.pairs.reduce((n, p) => n + p.missing, 0);
    expect(missing).toBe(Math.ceil((ITEMS * widthOf(layout)) / 97));
    expect(final.judge.flipsMeasured).toBeGreaterThan(0);
    // The same ranking and point strengths; the counts path claims no interval and no separation.
    expect(live.ranking.map((r) => r.candidate)).toEqual(final.ranking.map((r) => r.candidate));
    // v2 wins most of its verdicts against both; v1 and v3 are even.
    expect(final.ranking[0]?.candidate).toBe('v2');
    for (const r of live.ranking) {
      const f = final.ranking.find((x) => x.candidate === r.candidate);
      expect(r.strength).toBeCloseTo(f?.strength ?? Number.NaN, 6);
      expect(r.interval).toBeNull();
      expect(r.rank).toBe(1);
      expect(f?.interval).not.toBeNull();
    }
    expect(live.strengths.logLikelihood).toBeCloseTo(final.strengths.logLikelihood, 6);
    // Within the Worker's limits: one grouped query, far under the 30 s of CPU a request may use.
    expect(liveMs).toBeLessThan(10_000);
  });
});
