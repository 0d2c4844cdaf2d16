/**
 * A batch's budget: refused at submit when not even the cheapest run of its items fits (400 naming
 * `budget.<limit>`, nothing created); while it runs, items launch only with a grant of what is left
 * (their own `config.budget`), ended items book their usage and release their grant, and once nothing is
 * left the items never launched end `failed` with `budget_exceeded`: the batch never spends past it.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { grantsFor } from '../../src/batches/budget-claims.js';
import { pump } from '../../src/batches/pump.js';
import type { NewBatchItem } from '../../src/batches/rows.js';
import { insertBatch } from '../../src/batches/rows.js';
import { configSql } from '../../src/evaluations/config-rows.js';
import { resolveJudge } from '../../src/methods/resolve-judge.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import type { ErrorJson } from './api-fetch.js';
import { api } from './api-fetch.js';
import { batchBilledCalls, drainAlarms, newTestId, testEnv } from './helpers.js';
import { configureSink, hookEnv, received, sinkUrl } from './webhooks-helpers.js';
import {
  countWhere,
  createBatchId,
  getBatch,
  items,
  pairItem,
  postBatch,
  singleCallJudge,
  waitForBatch,
} from './batches-support.js';

afterEach(drainAlarms);

const db = testEnv.DB;

interface BudgetRow {
  spent_calls: number;
  spent_tokens: number;
  reserved_calls: number;
  reserved_tokens: number;
  reserved_cost_usd: number;
  budget_exhausted_at: number | null;
}

const budgetRow = async (id: string) =>
  (await db
    .prepare(
      'SELECT spent_calls, spent_tokens, reserved_calls, reserved_tokens, reserved_cost_usd, budget_exhausted_at FROM batches WHERE id = ?',
    )
    .bind(id)
    .first<BudgetRow>())!;

const usageCalls = batchBilledCalls;

describe('at submit', () => {
  it('a budget the items cannot fit is a 400 naming the limit; nothing is created', async () => {
    const before = await countWhere('batches');
    const r = await postBatch({ ...singleCallJudge('budget-small'), items: items(5), budget: { maxCalls: 3 } });
    expect(r.status).toBe(400);
    const { error } = await r.json<ErrorJson>();
    expect(error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'budget.maxCalls' }] });
    expect(error.message).toMatch(/^budget\.maxCalls: 3 is below the least the batch's 5 items need \(estimated 5/);
    expect(await countWhere('batches')).toBe(before);
  });

  it('a batch budget and a per-item config.budget together are refused, naming budget', async () => {
    const judge = singleCallJudge('budget-twice');
    const r = await postBatch({
      preset: judge.preset,
      config: { ...judge.config, budget: { maxCalls: 1 } },
      items: items(2),
      budget: { maxCalls: 10 },
    });
    expect(r.status).toBe(400);
    expect((await r.json<ErrorJson>()).error.issues).toEqual([expect.objectContaining({ path: 'budget' })]);
  });

  it('a budget that fits runs every item; spent equals the usage rows and every grant is released', async () => {
    const id = await createBatchId({
      ...singleCallJudge('budget-fits'),
      items: items(5),
      budget: { maxCalls: 5, maxTokens: 1_000_000 },
    });
    const done = await waitForBatch(id);
    expect(done.counts).toMatchObject({ succeeded: 5, failed: 0 });
    expect(done).toMatchObject({ budget: { maxCalls: 5, maxTokens: 1_000_000 }, budgetExhaustedAt: null });
    const row = await budgetRow(id);
    expect(row).toMatchObject({ spent_calls: 5, reserved_calls: 0, reserved_tokens: 0, budget_exhausted_at: null });
    expect(row.spent_tokens).toBe(
      (await getBatch(id)).usage.promptTokens + (await getBatch(id)).usage.completionTokens,
    );
    // Each item ran with its grant as its own budget.
    const budgets = await db
      .prepare(`SELECT json_extract(${configSql('e')}, '$.budget.maxCalls') AS c FROM evaluations e WHERE batch_id = ?`)
      .bind(id)
      .all<{ c: number | null }>();
    for (const b of budgets.results) expect(b.c).toBeGreaterThanOrEqual(1);
  });
});

describe('while running', () => {
  it('once the budget is used up, items never launched end failed (budget_exceeded) and the batch completes within it', async () => {
    // The last ending is a never-launched item ended by the fan-out: its completion event goes out at once.
    const ep = await createEndpoint(hookEnv, 'default', { url: sinkUrl('budget-done'), events: ['batch.completed'] });
    await configureSink('budget-done', [ep.secret]);
    const judge = resolveJudge(singleCallJudge('budget-run').preset, singleCallJudge('budget-run').config);
    const id = newTestId('ba_budget');
    const list: NewBatchItem[] = Array.from({ length: 5 }, (_, i) => ({
      evaluationId: `${id}_ev${i}`,
      seq: i,
      itemId: `i${i}`,
      task: pairItem(i),
      metadata: null,
      callsPlanned: 1,
    }));
    // Stored as submit would, past its check: 3 calls for 5 single-call items.
    expect(
      await insertBatch(db, {
        id,
        tenant: 'default',
        kind: 'batch',
        method: judge.method.method,
        preset: 'fastchat-pair',
        config: judge.config,
        webhookUrl: null,
        idempotencyKey: null,
        requestHash: null,
        concurrency: 16,
        budget: { maxCalls: 3 },
        items: list,
        now: Date.now(),
      }),
    ).toBe(true);
    await pump(testEnv, { batchId: id });
    const done = await waitForBatch(id);
    expect(done.counts).toMatchObject({ succeeded: 3, failed: 2, cancelled: 0 });
    expect(done.budget).toEqual({ maxCalls: 3 });
    expect(done.budgetExhaustedAt).not.toBeNull();
    expect(await usageCalls(id)).toBe(3);
    expect(await budgetRow(id)).toMatchObject({ spent_calls: 3, reserved_calls: 0 });
    expect((await budgetRow(id)).budget_exhausted_at).not.toBeNull();
    const failed = await db
      .prepare("SELECT error_code FROM evaluations WHERE batch_id = ? AND status = 'failed'")
      .bind(id)
      .all<{ error_code: string }>();
    expect(failed.results.map((r) => r.error_code)).toEqual(['budget_exceeded', 'budget_exceeded']);
    await expect.poll(async () => (await received('budget-done')).length, { timeout: WAIT_MS, interval: 50 }).toBe(1);
    const [got] = await received('budget-done');
    expect(got?.verified).toBe(true);
    expect(JSON.parse(got!.body)).toMatchObject({
      type: 'batch.completed',
      data: { id, counts: { succeeded: 3, failed: 2, cancelled: 0 } },
    });
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });

  it('grants: a share of what is left per parallel slot, never more than is left in sum; all of it to one item when too little is left to share', () => {
    const budget = { maxCalls: 100, maxCostUsd: 1 };
    const none = { calls: 0, tokens: 0, costUsd: 0 };
    const grants = grantsFor(budget, { calls: 20, tokens: 0, costUsd: 0.2 }, none, 16, 16, 0);
    expect(grants.length).toBe(16);
    expect(grants.reduce((s, g) => s + (g.maxCalls ?? 0), 0)).toBeLessThanOrEqual(80);
    expect(grants.reduce((s, g) => s + (g.maxCostUsd ?? 0), 0)).toBeLessThanOrEqual(0.8 + 1e-9);
    expect(grantsFor({ maxCalls: 3 }, none, none, 5, 5, 0)).toEqual([{ maxCalls: 3 }]);
    expect(grantsFor({ maxCalls: 3 }, none, { calls: 1, tokens: 0, costUsd: 0 }, 5, 5, 1)).toEqual([]);
    expect(grantsFor({ maxCalls: 3 }, { calls: 3, tokens: 0, costUsd: 0 }, none, 5, 5, 0)).toEqual([]);
  });
});
