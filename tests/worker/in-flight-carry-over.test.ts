/**
 * Migration 0033 (`0033_one_in_flight_index.sql`): one index of the rows holding a running slot where there were
 * two. A slot is one index row written; the admission and the sweeper read the new index; a row an older
 * version left running without a slot is carried over with one, so the sweeper still finds it.
 */
import type { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { admitStatement, slotCounts } from '../../src/evaluations/admission.js';
import { findStalled } from '../../src/evaluations/job-rows.js';
import { insertJob, newTestId, PAIRWISE, testEnv } from './helpers.js';

type Migrations = Parameters<typeof applyD1Migrations>[1];
const MIGRATIONS = (env as unknown as { TEST_MIGRATIONS: Migrations }).TEST_MIGRATIONS;
const db = testEnv.DB;

/** The statements of migration 0033 that move data (its DDL already ran on this database). */
function carryOver(): string[] {
  return MIGRATIONS.filter((m) => m.name.startsWith('0033'))
    .flatMap((m) => m.queries)
    .filter((q) => !/^\s*(CREATE|DROP)\b/i.test(q.replace(/^(\s*--[^\n]*\n)*/, '')));
}

describe('migration 0033: one in-flight index', () => {
  it('leaves one index of the slot holders, and a slot is one index row written', async () => {
    const { results } = await db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'evaluations' AND name LIKE ?`)
      .bind('evaluations_%')
      .all<{ name: string }>();
    const names = results.map((r) => r.name);
    expect(names).toContain('evaluations_in_flight');
    expect(names).not.toContain('evaluations_tenant_slots');
    expect(names).not.toContain('evaluations_stalled');
    const tenant = newTestId('tn_in_flight');
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    const taken = await admitStatement(db, id, 100, Date.now()).run();
    // The row and its entry in `evaluations_in_flight`: three before (the slots' index and the sweeper's). A batch
    // item's slot is the row alone since migration 0037 (./batch-open-carry-over.test.ts).
    expect(taken.meta).toMatchObject({ changes: 1, rows_written: 2 });
    expect(await slotCounts(db, tenant)).toEqual({ running: 1, waiting: 0 });
  });

  it('carries a row left running without a slot over with one: counted and swept as before', async () => {
    const tenant = newTestId('tn_in_flight_old');
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    const started = Date.now() - 600_000;
    await db
      .prepare(`UPDATE evaluations SET status = 'running', started_at = ?, updated_at = ? WHERE id = ?`)
      .bind(started, started, id)
      .run();
    // Neither index sees it: not waiting (it runs) and no slot.
    expect(await findStalled(db, Date.now(), 1000)).not.toContain(id);
    const statements = carryOver();
    expect(statements).toHaveLength(1);
    await db.batch(statements.map((q) => db.prepare(q)));
    expect(await findStalled(db, Date.now(), 1000)).toContain(id);
    expect(await slotCounts(db, tenant)).toEqual({ running: 1, waiting: 0 });
    const row = await db.prepare('SELECT slot_at FROM evaluations WHERE id = ?').bind(id).first<{ slot_at: number }>();
    expect(row?.slot_at).toBe(started);
  });

  it('the sweeper still finds an evaluation outside a batch that waits for a slot', async () => {
    const { id } = await insertJob({
      preset: 'chateval-single',
      task: PAIRWISE,
      tenant: newTestId('tn_in_flight_wait'),
    });
    expect(await findStalled(db, Date.now() + 60_000, 1000)).toContain(id);
  });
});
