/**
 * The worker projects' D1 schema for each test file (tests/worker/fresh-storage.ts): the runtime's first
 * file applies migrations/ in one batch, and every later file of that runtime gets the schema those
 * migrations left, replayed from `sqlite_master` in one batch of ~85 CREATEs (one per table, index and
 * trigger) instead of the ~1,100 lines of every migration with their rebuilds and copies. Each of ~135
 * files paid ~170 ms for the migrations at load 15 and pays ~110 ms for the replay (reset included:
 * ~260 ms → ~170 ms). The replay copies each object's own CREATE text, so a test that reads a table's
 * definition (tests/worker/pipeline-status.test.ts) sees the migrations' text.
 */
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

type Migrations = Parameters<typeof applyD1Migrations>[1];

/** One object of the migrated schema, as `sqlite_master` states it. */
interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

/**
 * The schema migrations/ leave on an empty database, with the `d1_migrations` names in order; undefined
 * until a database of this runtime was migrated from empty, or when the migrations left rows in a table (a
 * replay of the schema alone would then differ).
 */
let snapshot: { objects: SchemaRow[]; books: string[] } | undefined;

/** `applyD1Migrations`' table of books, to the character: the schema is the same whichever way a database got it. */
const BOOKS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations (
\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,
\t\tname       TEXT UNIQUE,
\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
\t);`;

/** Tables first, then what is built on them: a later object may name an earlier one, never the reverse. */
const KIND_ORDER: Record<string, number> = { table: 0, index: 1, view: 2, trigger: 3 };

/** How this runtime's databases got their schema so far: replayed, every migration in one batch, or one by one. */
export const migrationPaths = { replayed: 0, batched: 0, stepwise: 0 };

/**
 * Applies the migrations (the pool's reading of migrations/, `TEST_MIGRATIONS`) to the D1 databases bound as
 * `bindings` (e.g. `['DB']`, or the shards' `DB_00`…), side by side: each file starts on empty storage.
 */
export async function migrate(bindings: readonly string[]): Promise<void> {
  const all = env as unknown as Record<string, unknown> & { TEST_MIGRATIONS: Migrations };
  await Promise.all(bindings.map((b) => migrateEmpty(all[b] as D1Database, all.TEST_MIGRATIONS)));
}

/**
 * An empty database gets the snapshot, or else every migration in one D1 batch (one transaction, one round
 * trip) with the `d1_migrations` rows wrangler and `applyD1Migrations` keep, and then serves as the
 * snapshot. A database that already has some tables fails the batch, which leaves nothing behind, and gets
 * `applyD1Migrations` (two round trips and one batch per migration); when that fails too, the error names both
 * failures and has the first as its cause.
 */
async function migrateEmpty(db: D1Database, migrations: Migrations): Promise<void> {
  const book = (name: string) => db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name);
  const known = snapshot;
  try {
    if (known) {
      await db.batch([...known.objects.map((o) => db.prepare(o.sql)), ...known.books.map(book)]);
      migrationPaths.replayed += 1;
      return;
    }
    await db.batch([
      db.prepare(BOOKS_TABLE),
      ...migrations.flatMap((m) => [...m.queries.map((q) => db.prepare(q)), book(m.name)]),
    ]);
    migrationPaths.batched += 1;
  } catch (first) {
    // The fallback's own failure hides why the one batch failed (a transient error there surfaces as "table
    // evaluations already exists" here): both are thrown, the first as the cause.
    try {
      await applyD1Migrations(db, migrations);
    } catch (second) {
      throw new Error(
        `D1 migrations failed one by one (${messageOf(second)}) after the ${known ? 'replay' : 'batch'} failed (${messageOf(first)})`,
        { cause: first },
      );
    }
    migrationPaths.stepwise += 1;
    return;
  }
  snapshot ??= await schemaOf(db, migrations);
}

/** An error's message, or what was thrown as text. */
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The schema of `db`, just migrated from empty, or undefined when the migrations left rows besides their books. */
async function schemaOf(db: D1Database, migrations: Migrations): Promise<typeof snapshot> {
  const { results } = await db
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
         WHERE sql IS NOT NULL AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' ORDER BY rowid`,
    )
    .all<SchemaRow>();
  const tables = results.filter((o) => o.type === 'table' && o.name !== 'd1_migrations');
  const counts = await db.batch<{ n: number }>(
    tables.map((t) => db.prepare(`SELECT count(*) AS n FROM "${t.name.replaceAll('"', '""')}"`)),
  );
  if (counts.some((c) => (c.results[0]?.n ?? 0) > 0)) return undefined;
  const objects = results
    .map((o, i) => ({ o, i }))
    .sort((a, b) => (KIND_ORDER[a.o.type] ?? 9) - (KIND_ORDER[b.o.type] ?? 9) || a.i - b.i)
    .map(({ o }) => o);
  return { objects, books: migrations.map((m) => m.name) };
}

/**
 * Drops every table of `db` (foreign keys deferred, so parents go with their children's rows): a file that builds
 * a shard's binding from an old migration starts from empty even if `reset()` left an earlier file's schema there,
 * as seen twice on `DB_03` under load without a known cause.
 */
export async function emptyDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*'",
    )
    .all<{ name: string }>();
  if (results.length === 0) return;
  await db.batch([
    db.prepare('PRAGMA defer_foreign_keys = on'),
    ...results.map((t) => db.prepare(`DROP TABLE "${t.name.replaceAll('"', '""')}"`)),
  ]);
}

/**
 * A database as an older deployment left it: a shard's binding (`DB_03`, which no code of the worker project reaches
 * at `D1_SHARDS` 0) emptied, then given every migration named below `first` (e.g. `'0042'`), each in one batch as
 * wrangler applies a file. `carryOver()` applies `first` and every later one the same way.
 */
export async function olderDatabase(first: string): Promise<{ db: D1Database; carryOver: () => Promise<void> }> {
  const all = env as unknown as Record<string, unknown> & { TEST_MIGRATIONS: Migrations };
  const db = all.DB_03 as D1Database;
  const apply = async (pick: (name: string) => boolean) => {
    for (const m of all.TEST_MIGRATIONS.filter((m) => pick(m.name)))
      await db.batch(m.queries.map((q) => db.prepare(q)));
  };
  await emptyDatabase(db);
  await apply((name) => name < first);
  return { db, carryOver: () => apply((name) => name >= first) };
}
