/**
 * Migration 0041 and src/retention/batch-items.ts: a batch's items are erased with their batch, `retentionDays` after
 * the batch completed (not after each item ended), in pages from the batch's mark; their ending writes no retention
 * index entry. A tenant that stores no content still has its batch items' content erased by the sweep. Time is the
 * `now` the sweep is given and the rows' own timestamps, never a sleep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { eraseBatchItemsDue } from '../../src/retention/batch-items.js';
import { storedBatch, succeededWrite } from './batches-support.js';
import { drainAlarms, newTestId, testEnv } from './helpers.js';
import { olderDatabase } from './d1-migrate.js';
import { newTenant } from './tenants-helpers.js';
import { endedEvaluation } from './webhooks-helpers.js';

afterEach(drainAlarms);

const DAY = 86_400_000;
const db = testEnv.DB;

/** A completed batch of `n` succeeded items of `tenant`. */
async function completedBatch(n: number, tenant: string): Promise<{ id: string; items: string[] }> {
  const b = await storedBatch(n, { tenant, concurrency: n });
  for (const id of b.items) expect((await succeededWrite(id, Date.now(), { batchId: b.id })).changed).toBe(true);
  const row = await db
    .prepare('SELECT completed_at AS at FROM batches WHERE id = ?')
    .bind(b.id)
    .first<{ at: number }>();
  expect(row?.at).not.toBeNull();
  return b;
}

/** Moves the batch's completion `completedDays` and its items' ends `endedDays` days before `now`. */
async function aged(batchId: string, completedDays: number, endedDays: number, now: number): Promise<void> {
  await db.batch([
    db.prepare('UPDATE batches SET completed_at = ? WHERE id = ?').bind(now - completedDays * DAY, batchId),
    db.prepare('UPDATE evaluations SET finished_at = ? WHERE batch_id = ?').bind(now - endedDays * DAY, batchId),
  ]);
}

/** How many of `ids` are erased (tombstones). */
async function erasedOf(ids: readonly string[]): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM evaluations WHERE deleted_at IS NOT NULL AND id IN (${ids.map(() => '?').join(', ')})`,
    )
    .bind(...ids)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe('a batch item past its retention', () => {
  it('writes no retention index entry when it ends', async () => {
    const b = await storedBatch(1, { tenant: newTestId('tn_ret_items_end') });
    const r = await db
      .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?`)
      .bind(Date.now(), Date.now(), b.items[0])
      .run();
    // The row alone: 2 with its `evaluations_retention` entry.
    expect(r.meta.rows_written).toBe(1);
  });

  it('is erased retentionDays after its batch completed, not after it ended; an evaluation outside a batch as before', async () => {
    const now = Date.now();
    const tenant = newTestId('tn_ret_items');
    const b = await completedBatch(3, tenant);
    const single = await endedEvaluation(tenant);
    await db
      .prepare('UPDATE evaluations SET finished_at = ? WHERE id = ?')
      .bind(now - 31 * DAY, single)
      .run();
    // The items ended 31 days ago, their batch completed 29 days ago: kept.
    await aged(b.id, 29, 31, now);
    expect(await sweepRetention(testEnv, now)).toMatchObject({ erased: 1, errors: 0 });
    expect(await erasedOf([single])).toBe(1);
    expect(await erasedOf(b.items)).toBe(0);

    await aged(b.id, 31, 31, now);
    expect(await sweepRetention(testEnv, now)).toMatchObject({ erased: 3, errors: 0 });
    expect(await erasedOf(b.items)).toBe(3);
    const mark = await db
      .prepare('SELECT items_erased_below AS below, items_erased_at AS at FROM batches WHERE id = ?')
      .bind(b.id)
      .first<{ below: number; at: number | null }>();
    expect(mark).toEqual({ below: 3, at: now });
    expect((await sweepRetention(testEnv, now)).erased).toBe(0);
  });

  it("a run's page is the tenants' pages' total (20 × RETENTION_PAGE), from the batch's mark, taking turns with the tenants' pages; retentionDays 0 keeps them", async () => {
    // A minute in which a batch's items go first, then one in which the tenants' pages do.
    const even = Math.floor(Date.now() / 120_000) * 120_000;
    const odd = even + 60_000;
    const env = { ...testEnv, RETENTION_PAGE: '1' } as Bindings;
    const tenant = newTestId('tn_ret_items_page');
    const b = await completedBatch(22, tenant);
    const single = await endedEvaluation(tenant);
    await db
      .prepare('UPDATE evaluations SET finished_at = ? WHERE id = ?')
      .bind(even - 40 * DAY, single)
      .run();
    const kept = await completedBatch(1, await newTenant({ retentionDays: 0 }));
    await aged(b.id, 40, 40, even);
    await aged(kept.id, 400, 400, even);
    // The run's 20 erasures all go to the batch's items; the evaluation outside the batch waits a minute.
    expect(await sweepRetention(env, even)).toMatchObject({ erased: 20, errors: 0 });
    expect([await erasedOf(b.items), await erasedOf([single])]).toEqual([20, 0]);
    // Then it goes first, and the last 2 items' short page marks the batch.
    expect(await sweepRetention(env, odd)).toMatchObject({ erased: 3, errors: 0 });
    expect([await erasedOf(b.items), await erasedOf([single])]).toEqual([22, 1]);
    const at = await db
      .prepare('SELECT items_erased_at AS at FROM batches WHERE id = ?')
      .bind(b.id)
      .first<{ at: number | null }>();
    expect(at?.at).toBe(odd);
    expect(await erasedOf(kept.items)).toBe(0);
  });

  it('a run erases the items of many small batches at once, and one that cannot be erased holds back only itself', async () => {
    const now = Date.now();
    const tenant = newTestId('tn_ret_items_small');
    const batches = [];
    for (let i = 0; i < 8; i++) {
      const b = await completedBatch(2, tenant);
      // The first completed the longest ago, so the page starts with its failing item.
      await aged(b.id, 40 - i / 10, 40, now);
      batches.push(b);
    }
    const [first] = batches;
    const bad = first?.items[0] ?? '';
    // An object whose erasure fails: the page goes on past it to the other batches.
    const failing = {
      idFromName: (name: string) => name,
      get: (name: string) =>
        name === bad
          ? { erase: () => Promise.reject(new Error('unavailable')) }
          : testEnv.EVALUATION.get(testEnv.EVALUATION.idFromName(name)),
    };
    const broken = { ...testEnv, EVALUATION: failing } as unknown as Bindings;
    expect(await eraseBatchItemsDue(broken, db, now, 30, 500)).toEqual({ erased: 15, errors: 1, batchesDone: 7 });
    const all = batches.flatMap((b) => b.items);
    expect(await erasedOf(all)).toBe(15);
    const mark = await db
      .prepare('SELECT items_erased_below AS below, items_erased_at AS at FROM batches WHERE id = ?')
      .bind(first?.id ?? '')
      .first<{ below: number; at: number | null }>();
    expect(mark).toEqual({ below: 0, at: null });
    // The next run tries it again (passing the erased one after it) and finishes the batch.
    expect(await sweepRetention(testEnv, now)).toMatchObject({ erased: 1, errors: 0 });
    expect(await erasedOf(all)).toBe(16);
    expect(await eraseBatchItemsDue(testEnv, db, now, 30, 500)).toEqual({ erased: 0, errors: 0, batchesDone: 0 });
  });

  it("of a tenant that stores no content: the sweep erases what the ending's own step missed", async () => {
    const tenant = await newTenant({ storeContent: false });
    const b = await completedBatch(1, tenant);
    const [item = ''] = b.items;
    // As if the erasure after the ending had failed.
    await db.prepare('UPDATE evaluations SET content_erased_at = NULL WHERE id = ?').bind(item).run();
    const report = await sweepRetention(testEnv, Date.now());
    expect(report.contentErased).toBeGreaterThanOrEqual(1);
    const row = await db
      .prepare('SELECT content_erased_at AS at FROM evaluations WHERE id = ?')
      .bind(item)
      .first<{ at: number | null }>();
    expect(row?.at).not.toBeNull();
  });

  it('carries completed batches over: those with items left are due with their batch, the others need no visit', async () => {
    const { db: old, carryOver } = await olderDatabase('0041');
    const now = Date.now();
    const tenant = newTestId('tn_ret_items_old');
    const left = await storedBatch(2, { tenant, db: old });
    const gone = await storedBatch(1, { tenant, db: old });
    // Both completed 40 days ago, their items ended then; the second's item was erased already (a tombstone).
    await old.batch([
      old
        .prepare(`UPDATE batches SET status = 'completed', completed_at = ? WHERE id IN (?, ?)`)
        .bind(now - 40 * DAY, left.id, gone.id),
      old
        .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ? WHERE batch_id IN (?, ?)`)
        .bind(now - 40 * DAY, left.id, gone.id),
      old.prepare('UPDATE evaluations SET deleted_at = ? WHERE batch_id = ?').bind(now - DAY, gone.id),
    ]);

    await carryOver();
    const marks = await old
      .prepare(
        'SELECT id, items_erased_below AS below, items_erased_at AS at FROM batches WHERE id IN (?, ?) ORDER BY id',
      )
      .bind(left.id, gone.id)
      .all<{ id: string; below: number; at: number | null }>();
    expect(Object.fromEntries(marks.results.map((r) => [r.id, { below: r.below, at: r.at }]))).toEqual({
      [left.id]: { below: 0, at: null },
      [gone.id]: { below: 1, at: now - 40 * DAY },
    });
    expect(await eraseBatchItemsDue(testEnv, old, now, 30, 500)).toEqual({ erased: 2, errors: 0, batchesDone: 1 });
    const { results } = await old
      .prepare('SELECT count(*) AS n FROM evaluations WHERE batch_id = ? AND deleted_at IS NOT NULL')
      .bind(left.id)
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(2);
  });
});
