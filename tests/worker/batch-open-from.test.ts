/**
 * Migration 0040 (`0040_batch_open_from.sql`): a batch item's insert writes no entry in an index of open items. A
 * batch's handed-over items that have not ended are read through `evaluations_batch` between the batch's
 * `open_from` and `sent` (src/evaluations/batch-open.ts), and the update that counts an ending moves `open_from` to
 * the first position that has not ended. The admission's count, the waiting evaluations and the sweeper read the
 * same items as before, items ending out of order included; an existing database carries over.
 */
import { describe, expect, it } from 'vitest';
import { admit, admitStatement, slotCounts } from '../../src/evaluations/admission.js';
import { findStalled } from '../../src/evaluations/job-rows.js';
import { claimWindow } from '../../src/batches/window-claims.js';
import { batchOpenItems } from '../../src/evaluations/batch-open.js';
import { storedBatch, succeededWrite } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';
import { olderDatabase } from './d1-migrate.js';

const db = testEnv.DB;
const HOUR = 3_600_000;

/** The batch's `open_from` and `sent`. */
const window = async (on: D1Database, batchId: string) =>
  on
    .prepare('SELECT open_from AS openFrom, sent FROM batches WHERE id = ?')
    .bind(batchId)
    .first<{ openFrom: number; sent: number }>();

/** The batch's items holding a slot and not ended, and those handed over waiting for one, read from the rows alone. */
async function truth(on: D1Database, batchId: string): Promise<{ running: number; waiting: number }> {
  const r = await on
    .prepare(
      `SELECT SUM(e.slot_at IS NOT NULL) AS running, SUM(e.slot_at IS NULL AND e.status = 'queued') AS waiting
       FROM evaluations e NOT INDEXED JOIN batches b ON b.id = e.batch_id
       WHERE e.batch_id = ? AND e.batch_seq < b.sent AND e.finished_at IS NULL`,
    )
    .bind(batchId)
    .first<{ running: number | null; waiting: number | null }>();
  return { running: r?.running ?? 0, waiting: r?.waiting ?? 0 };
}

/** The batch's items that have not ended and were handed over, by id. */
async function handedOverOpen(on: D1Database, batchId: string): Promise<string[]> {
  const { results } = await on
    .prepare(
      `SELECT e.id FROM evaluations e NOT INDEXED JOIN batches b ON b.id = e.batch_id
       WHERE e.batch_id = ? AND e.batch_seq < b.sent AND e.finished_at IS NULL ORDER BY e.batch_seq`,
    )
    .bind(batchId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

describe('migration 0040: a batch item open without an index entry', () => {
  it("inserts a batch item with one row written fewer (the row, its position and the tenant's listing)", async () => {
    const b = await storedBatch(1, { tenant: newTestId('tn_open_from_insert') });
    const r = await db
      .prepare(
        `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at, batch_id, batch_seq)
         VALUES (?, 'test', 'queued', 'single', '', '', ?, ?, ?, 1)`,
      )
      .bind(newTestId('ev_open_from'), Date.now(), Date.now(), b.id)
      .run();
    // 4 with the `evaluations_batch_open` entry.
    expect(r.meta.rows_written).toBe(3);
  });

  it('moves open_from with the endings, out of order too, and counts, waits and sweeps the same items', async () => {
    const tenant = newTestId('tn_open_from');
    const b = await storedBatch(4, { tenant, concurrency: 2 });
    const [first = '', second = '', third = '', fourth = ''] = b.items;
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([first, second]);
    await admitStatement(db, first, 100, Date.now(), true).run();
    await admitStatement(db, second, 100, Date.now(), true).run();
    expect(await window(db, b.id)).toEqual({ openFrom: 0, sent: 2 });

    // The second ends first: the first still runs, so open_from stays; the ending claims the third.
    expect((await succeededWrite(second, Date.now(), { batchId: b.id })).changed).toBe(true);
    expect(await window(db, b.id)).toEqual({ openFrom: 0, sent: 3 });
    expect(await slotCounts(db, tenant)).toEqual(await truth(db, b.id));
    expect((await findStalled(db, Date.now() + HOUR, 1000)).filter((id) => b.items.includes(id)).sort()).toEqual(
      (await handedOverOpen(db, b.id)).sort(),
    );

    // The first ends: open_from passes the second (ended) and stops at the third.
    await succeededWrite(first, Date.now(), { batchId: b.id });
    expect(await window(db, b.id)).toEqual({ openFrom: 2, sent: 4 });
    expect(await slotCounts(db, tenant)).toEqual(await truth(db, b.id));
    expect(await handedOverOpen(db, b.id)).toEqual([third, fourth]);
    expect((await findStalled(db, Date.now() + HOUR, 1000)).filter((id) => b.items.includes(id)).sort()).toEqual(
      [third, fourth].sort(),
    );
    // A repeated final write moves nothing.
    await succeededWrite(first, Date.now(), { batchId: b.id });
    expect(await window(db, b.id)).toEqual({ openFrom: 2, sent: 4 });

    await succeededWrite(fourth, Date.now(), { batchId: b.id });
    expect((await window(db, b.id))?.openFrom).toBe(2);
    await succeededWrite(third, Date.now(), { batchId: b.id });
    expect(await window(db, b.id)).toEqual({ openFrom: 4, sent: 4 });
    expect(await slotCounts(db, tenant)).toEqual({ running: 0, waiting: 0 });
  });

  it('measures the tail: while one item runs, each admission reads the items ended above it, one more an ending', async () => {
    const tenant = newTestId('tn_open_from_tail');
    const n = 42;
    const b = await storedBatch(n, { tenant, concurrency: 2 });
    const [slow = '', ...rest] = b.items;
    await claimWindow(db, { batchId: b.id });
    await admitStatement(db, slow, 100, Date.now(), true).run();
    // The cap's count of the batch's running items (UNDER_CAP, slotCounts), read before each other item ends (and
    // claims the next) while the first runs.
    const capCount = db
      .prepare(
        `SELECT count(*) AS n FROM batches b INDEXED BY batches_open
         JOIN evaluations s INDEXED BY evaluations_batch ON ${batchOpenItems('b', 's')}
         WHERE b.tenant = ? AND b.completed_at IS NULL AND s.slot_at IS NOT NULL`,
      )
      .bind(tenant);
    const reads: number[] = [];
    for (const id of rest) {
      reads.push((await capCount.run()).meta.rows_read);
      await succeededWrite(id, Date.now(), { batchId: b.id });
    }
    expect(await window(db, b.id)).toEqual({ openFrom: 0, sent: n });
    // Linear in the items ended since the slow one: 40 endings add about 40 rows to each count.
    const growth = (reads.at(-1) ?? 0) - (reads[0] ?? 0);
    expect(growth).toBeGreaterThanOrEqual(n - 3);
    expect(growth).toBeLessThanOrEqual(2 * n);
    // Measured: 4 rows read before the first ending, 43 after the 40th (docs/scale.md states the bound).
    // Once it ends, open_from moves past them all and the count reads nothing of this batch.
    await succeededWrite(slow, Date.now(), { batchId: b.id });
    expect(await window(db, b.id)).toEqual({ openFrom: n, sent: n });
  });

  it('carries open batches over: open_from at their first open item, counted, found waiting and swept', async () => {
    const { db: old, carryOver } = await olderDatabase('0040');
    const tenant = newTestId('tn_open_from_old');
    const b = await storedBatch(4, { tenant, concurrency: 3, db: old });
    const [first = '', second = '', third = ''] = b.items;
    await claimWindow(old, { batchId: b.id });
    // The first ended and the second holds a slot, as the code before left them; the third waits for one.
    const now = Date.now();
    await old
      .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?`)
      .bind(now, now, first)
      .run();
    await old
      .prepare(`UPDATE evaluations SET slot_at = ?, status = 'running', started_at = ?, updated_at = ? WHERE id = ?`)
      .bind(now, now, now, second)
      .run();

    await carryOver();
    const { results } = await old
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'evaluations'`)
      .all<{ name: string }>();
    expect(results.map((r) => r.name)).not.toContain('evaluations_batch_open');
    expect(await window(old, b.id)).toEqual({ openFrom: 1, sent: 3 });
    expect(await slotCounts(old, tenant)).toEqual({ running: 1, waiting: 1 });
    expect(await admit(old, third, 1, Date.now())).toBe('waiting');
    const stalled = await findStalled(old, Date.now() + HOUR, 1000);
    expect(stalled).toEqual(expect.arrayContaining([second, third]));
    expect(stalled).not.toContain(first);
  });
});
