/**
 * Migration 0037 (`0037_batch_items_in_flight.sql`): a batch item's running slot writes no index row. The item's
 * entry in `evaluations_batch_open` (its batch's items that have not ended) is written with the row and names
 * nothing the slot sets, so the slot is the row alone (the row and an `evaluations_in_flight` entry before); the
 * admission's count, the waiting evaluations and the sweeper read a batch's handed-over items there. An existing
 * database carries over: items in flight or waiting when the migration runs are counted and swept as before.
 */
import { describe, expect, it } from 'vitest';
import { admit, admitStatement, slotCounts } from '../../src/evaluations/admission.js';
import { findStalled } from '../../src/evaluations/job-rows.js';
import { claimWindow } from '../../src/batches/window-claims.js';
import { storedBatch } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';
import { olderDatabase } from './d1-migrate.js';

const db = testEnv.DB;

/** Ends `id` as its final write would (status and `finished_at`). */
const end = (on: D1Database, id: string) =>
  on
    .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?`)
    .bind(Date.now(), Date.now(), id)
    .run();

describe('migration 0037: a batch item in flight in its batch', () => {
  it("takes a slot with one row written, counted under the tenant's cap until it ends", async () => {
    const tenant = newTestId('tn_batch_open');
    // Three items, a window of two: the first two are handed over, the third waits for the window.
    const b = await storedBatch(3, { tenant, concurrency: 2 });
    const [first = '', second = '', third = ''] = b.items;
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([first, second]);

    const taken = await admitStatement(db, first, 1, Date.now(), true).run();
    // The row alone: its slot and running mark named by no index (two rows with the in-flight index's entry).
    expect(taken.meta).toMatchObject({ changes: 1, rows_written: 1 });
    expect(await slotCounts(db, tenant)).toEqual({ running: 1, waiting: 1 });
    // A cap of one: the first item holds it, so the second waits.
    expect(await admit(db, second, 1, Date.now())).toBe('waiting');
    // The sweeper finds both handed-over items (stale an hour from now), never the one not handed over.
    const stalled = await findStalled(db, Date.now() + 3_600_000, 1000);
    expect(stalled).toEqual(expect.arrayContaining([first, second]));
    expect(stalled).not.toContain(third);

    await end(db, first);
    expect(await slotCounts(db, tenant)).toEqual({ running: 0, waiting: 1 });
    expect(await admit(db, second, 1, Date.now())).toBe('admitted');
    expect(await findStalled(db, Date.now() + 3_600_000, 1000)).not.toContain(first);
  });

  it('counts the slots of a batch at tier batch outside the cap, and never its items as waiting for one', async () => {
    const tenant = newTestId('tn_batch_open_tier');
    const b = await storedBatch(2, { tenant, concurrency: 2 });
    await db.prepare(`UPDATE evaluations SET tier = 'batch' WHERE batch_id = ?`).bind(b.id).run();
    await db.prepare(`UPDATE batches SET tier = 'batch' WHERE id = ?`).bind(b.id).run();
    await claimWindow(db, { batchId: b.id });
    // Handed over and not admitted yet: such an item never waits for a slot (it takes one whatever the cap), and
    // its batch's window is the whole batch, so the waiting evaluations never read that batch's items (every
    // ending of the tenant read each of them when they did).
    expect(await slotCounts(db, tenant)).toEqual({ running: 0, waiting: 0 });
    expect(await admit(db, b.items[0] ?? '', 1, Date.now())).toBe('admitted');
    expect(await admit(db, b.items[1] ?? '', 1, Date.now())).toBe('admitted');
    expect(await slotCounts(db, tenant)).toEqual({ running: 2, waiting: 0 });
  });

  it('carries items in flight and waiting over: counted, found waiting and swept', async () => {
    const { db: old, carryOver } = await olderDatabase('0037');
    const tenant = newTestId('tn_batch_open_old');
    const b = await storedBatch(3, { tenant, concurrency: 2, db: old });
    const [first = '', second = ''] = b.items;
    await claimWindow(old, { batchId: b.id });
    // The slot as the code before it took one (its statements name the index this migration drops).
    await old
      .prepare(`UPDATE evaluations SET slot_at = ?, status = 'running', started_at = ?, updated_at = ? WHERE id = ?`)
      .bind(Date.now(), Date.now(), Date.now(), first)
      .run();

    await carryOver();
    const { results } = await old
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'evaluations'`)
      .all<{ name: string }>();
    // 0040 (applied here too) drops `evaluations_batch_open` again: tests/worker/batch-open-from.test.ts.
    expect(results.map((r) => r.name)).not.toContain('evaluations_waiting_batch');
    expect(await slotCounts(old, tenant)).toEqual({ running: 1, waiting: 1 });
    expect(await admit(old, second, 1, Date.now())).toBe('waiting');
    expect(await findStalled(old, Date.now() + 3_600_000, 1000)).toEqual(expect.arrayContaining([first, second]));
    await end(old, first);
    expect(await admit(old, second, 1, Date.now())).toBe('admitted');
  });
});
