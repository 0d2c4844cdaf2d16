/**
 * A batch's items' usage waits on the batch's row (`batches.usage_pending`, migration 0039) and is rolled up 32 items
 * at a time and when the batch completes: an item's final write upserts no `usage_rollup` row of its own (one D1 row
 * written fewer a verdict). Usage reports and the monthly spend quota add what waits, so they read the same at every
 * moment; an item ended elsewhere before its final write (a cancel) still books its calls straight to the roll-up.
 */
import { describe, expect, it } from 'vitest';
import { markEnded, writeFinal } from '../../src/ending-plan.js';
import { usageSince } from '../../src/tenants/quota.js';
import { usageReport } from '../../src/tenants/usage-report.js';
import { PENDING_FLUSH_AT } from '../../src/tenants/usage-rollup.js';
import { ONE_CALL_VERDICT, oneJudgeCall, storedBatch, succeededWrite } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';

const db = testEnv.DB;
const HOUR = 3_600_000;

/** Calls in the roll-up rows of `tenant`, and the items waiting in its batch `batchId`'s list. */
async function state(tenant: string, batchId: string): Promise<{ rolledUp: number; waiting: number }> {
  const r = await db
    .prepare(
      `SELECT (SELECT COALESCE(SUM(calls), 0) FROM usage_rollup WHERE tenant = ?) AS rolled,
              (SELECT COALESCE(json_array_length(usage_pending), 0) FROM batches WHERE id = ?) AS waiting`,
    )
    .bind(tenant, batchId)
    .first<{ rolled: number; waiting: number }>();
  return { rolledUp: r?.rolled ?? -1, waiting: r?.waiting ?? -1 };
}

/** The calls and USD the usage report and the quota read for `tenant` in the hours around now. */
async function reported(tenant: string): Promise<{ calls: number; usd: number; quotaUsd: number }> {
  const now = Date.now();
  const report = await usageReport([db], tenant, { from: now - HOUR, to: now + HOUR, groupBy: 'model' });
  const quota = await usageSince([db], tenant, now - HOUR);
  return { calls: report.totals.calls, usd: report.totals.costUsd, quotaUsd: quota.spendUsd };
}

describe("a batch's usage, rolled up a page at a time", () => {
  it('holds an item on its batch row, reported all the same, and rolls a full list up with the next ending', async () => {
    const tenant = newTestId('tn_pending');
    const n = PENDING_FLUSH_AT + 2;
    const b = await storedBatch(n, { tenant });
    const usd = ONE_CALL_VERDICT.usage.costUsd;

    const first = await succeededWrite(b.items[0] ?? '', Date.now(), { batchId: b.id });
    expect(first.changed).toBe(true);
    // No roll-up row yet: the item waits in its batch's list; the report and the quota count it.
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 0, waiting: 1 });
    expect(await reported(tenant)).toEqual({ calls: 1, usd, quotaUsd: usd });
    // A repeated final write adds nothing.
    await succeededWrite(b.items[0] ?? '', Date.now(), { batchId: b.id });
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 0, waiting: 1 });

    for (let i = 1; i < PENDING_FLUSH_AT; i++) await succeededWrite(b.items[i] ?? '', Date.now(), { batchId: b.id });
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 0, waiting: PENDING_FLUSH_AT });
    // The next ending rolls the full list up and starts a new one with itself.
    await succeededWrite(b.items[PENDING_FLUSH_AT] ?? '', Date.now(), { batchId: b.id });
    expect(await state(tenant, b.id)).toEqual({ rolledUp: PENDING_FLUSH_AT, waiting: 1 });
    expect((await reported(tenant)).calls).toBe(PENDING_FLUSH_AT + 1);

    // The ending that completes the batch rolls up what is left (an object that lost track of its batch too).
    await succeededWrite(b.items[n - 1] ?? '', Date.now(), {});
    expect(await state(tenant, b.id)).toEqual({ rolledUp: n, waiting: 0 });
    const done = await reported(tenant);
    expect(done.calls).toBe(n);
    expect(done.usd).toBeCloseTo(n * usd, 9);
    expect(done.quotaUsd).toBeCloseTo(n * usd, 9);
  });

  it('books the calls of an item ended elsewhere straight to the roll-up, and completes a cancelled batch', async () => {
    const tenant = newTestId('tn_pending_cancel');
    const b = await storedBatch(2, { tenant });
    const [first = '', second = ''] = b.items;
    await succeededWrite(first, Date.now(), { batchId: b.id });
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 0, waiting: 1 });
    // A cancel ends the second item and completes the batch: the first item's usage goes to the roll-up.
    expect(await markEnded(db, second, 'cancelled', { code: 'cancelled', message: 'test' }, Date.now())).toBe(true);
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 1, waiting: 0 });
    // Its object's final write finds the row ended: the calls it made are booked all the same, once.
    const late = await writeFinal(db, {
      id: second,
      tenant,
      batchId: b.id,
      status: 'succeeded',
      verdict: ONE_CALL_VERDICT,
      calls: [oneJudgeCall(Date.now())],
      callsDone: 1,
      engineVersion: '1/single@1',
      now: Date.now(),
      defaultMaxRunning: 100,
    });
    expect(late.changed).toBe(false);
    expect(await state(tenant, b.id)).toEqual({ rolledUp: 2, waiting: 0 });
    expect((await reported(tenant)).calls).toBe(2);
  });

  it("groups a report by preset and by key with an open batch's waiting items in their groups", async () => {
    const tenant = newTestId('tn_pending_groups');
    const open = await storedBatch(3, { tenant, preset: 'fastchat-pair', keyId: 'key_open' });
    const done = await storedBatch(1, { tenant, preset: 'chateval-faireval', keyId: 'key_done' });
    for (const id of open.items.slice(0, 2)) await succeededWrite(id, Date.now(), { batchId: open.id });
    // The ending that completes the other batch rolls its item up; the open batch's two wait on its row.
    await succeededWrite(done.items[0] ?? '', Date.now(), { batchId: done.id });
    expect(await state(tenant, open.id)).toEqual({ rolledUp: 1, waiting: 2 });

    const now = Date.now();
    const usd = ONE_CALL_VERDICT.usage.costUsd;
    const groups = async (groupBy: 'preset' | 'key') =>
      (await usageReport([db], tenant, { from: now - HOUR, to: now + HOUR, groupBy })).rows.map((r) => ({
        group: r.group,
        calls: r.calls,
        promptTokens: r.promptTokens,
        costUsd: r.costUsd,
      }));
    const prompt = ONE_CALL_VERDICT.usage.promptTokens;
    expect(await groups('preset')).toEqual([
      { group: 'chateval-faireval', calls: 1, promptTokens: prompt, costUsd: usd },
      { group: 'fastchat-pair', calls: 2, promptTokens: 2 * prompt, costUsd: 2 * usd },
    ]);
    expect(await groups('key')).toEqual([
      { group: 'key_done', calls: 1, promptTokens: prompt, costUsd: usd },
      { group: 'key_open', calls: 2, promptTokens: 2 * prompt, costUsd: 2 * usd },
    ]);
  });
});
