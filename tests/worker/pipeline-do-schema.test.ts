/**
 * The object's numbered SQLite migrations (durable-objects/evaluation/migrations.ts): an object created
 * before versioning, with or without the hand-added `finalize_failures` column, is brought to the
 * current schema with its rows kept, and running the migrations again changes nothing; a new object gets
 * the current schema in one statement, with exactly the tables, columns and indexes the migrations give once
 * its lazy tables are made (it is made without them, and without `sqlite_sequence`).
 */
import { describe, expect, it } from 'vitest';
import {
  LAZY_TABLES,
  MIGRATIONS,
  migrate,
  migrateStepwise,
  SCHEMA_VERSION,
} from '../../durable-objects/evaluation/migrations.js';
import { EvaluationStore } from '../../durable-objects/evaluation/storage.js';
import { newTestId, runInTestObject } from './helpers.js';

/** The `evaluation` table as objects created before versioning have it. */
const LEGACY_EVALUATION = `CREATE TABLE evaluation (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1), id TEXT NOT NULL, tenant TEXT NOT NULL, method TEXT NOT NULL,
  config TEXT NOT NULL, task TEXT NOT NULL, status TEXT NOT NULL, calls_planned INTEGER NOT NULL, started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, error TEXT, finalized INTEGER NOT NULL DEFAULT 0, alarm_failures INTEGER NOT NULL DEFAULT 0`;

/**
 * Rebuilds the object behind `sql` as version-8 code left it: migrations 1-8, its lazy tables made or not (that
 * code made a new object without them), and one evaluation row of `status`.
 */
function asVersion8(sql: SqlStorage, o: { lazyTables: boolean; status: string }): void {
  for (const t of ['schema_version', 'evaluation', 'results', 'pending']) sql.exec(`DROP TABLE ${t}`);
  sql.exec(
    'CREATE TABLE schema_version (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL)',
  );
  for (const m of MIGRATIONS.filter((m) => m.version <= 8)) m.up(sql);
  if (!o.lazyTables) for (const t of Object.keys(LAZY_TABLES)) sql.exec(`DROP TABLE IF EXISTS ${t}`);
  sql.exec('INSERT INTO schema_version (singleton, version) VALUES (1, 8)');
  sql.exec(
    `INSERT INTO evaluation (singleton, id, tenant, method, config, task, status, calls_planned, started_at, updated_at)
     VALUES (1, 'ev', 't', 'debate', '{}', '{}', ?, 1, 1, 2)`,
    o.status,
  );
}

describe('object schema migrations', () => {
  for (const withFinalizeFailures of [false, true]) {
    it(`an object from before versioning${withFinalizeFailures ? ' (finalize_failures added by hand)' : ''} migrates and keeps its rows`, async () => {
      const id = newTestId('ev_schema');
      const result = await runInTestObject(id, (_o, state) => {
        const sql = state.storage.sql;
        // This object was migrated by its constructor: rebuild the legacy layout in its place.
        sql.exec('DROP TABLE schema_version');
        sql.exec('DROP TABLE evaluation');
        sql.exec(
          `${LEGACY_EVALUATION}${withFinalizeFailures ? ', finalize_failures INTEGER NOT NULL DEFAULT 3' : ''})`,
        );
        sql.exec(
          `INSERT INTO evaluation (singleton, id, tenant, method, config, task, status, calls_planned, started_at, updated_at)
           VALUES (1, ?, 't', 'debate', '{}', '{}', 'running', 7, 1, 2)`,
          id,
        );
        const before = migrate(state.storage);
        const again = migrate(state.storage);
        const row = sql
          .exec<{ engine_version: string; finalize_failures: number; verdict: string | null; calls_planned: number }>(
            'SELECT engine_version, finalize_failures, verdict, calls_planned FROM evaluation',
          )
          .one();
        return { before, again, row };
      });
      expect(result.before).toBe(0);
      expect(result.again).toBe(SCHEMA_VERSION);
      expect(result.row).toEqual({
        engine_version: '1/debate@1',
        finalize_failures: withFinalizeFailures ? 3 : 0,
        verdict: null,
        calls_planned: 7,
      });
    });
  }

  it('a new object gets in one statement exactly the schema the migrations build step by step', async () => {
    const tables = ['schema_version', 'evaluation', 'ended', 'results', 'erasure', 'pending'];
    const { fresh, stepwise, version, made } = await runInTestObject(newTestId('ev_schema_fresh'), (_o, state) => {
      const sql = state.storage.sql;
      // The constructor made the object without its lazy tables (nor `sqlite_sequence`)…
      const made = sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .toArray()
        .map((r) => r.name)
        .filter((n) => !n.startsWith('_cf_'));
      // …which are made as the store makes them when first written.
      for (const ddl of Object.values(LAZY_TABLES)) sql.exec(ddl);
      const shape = () =>
        Object.fromEntries(
          tables.map((t) => [
            t,
            {
              columns: sql.exec(`PRAGMA table_info(${t})`).toArray(),
              indexes: sql
                .exec(`PRAGMA index_list(${t})`)
                .toArray()
                .map((i) => ({ unique: i.unique, origin: i.origin })),
            },
          ]),
        );
      // The constructor migrated this new object in one statement.
      const fromScratch = shape();
      const storedVersion = sql.exec<{ version: number }>('SELECT version FROM schema_version').one().version;
      for (const t of tables) sql.exec(`DROP TABLE ${t}`);
      migrateStepwise(state.storage);
      return { fresh: fromScratch, stepwise: shape(), version: storedVersion, made };
    });
    expect(made).toEqual(['evaluation', 'pending', 'results', 'schema_version']);
    expect(version).toBe(SCHEMA_VERSION);
    expect(fresh).toEqual(stepwise);
    expect(Object.values(fresh).every((t) => t.columns.length > 0)).toBe(true);
  });

  it('an object of version 8 keeps its saved transcript, moved into the evaluation row, and loses its table', async () => {
    const result = await runInTestObject(newTestId('ev_schema_transcript'), (_o, state) => {
      const sql = state.storage.sql;
      // Rebuild this object as version 8 made it: the `transcript` table, one transcript saved in it.
      asVersion8(sql, { lazyTables: true, status: 'succeeded' });
      sql.exec('INSERT INTO transcript (singleton, rows) VALUES (1, \'[{"callId":"c1"}]\')');
      const before = migrate(state.storage);
      const tables = sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'transcript'")
        .toArray();
      const row = sql.exec<{ transcript: string | null }>('SELECT transcript FROM evaluation').one();
      return { before, tables, transcript: row.transcript };
    });
    expect(result.before).toBe(8);
    expect(result.tables).toEqual([]);
    expect(result.transcript).toBe('[{"callId":"c1"}]');
  });

  it('an object version 8 made without its lazy tables still makes them when first written, after migration 9', async () => {
    const result = await runInTestObject(newTestId('ev_schema_lazy8'), (_o, state) => {
      const sql = state.storage.sql;
      // As version-8 code made a new object: the lazy tables (`ended`, `erasure`) not made yet.
      asVersion8(sql, { lazyTables: false, status: 'running' });
      // The store opens it as a woken instance does: migration 9 runs, then every lazy table is read or written.
      const store = new EvaluationStore(state.storage);
      const before = { ended: store.ended(), erase: store.eraseRequested() };
      store.requestErase(5);
      store.putEnded({ id: 'ev', status: 'cancelled', error: null, at: 6 });
      return { before, erase: store.eraseRequested(), ended: store.ended() };
    });
    expect(result.before).toEqual({ ended: null, erase: false });
    expect(result.erase).toBe(true);
    expect(result.ended).toEqual({ id: 'ev', status: 'cancelled', error: null, at: 6 });
  });

  it('an up-to-date object wakes with two reads and no DDL', async () => {
    const statements = await runInTestObject(newTestId('ev_schema_wake'), (_o, state) => {
      const seen: string[] = [];
      const sql = state.storage.sql;
      // The object's storage as migrate uses it, with every statement it runs recorded.
      const recording = {
        sql: {
          exec: (query: string, ...bindings: unknown[]) => {
            seen.push(query);
            return sql.exec(query, ...bindings);
          },
        },
        transactionSync: <T>(fn: () => T): T => state.storage.transactionSync(fn),
      };
      expect(migrate(recording as unknown as DurableObjectStorage)).toBe(SCHEMA_VERSION);
      return seen;
    });
    expect(statements).toHaveLength(2);
    expect(statements.filter((q) => /\b(CREATE|ALTER|INSERT)\b/i.test(q))).toEqual([]);
  });
});
