/**
 * @module
 * The object's SQLite schema as numbered migrations, run in the constructor (synchronous SQLite: no
 * `blockConcurrencyWhile` needed). The applied version lives in `schema_version`; each migration and
 * its version bump commit together (`transactionSync`), so an object is never half-migrated.
 *
 * Objects created before versioning have the tables without a `schema_version` row, so migrations 1
 * and 2 are written to be no-ops on them (`IF NOT EXISTS`, add a column only if missing). Append new
 * migrations at the end; never edit an applied one.
 */
import { baselineEngineVersion } from '../../src/engine/version.js';
import { log } from '../../src/log/log.js';

/** One schema step. `up` runs inside a transaction with the version bump. */
export interface Migration {
  /** 1, 2, 3, … in order, no gaps. */
  readonly version: number;
  readonly name: string;
  up(sql: SqlStorage): void;
}

/** Adds a column unless the table has it (objects migrated by hand before versioning may have it). */
function addColumn(sql: SqlStorage, table: string, column: string, definition: string): void {
  const columns = sql.exec<{ name: string }>(`PRAGMA table_info(${table})`).toArray();
  if (!columns.some((c) => c.name === column)) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}

/** The object's migrations, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'init',
    up(sql) {
      // `evaluation`: the one evaluation this object runs. `ended`: an end that came before it ran
      // here. `results`: every LLM result, keyed by call id, in recording order (`seq`).
      sql.exec(`
        CREATE TABLE IF NOT EXISTS evaluation (
          singleton      INTEGER PRIMARY KEY CHECK (singleton = 1),
          id             TEXT NOT NULL,
          tenant         TEXT NOT NULL,
          method         TEXT NOT NULL,
          config         TEXT NOT NULL,
          task           TEXT NOT NULL,
          status         TEXT NOT NULL,
          calls_planned  INTEGER NOT NULL,
          started_at     INTEGER NOT NULL,
          updated_at     INTEGER NOT NULL,
          error          TEXT,
          finalized      INTEGER NOT NULL DEFAULT 0,
          alarm_failures INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE IF NOT EXISTS ended (
          singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
          id        TEXT NOT NULL,
          status    TEXT NOT NULL,
          error     TEXT,
          at        INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS results (
          seq         INTEGER PRIMARY KEY AUTOINCREMENT,
          call_id     TEXT NOT NULL UNIQUE,
          agent       TEXT NOT NULL,
          label       TEXT NOT NULL,
          stage       TEXT NOT NULL,
          ok          INTEGER NOT NULL,
          result      TEXT NOT NULL,
          attempts    INTEGER NOT NULL,
          started_at  INTEGER NOT NULL,
          finished_at INTEGER NOT NULL,
          latency_ms  INTEGER
        );`);
    },
  },
  {
    version: 2,
    name: 'finalize_failures',
    // Consecutive failed final writes (backoff and the give-up check), in storage so eviction keeps it.
    up: (sql) => {
      addColumn(sql, 'evaluation', 'finalize_failures', 'INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 3,
    name: 'engine_version',
    up(sql) {
      // The engine version the evaluation started with (src/engine/version.ts). Evaluations already
      // here started before versions were pinned: they ran the baseline version.
      addColumn(sql, 'evaluation', 'engine_version', 'TEXT');
      for (const row of sql
        .exec<{ method: string }>('SELECT method FROM evaluation WHERE engine_version IS NULL')
        .toArray()) {
        sql.exec('UPDATE evaluation SET engine_version = ?', baselineEngineVersion(row.method));
      }
      // The verdict (without transcript) once the protocol concluded: terminal events and the final
      // write read it instead of replaying, so they work after a deploy changed the engine.
      addColumn(sql, 'evaluation', 'verdict', 'TEXT');
    },
  },
  {
    version: 4,
    name: 'erasure',
    // The caller deleted the evaluation while its final write was still owed: erase once it lands
    // (./erase.ts), so the usage of calls in flight still reaches D1 for billing.
    up: (sql) => {
      sql.exec(
        'CREATE TABLE IF NOT EXISTS erasure (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), requested_at INTEGER NOT NULL)',
      );
    },
  },
  {
    version: 5,
    name: 'rubric',
    // The rubric's content the evaluation judges by (JSON, src/engine/rubric.ts), next to config and task,
    // so a replay after eviction rebuilds the same state and prompts. NULL: no rubric.
    up: (sql) => {
      addColumn(sql, 'evaluation', 'rubric', 'TEXT');
    },
  },
  {
    version: 6,
    name: 'tiers',
    up(sql) {
      // The service tier the evaluation runs at (src/tiers/) and what a flex refusal leads to.
      addColumn(sql, 'evaluation', 'tier', "TEXT NOT NULL DEFAULT 'standard'");
      addColumn(sql, 'evaluation', 'flex_fallback', "TEXT NOT NULL DEFAULT 'standard'");
      // The group its batch-tier calls are to be waved with (its batch, else itself; docs/architecture.md).
      addColumn(sql, 'evaluation', 'wave_group', 'TEXT');
      // Calls begun and not stored yet (./pending.ts): an attempt out from this object, a call continued in a
      // later invocation or waiting for flex.
      sql.exec(PENDING_TABLE);
    },
  },
  {
    version: 7,
    name: 'transcript',
    // The transcript as the final write built it (JSON array of src/evaluations/transcript-rows.ts rows, the
    // usage of each call on it): kept here, with the evaluation, instead of one D1 row per reply.
    up: (sql) => {
      sql.exec(
        'CREATE TABLE IF NOT EXISTS transcript (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), rows TEXT NOT NULL)',
      );
    },
  },
  {
    version: 8,
    name: 'lazy_tables',
    // Nothing to change in an object that has tables: from this version on, a new object is made without the
    // rarely written tables ({@link LAZY_TABLES}), which are made when first written. The number tells code
    // from before it (which expects them) that the object is newer than it knows.
    up: () => undefined,
  },
  {
    version: 9,
    name: 'transcript_column',
    // The transcript moves into the `evaluation` row (its `transcript` column) and its table goes: every table a
    // new object makes costs the runtime CPU and a page of storage on every evaluation. A transcript already
    // saved is carried over.
    up: (sql) => {
      addColumn(sql, 'evaluation', 'transcript', 'TEXT');
      const tables = sql.exec<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'transcript'").one();
      if (tables.n === 0) return;
      sql.exec('UPDATE evaluation SET transcript = (SELECT rows FROM transcript)');
      sql.exec('DROP TABLE transcript');
    },
  },
];

/** The schema version this code expects: the last migration's. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** The `pending` table (migration 5). */
const PENDING_TABLE = `
  CREATE TABLE IF NOT EXISTS pending (
    call_id     TEXT PRIMARY KEY,
    tier        TEXT NOT NULL,
    launched_at INTEGER,
    attempts    TEXT NOT NULL DEFAULT '[]',
    first_at    INTEGER NOT NULL,
    not_before  INTEGER,
    wave        TEXT,
    sync        INTEGER NOT NULL DEFAULT 0
  );`;

/**
 * The tables a new object is made without, each made by its DDL (`IF NOT EXISTS`, the shape migrations 1 and 4
 * give it) when first written: `ended` (an end that came before the evaluation ran here) and `erasure` (a
 * delete waiting for the final write) are written by few evaluations, and every table a new object makes
 * costs the runtime CPU on every evaluation (its DDL parsed, `sqlite_master` written and read back).
 */
export const LAZY_TABLES = {
  ended: `CREATE TABLE IF NOT EXISTS ended (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    id        TEXT NOT NULL,
    status    TEXT NOT NULL,
    error     TEXT,
    at        INTEGER NOT NULL
  )`,
  erasure:
    'CREATE TABLE IF NOT EXISTS erasure (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), requested_at INTEGER NOT NULL)',
  // A new single evaluation's job, held before D1 knows it until it starts (src/evaluations/held-start.ts).
  held: 'CREATE TABLE IF NOT EXISTS held (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), job TEXT NOT NULL)',
} as const;

/** A table of {@link LAZY_TABLES}. */
export type LazyTable = keyof typeof LAZY_TABLES;

/** The tables {@link MIGRATIONS} create (an object with none of them has never been migrated). */
const OWN_TABLES = [
  'schema_version',
  'evaluation',
  'ended',
  'results',
  'erasure',
  'pending',
  'transcript',
  'held',
] as const;

/**
 * The schema at {@link SCHEMA_VERSION} in one statement, for an object that has none yet (every new
 * evaluation): what {@link MIGRATIONS} build step by step, without their table rewrites (`ALTER TABLE`)
 * and checks, and without {@link LAZY_TABLES}. `results` has no `AUTOINCREMENT`: its rows are never deleted
 * one by one, so SQLite's next rowid keeps the recording order without the `sqlite_sequence` table and its
 * write per result. Each table a new object makes is CPU on every evaluation (BENCHMARKS.md, "less CPU per
 * verdict"). `tests/worker/pipeline-do-schema.test.ts` checks it gives exactly the tables and columns the
 * migrations give; a new migration must be added here too (the test fails until it is).
 */
const CURRENT_SCHEMA = `
  CREATE TABLE schema_version (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL);
  CREATE TABLE evaluation (
    singleton         INTEGER PRIMARY KEY CHECK (singleton = 1),
    id                TEXT NOT NULL,
    tenant            TEXT NOT NULL,
    method            TEXT NOT NULL,
    config            TEXT NOT NULL,
    task              TEXT NOT NULL,
    status            TEXT NOT NULL,
    calls_planned     INTEGER NOT NULL,
    started_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    error             TEXT,
    finalized         INTEGER NOT NULL DEFAULT 0,
    alarm_failures    INTEGER NOT NULL DEFAULT 0,
    finalize_failures INTEGER NOT NULL DEFAULT 0,
    engine_version    TEXT,
    verdict           TEXT,
    rubric            TEXT,
    tier              TEXT NOT NULL DEFAULT 'standard',
    flex_fallback     TEXT NOT NULL DEFAULT 'standard',
    wave_group        TEXT,
    transcript        TEXT
  );
  CREATE TABLE results (
    seq         INTEGER PRIMARY KEY,
    call_id     TEXT NOT NULL UNIQUE,
    agent       TEXT NOT NULL,
    label       TEXT NOT NULL,
    stage       TEXT NOT NULL,
    ok          INTEGER NOT NULL,
    result      TEXT NOT NULL,
    attempts    INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    latency_ms  INTEGER
  );
  ${PENDING_TABLE}
  INSERT INTO schema_version (singleton, version) VALUES (1, ${SCHEMA_VERSION});`;

/** What {@link openSchema} found. */
export interface OpenedSchema {
  /** The schema version before the call (0: a new object, made now, or one from before versioning). */
  before: number;
  /** Whether this call made the object's schema: its tables are known to be empty. */
  madeNow: boolean;
  /** The {@link LAZY_TABLES} the object does not have yet. */
  missing: Set<LazyTable>;
}

/**
 * Brings the object's SQLite to {@link SCHEMA_VERSION}, applying each missing migration in its own
 * transaction, and says which {@link LAZY_TABLES} it lacks. Idempotent; cheap when up to date: two reads
 * (which of its tables exist, then the version), no DDL; a new object reads once, then makes its schema and
 * version in one statement.
 * A stored version newer than this code's (a rollback after a deploy that migrated) is left alone. Rolling
 * back is not safe across every version: code from before version 8 expects the lazy tables and fails on an
 * object made without them, and code from before version 9 writes the transcript to its own table, which
 * version 9 folds into a column of the `evaluation` row and drops.
 */
export function openSchema(storage: DurableObjectStorage): OpenedSchema {
  const sql = storage.sql;
  const present = tablesPresent(sql);
  const missing = (tables: Set<string>) =>
    new Set((Object.keys(LAZY_TABLES) as LazyTable[]).filter((t) => !tables.has(t)));
  if (present.size === 0) {
    storage.transactionSync(() => sql.exec(CURRENT_SCHEMA));
    return { before: 0, madeNow: true, missing: missing(present) };
  }
  // Up to date (every wake of an object made by this code): one more read, and no DDL at all.
  if (present.has('schema_version')) {
    const version = sql.exec<{ version: number }>('SELECT version FROM schema_version').toArray()[0]?.version;
    if (version === SCHEMA_VERSION) return { before: version, madeNow: false, missing: missing(present) };
  }
  // Migrations 1 and 4 make the lazy tables of an object older than version 4, but not of one made at version 8
  // or later without them: read again what the object has now.
  const before = migrateStepwise(storage);
  return { before, madeNow: false, missing: missing(tablesPresent(sql)) };
}

/**
 * The read of {@link tablesPresent}, built once with the names as literals: the statement runs on every object's
 * start (every evaluation), where building its text and binding seven arguments each time cost CPU for nothing.
 */
const TABLES_PRESENT_SQL = `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${OWN_TABLES.map((t) => `'${t}'`).join(', ')})`;

/** Which of {@link OWN_TABLES} the object has. */
function tablesPresent(sql: SqlStorage): Set<string> {
  const present = new Set<string>();
  for (const row of sql.exec<{ name: string }>(TABLES_PRESENT_SQL)) present.add(row.name);
  return present;
}

/**
 * {@link openSchema} for callers that need only the version before the call.
 * @returns the schema version before the call.
 */
export function migrate(storage: DurableObjectStorage): number {
  return openSchema(storage).before;
}

/**
 * {@link openSchema} one migration at a time: for objects that have tables already (older versions, or
 * objects from before versioning). Exported for the test that compares it with {@link CURRENT_SCHEMA}.
 */
export function migrateStepwise(storage: DurableObjectStorage): number {
  const sql = storage.sql;
  sql.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), version INTEGER NOT NULL)',
  );
  const before = sql.exec<{ version: number }>('SELECT version FROM schema_version').toArray()[0]?.version ?? 0;
  if (before > SCHEMA_VERSION) log('warn', 'do.schema_newer', { version: before, known: SCHEMA_VERSION });
  for (const m of MIGRATIONS) {
    if (m.version <= before) continue;
    storage.transactionSync(() => {
      m.up(sql);
      sql.exec('INSERT OR REPLACE INTO schema_version (singleton, version) VALUES (1, ?)', m.version);
    });
  }
  return before;
}
