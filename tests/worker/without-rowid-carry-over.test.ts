/**
 * Migration 0034 (`0034_evaluations_without_rowid.sql`): `evaluations` rebuilt as a `WITHOUT ROWID` table, so a
 * new row is one D1 row written fewer (no separate index of its primary key). An existing database carries over:
 * this file migrates a spare D1 binding up to 0033, writes rows the old layout's way (with a child row that names
 * one, which D1's foreign key check must let through the rebuild), applies 0034 and the migrations after it, and
 * reads the rows back the same, with the same indexes.
 */
import type { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from './d1-migrate.js';
import { testEnv } from './helpers.js';

type Migrations = Parameters<typeof applyD1Migrations>[1];
const MIGRATIONS = (env as unknown as { TEST_MIGRATIONS: Migrations }).TEST_MIGRATIONS;
/** A shard's binding, unused in this project (it runs with `D1_SHARDS` 0): a database of this file's own. */
const db = (testEnv as unknown as { DB_03: D1Database }).DB_03;

/** Runs the statements of the migrations `pick` selects, in one transaction each (as wrangler applies a file). */
async function apply(pick: (name: string) => boolean): Promise<void> {
  for (const m of MIGRATIONS.filter((m) => pick(m.name))) await db.batch(m.queries.map((q) => db.prepare(q)));
}

/** A row as the API's create writes one (the columns of `INSERT_COLUMNS` that matter here), with `id`. */
const insertRow = (id: string) =>
  db
    .prepare(
      `INSERT INTO evaluations (id, tenant, status, method, preset, config, config_hash, task, task_kind, created_at,
         updated_at, batch_id, batch_seq, winner, confidence, cost_usd)
       VALUES (?, 'tn_rowid', 'succeeded', 'debate', 'chateval-faireval', '', 'h1', '', 'pairwise', 1, 2, 'ba_rowid', ?, 'A', 0.75, 0.125)`,
    )
    .bind(id, Number(id.slice(-1)));

/** The names of the indexes on `evaluations` (not SQLite's own), sorted. */
async function indexNames(): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'evaluations' AND sql IS NOT NULL`)
    .all<{ name: string }>();
  return results.map((r) => r.name).sort();
}

describe('migration 0034: evaluations without rowid', () => {
  it('carries rows and their children over, keeps every index, and a new row writes one D1 row fewer', async () => {
    await emptyDatabase(db);
    await apply((name) => name < '0034');
    const before = await indexNames();
    const old = await insertRow('ev_rowid_old1').run();
    await db
      .prepare(`INSERT INTO verdict_texts (evaluation_id, verdict) VALUES ('ev_rowid_old1', '{"winner":"A"}')`)
      .run();
    const oldRow = await db.prepare(`SELECT * FROM evaluations WHERE id = 'ev_rowid_old1'`).first();

    await apply((name) => name.startsWith('0034'));
    const sql = await db
      .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'evaluations'`)
      .first<{ sql: string }>();
    expect(sql?.sql).toMatch(/WITHOUT ROWID\s*$/);
    expect(await indexNames()).toEqual(before);
    expect(await db.prepare(`SELECT * FROM evaluations WHERE id = 'ev_rowid_old1'`).first()).toEqual(oldRow);
    // The child row still names its evaluation, and the key is checked as before.
    const joined = await db
      .prepare(`SELECT v.verdict FROM verdict_texts v JOIN evaluations e ON e.id = v.evaluation_id`)
      .first<{ verdict: string }>();
    expect(joined?.verdict).toBe('{"winner":"A"}');
    await expect(
      db.prepare(`INSERT INTO verdict_texts (evaluation_id, verdict) VALUES ('ev_rowid_none', '{}')`).run(),
    ).rejects.toThrow(/FOREIGN KEY/);
    await expect(db.prepare(`DELETE FROM evaluations WHERE id = 'ev_rowid_old1'`).run()).rejects.toThrow(/FOREIGN KEY/);

    // The same insert after: the row and its indexes' entries, without the primary key's own index.
    const fresh = await insertRow('ev_rowid_new2').run();
    expect(fresh.meta.rows_written).toBe(old.meta.rows_written - 1);

    // The migrations after it still apply.
    await apply((name) => name > '0034');
    expect(await db.prepare(`SELECT count(*) AS n FROM evaluations`).first<{ n: number }>()).toEqual({ n: 2 });
  });
});
