/**
 * The cap's count of a tenant's slot holders (src/evaluations/admission.ts `UNDER_CAP`) takes its open batches'
 * windows from their rows first: `sent - open_from` bounds each batch's items that have not ended, so a tenant whose
 * windows cannot fill its cap is admitted without reading one item of them. Only when they could does the admission
 * count the items, and then it admits exactly as the count says.
 */
import { describe, expect, it } from 'vitest';
import { admitStatement, slotCounts } from '../../src/evaluations/admission.js';
import { claimWindow } from '../../src/batches/window-claims.js';
import { queuedSingle, storedBatch } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';

const db = testEnv.DB;

/** Ends batch item `id` as the rows of any end path leave it (status and `finished_at` in one update). */
async function ended(id: string): Promise<void> {
  const now = Date.now();
  await db
    .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?`)
    .bind(now, now, id)
    .run();
}

describe('the cap reads the open windows from their batch rows', () => {
  it("admits under the cap without reading the batch's items: the same rows read for a window of 4 and of 40", async () => {
    const rowsRead = async (window: number) => {
      const tenant = newTestId('tn_cap_bound');
      const b = await storedBatch(window, { tenant, concurrency: window });
      expect((await claimWindow(db, { batchId: b.id })).ids).toHaveLength(window);
      for (const id of b.items) expect((await admitStatement(db, id, 100, Date.now()).run()).meta.changes).toBe(1);
      const taken = await admitStatement(db, await queuedSingle(tenant), 100, Date.now()).run();
      expect(taken.meta.changes).toBe(1);
      expect(await slotCounts(db, tenant)).toEqual({ running: window + 1, waiting: 0 });
      return taken.meta.rows_read;
    };
    const small = await rowsRead(4);
    const large = await rowsRead(40);
    // Counting the items read one row per position of the window: 40 positions cost 36 rows more than 4.
    expect(large).toBe(small);
  });

  it('counts the items once the windows could fill the cap: a straggler holds the window open, its ended items free slots', async () => {
    const tenant = newTestId('tn_cap_count');
    const cap = 3;
    const b = await storedBatch(5, { tenant, concurrency: 5 });
    const [first = '', second = '', third = '', fourth = '', fifth = ''] = b.items;
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual(b.items);
    for (const id of [first, second, third])
      expect((await admitStatement(db, id, cap, Date.now()).run()).meta.changes).toBe(1);
    // The cap is full: the window (5 positions) and the count (3 holders) both say so.
    expect((await admitStatement(db, fourth, cap, Date.now()).run()).meta.changes).toBe(0);
    expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(0);
    // The second and third end above the first, which still runs: the window still spans 5 positions (open_from has
    // not moved), more than the cap, but only one item holds a slot, so the count admits two more.
    await ended(second);
    await ended(third);
    expect(
      await db.prepare('SELECT sent - open_from AS n FROM batches WHERE id = ?').bind(b.id).first<{ n: number }>(),
    ).toEqual({ n: 5 });
    expect((await admitStatement(db, fourth, cap, Date.now()).run()).meta.changes).toBe(1);
    expect((await admitStatement(db, fifth, cap, Date.now()).run()).meta.changes).toBe(1);
    expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(0);
    expect((await slotCounts(db, tenant)).running).toBe(cap);
  });

  it('reads a tenant at its cap without open batches once: its running evaluations are not counted twice', async () => {
    const tenant = newTestId('tn_cap_singles');
    const cap = 30;
    for (let i = 0; i < cap; i++)
      expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(1);
    const refused = await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run();
    expect(refused.meta.changes).toBe(0);
    // One index entry and row per running evaluation (30), read once; the count after the bound would read them again.
    expect(refused.meta.rows_read).toBeGreaterThanOrEqual(cap);
    expect(refused.meta.rows_read).toBeLessThan(2 * cap);
  });

  it('reads a tenant at its cap with an open batch once too: its running evaluations are counted with the items, not twice', async () => {
    const tenant = newTestId('tn_cap_both');
    const cap = 30;
    // Two items of an open batch hold slots (its window of 2 could fill the cap with the singles), 28 singles run.
    const b = await storedBatch(2, { tenant, concurrency: 2 });
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual(b.items);
    for (const id of b.items) expect((await admitStatement(db, id, cap, Date.now()).run()).meta.changes).toBe(1);
    const singles = cap - 2;
    for (let i = 0; i < singles; i++)
      expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(1);
    const refused = await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run();
    expect(refused.meta.changes).toBe(0);
    expect(await slotCounts(db, tenant)).toEqual({ running: cap, waiting: 1 });
    // The 28 singles' index entries and rows once, the batch row and its 2 items: read twice, the singles cost 28 more.
    expect(refused.meta.rows_read).toBeGreaterThanOrEqual(singles);
    expect(refused.meta.rows_read).toBeLessThan(2 * singles);
    // One ends: the count admits the next exactly at the cap.
    await ended(b.items[0] ?? '');
    expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(1);
    expect((await admitStatement(db, await queuedSingle(tenant), cap, Date.now()).run()).meta.changes).toBe(0);
  });
});
