/**
 * Migration 0042 (`0042_batches_open_by_tenant.sql`): `batches_open` is keyed by tenant, so the admission
 * (src/evaluations/admission.ts: the cap's count of a tenant's slot holders and its waiting batch items, read on
 * every ending and every slot taken) reads the tenant's own open batches, not every open batch of the shard. Its rows
 * read do not grow with the open batches of other tenants; an existing database carries over.
 */
import { describe, expect, it } from 'vitest';
import { admit, admitNextStatement, admitStatement, admittedBy, slotCounts } from '../../src/evaluations/admission.js';
import { claimWindow } from '../../src/batches/window-claims.js';
import { storedBatch } from './batches-support.js';
import { newTestId, testEnv } from './helpers.js';
import { olderDatabase } from './d1-migrate.js';

const db = testEnv.DB;

/** Inserts `n` open batches of `tenant` (one statement), each with a window of handed-over positions. */
async function openBatchesOf(on: D1Database, tenant: string, n: number): Promise<void> {
  const now = Date.now();
  await on
    .prepare(
      `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?)
       INSERT INTO batches (id, tenant, kind, status, method, config, items_total, concurrency, sent, created_at, updated_at)
       SELECT ? || '_' || i, ?, 'batch', 'running', 'single', '{}', 4, 4, 4, ? + i, ? FROM k`,
    )
    .bind(n, newTestId('ba_other'), tenant, now, now)
    .run();
}

describe("migration 0042: the admission reads its tenant's open batches", () => {
  it('reads at most 3 rows more with 300 open batches of another tenant than with none, and counts its own', async () => {
    const tenant = newTestId('tn_open_by_tenant');
    const b = await storedBatch(4, { tenant, concurrency: 4 });
    const [first = ''] = b.items;
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual(b.items);
    const taken = await admitStatement(db, first, 100, Date.now()).run();
    expect(taken.meta.changes).toBe(1);
    const alone = await admitNextStatement(db, tenant, 100, Date.now()).run();
    expect(b.items).toContain(admittedBy(alone));

    await openBatchesOf(db, newTestId('tn_open_by_tenant_other'), 300);
    const next = await admitNextStatement(db, tenant, 100, Date.now()).run();
    expect(b.items).toContain(admittedBy(next));
    // The same reads but for one more slot holder counted (its row): not one row per open batch of the other
    // tenant, as when the statement scanned every open batch of the shard (300 rows more).
    expect(next.meta.rows_read).toBeLessThanOrEqual(alone.meta.rows_read + 3);
    const last = b.items.find((id) => ![first, admittedBy(alone), admittedBy(next)].includes(id)) ?? '';
    const own = await admitStatement(db, last, 100, Date.now()).run();
    expect(own.meta.changes).toBe(1);
    expect(own.meta.rows_read).toBeLessThan(taken.meta.rows_read + 10);
    expect(await slotCounts(db, tenant)).toEqual({ running: 4, waiting: 0 });
  });

  it('carries an existing database over: the index by tenant, open batches counted and admitted as before', async () => {
    const { db: old, carryOver } = await olderDatabase('0042');
    const tenant = newTestId('tn_open_by_tenant_old');
    const b = await storedBatch(3, { tenant, concurrency: 2, db: old });
    const [first = '', second = ''] = b.items;
    await claimWindow(old, { batchId: b.id });
    expect(await admit(old, first, 1, Date.now())).toBe('admitted');
    await openBatchesOf(old, newTestId('tn_open_by_tenant_old_other'), 50);

    await carryOver();
    const index = await old
      .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'batches_open'`)
      .first<{ sql: string }>();
    expect(index?.sql).toMatch(/\(tenant, created_at\) WHERE completed_at IS NULL/);
    expect(await slotCounts(old, tenant)).toEqual({ running: 1, waiting: 1 });
    // A cap of one: the first holds it, so the second waits; then it takes the slot the first frees.
    const waiting = await admitStatement(old, second, 1, Date.now()).run();
    expect(waiting.meta.changes).toBe(0);
    expect(waiting.meta.rows_read).toBeLessThan(20);
    await old
      .prepare(`UPDATE evaluations SET status = 'succeeded', finished_at = ?, updated_at = ? WHERE id = ?`)
      .bind(Date.now(), Date.now(), first)
      .run();
    expect(await admit(old, second, 1, Date.now())).toBe('admitted');
  });
});
