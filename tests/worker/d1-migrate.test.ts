/**
 * Each test file's D1 schema (./d1-migrate.ts): the schema replayed from a migrated database is the one
 * migrations/ make, object by object, with the same books, so files after a runtime's first test what the
 * migrations make.
 */
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { emptyDatabase, migrate, migrationPaths } from './d1-migrate.js';

const all = env as unknown as Record<string, D1Database> & { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };

/** Every object of `db`'s schema with its CREATE text, and its books' names in order. */
async function schemaOf(db: D1Database) {
  const [objects, books] = await db.batch([
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT GLOB '_cf_*' ORDER BY type, name"),
    db.prepare('SELECT name FROM d1_migrations ORDER BY id'),
  ]);
  return { objects: objects?.results, books: books?.results };
}

it('replays the schema the migrations make, books included', async () => {
  // DB got its schema in this file's setup; DB_00 gets every migration one by one (the pool's own way), DB_01
  // the replay (this runtime's first file migrated its DB in one batch and kept what that made).
  await applyD1Migrations(all.DB_00 as D1Database, all.TEST_MIGRATIONS);
  const replayed = migrationPaths.replayed;
  const stepwise0 = migrationPaths.stepwise;
  await migrate(['DB_01']);
  await migrate(['DB_02']);
  // Both took the replay (a failed replay falls back to the migrations, right but slow: that must show here).
  expect(migrationPaths.replayed - replayed).toBe(2);
  expect(migrationPaths.stepwise).toBe(stepwise0);
  const stepwise = await schemaOf(all.DB_00 as D1Database);
  expect(stepwise.objects?.length).toBeGreaterThan(40);
  expect(stepwise.books?.length).toBe(all.TEST_MIGRATIONS.length);
  for (const binding of ['DB', 'DB_01', 'DB_02'])
    expect(await schemaOf(all[binding] as D1Database), binding).toEqual(stepwise);
});

it('when the fallback fails too, throws both failures with the first as the cause', async () => {
  // A table the migrations create, already there: the replay (or batch) fails on it, and so does the fallback.
  const db = all.DB_03 as D1Database;
  await emptyDatabase(db);
  await db.prepare('CREATE TABLE evaluations (id TEXT)').run();
  const error = await migrate(['DB_03']).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  const { message, cause } = error as Error;
  expect(message).toMatch(/^D1 migrations failed one by one \(.+\) after the (replay|batch) failed \(.+\)$/);
  expect(cause).toBeInstanceOf(Error);
  expect(message).toContain((cause as Error).message);
});
