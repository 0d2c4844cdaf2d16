/**
 * Migration 0041 and src/retention/batch-items.ts: a batch's items are erased with their batch, `retentionDays` after
 * the batch completed (not after each item ended), in pages from the batch's mark; their ending writes no retention
 * index entry. A tenant that stores no content still has its batch items' content erased by the sweep. Time is the
 * `now` the sweep is given and the rows' own timestamps, never a sleep.
 */
import type { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { eraseBatchItemsDue } from '../../src/retention/batch-items.js';
import { storedBatch, succeededWrite } from './batches-support.js';
import { drainAlarms, newTestId, testEnv } from './helpers.js';
import { newTenant } from './tenants-helpers.js';
import { endedEvaluation } from './webhooks-helpers.js';

afterEach(drainAlarms);

type Migrations = Parameters<typeof applyD1Migrations>[1];
const MIGRATIONS = (env as unknown as { TEST_MIGRATIONS: Migrations }).TEST_MIGRATIONS;
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

  it("in pages of RETENTION_PAGE from the batch's mark; a tenant's retentionDays 0 keeps them", async () => {
    const now = Date.now();
    const env = { ...testEnv, RETENTION_PAGE: '2' } as Bindings;
    const b = await completedBatch(5, newTestId('tn_ret_items_page'));
    const kept = await completedBatch(1, await newTenant({ retentionDays: 0 }));
    await aged(b.id, 40, 40, now);
    await aged(kept.id, 400, 400, now);
    // One page a batch per run: 2, 2, then the last one, whose short page marks the batch.
    for (const expected of [2, 4, 5]) {
      await sweepRetention(env, now);
      expect(await erasedOf(b.items)).toBe(expected);
    }
    const at = await db
      .prepare('SELECT items_erased_at AS at FROM batches WHERE id = ?')
      .bind(b.id)
      .first<{ at: number | null }>();
    expect(at?.at).toBe(now);
    expect(await erasedOf(kept.items)).toBe(0);
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
    // A shard's binding, unused in this project (it runs with `D1_SHARDS` 0): a database of this file's own.
    const old = (testEnv as unknown as { DB_03: D1Database }).DB_03;
    for (const m of MIGRATIONS.filter((m) => m.name < '0041')) await old.batch(m.queries.map((q) => old.prepare(q)));
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

    for (const m of MIGRATIONS.filter((m) => m.name >= '0041')) await old.batch(m.queries.map((q) => old.prepare(q)));
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
    expect(await eraseBatchItemsDue(testEnv, old, now, 30, 25, 500)).toEqual({ erased: 2, errors: 0 });
    const { results } = await old
      .prepare('SELECT count(*) AS n FROM evaluations WHERE batch_id = ? AND deleted_at IS NOT NULL')
      .bind(left.id)
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(2);
  });
});
