/**
 * The ending's admission of the tenant's oldest waiting evaluation (src/evaluations/admission.ts
 * `admitNextStatement`): it admits the oldest of the single evaluations and the handed-over batch items that wait,
 * and its rows read do not grow with the single evaluations queued beyond the cap (a burst: every ending asks).
 */
import { describe, expect, it } from 'vitest';
import { admitNextStatement, admittedBy } from '../../src/evaluations/admission.js';
import { claimWindow } from '../../src/batches/window-claims.js';
import { queuedSingle, storedBatch } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';

const db = testEnv.DB;

describe("an ending admits the tenant's oldest waiting evaluation", () => {
  it('reads one waiting single evaluation, not every one queued beyond the cap, and admits them oldest first', async () => {
    const tenant = newTestId('tn_oldest_waiting');
    const t0 = Date.now() - 3_600_000;
    // Inserted out of order: the oldest is neither the first nor the last inserted.
    const order = Array.from({ length: 60 }, (_, i) => (i * 37) % 60);
    const ids = new Map<number, string>();
    for (const k of order) ids.set(k, await queuedSingle(tenant, t0 + k * 1000));
    for (const k of [0, 1, 2]) {
      const r = await admitNextStatement(db, tenant, 100, Date.now()).run();
      expect(admittedBy(r)).toBe(ids.get(k));
      // One waiting entry, the row it admits and the cap's count: not the 57-60 evaluations still waiting.
      expect(r.meta.rows_read).toBeLessThan(15);
    }
    const row = await db
      .prepare('SELECT status, slot_at IS NOT NULL AS slot FROM evaluations WHERE id = ?')
      .bind(ids.get(0))
      .first<{ status: string; slot: number }>();
    expect(row).toEqual({ status: 'running', slot: 1 });
  });

  it('takes a handed-over batch item before a newer single evaluation, and an older single one before the item', async () => {
    const tenant = newTestId('tn_oldest_waiting_batch');
    const b = await storedBatch(2, { tenant, concurrency: 2 });
    // Handed over without a slot: both items wait for one.
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual(b.items);
    const itemCreated =
      (
        await db
          .prepare('SELECT created_at FROM evaluations WHERE id = ?')
          .bind(b.items[0])
          .first<{ created_at: number }>()
      )?.created_at ?? 0;
    const newer = await queuedSingle(tenant, itemCreated + 60_000);
    // The two items were created together: either may go first.
    const first = admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run());
    expect(b.items).toContain(first);
    const older = await queuedSingle(tenant, itemCreated - 60_000);
    expect(admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run())).toBe(older);
    expect(admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run())).toBe(
      b.items.find((id) => id !== first),
    );
    expect(admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run())).toBe(newer);
    expect(admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run())).toBeNull();
  });
});
