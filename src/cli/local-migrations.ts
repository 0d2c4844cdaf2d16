/**
 * @module
 * Applies wrangler.toml's D1 migrations to the local state directory as `wrangler d1 migrations apply
 * --local --persist-to` does (the same `d1_migrations` table, the same statements, one transaction per
 * migration with its row), on one Miniflare instance instead of one per statement group: that command
 * starts seven workerd processes and takes seconds for nothing to apply. Node only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as miniflareApi from 'miniflare';
import * as wranglerApi from 'wrangler';

/** The D1 part of wrangler.toml, as wrangler's reader returns it. */
interface D1Declaration {
  binding: string;
  database_id?: string;
  preview_database_id?: string;
  migrations_dir?: string;
  migrations_table?: string;
}

const readConfig = wranglerApi.unstable_readConfig as unknown as (args: { config: string }) => {
  d1_databases: D1Declaration[];
};
const splitSqlQuery = wranglerApi.unstable_splitSqlQuery;

/** The D1 binding API used here (miniflare's own types do not resolve against this project's zod). */
interface LocalD1 {
  prepare(query: string): { all(): Promise<{ results: Record<string, unknown>[] }> };
  batch(statements: unknown[]): Promise<unknown[]>;
}
interface D1Miniflare {
  getD1Database(binding: string): Promise<LocalD1>;
  dispose(): Promise<void>;
}
const Miniflare = miniflareApi.Miniflare as unknown as new (options: Record<string, unknown>) => D1Miniflare;

/** The `.sql` files of a migrations folder, in wrangler's order (by number, then name). */
function migrationFiles(dir: string): string[] {
  const numberOf = (name: string) => parseInt(name.split('_')[0] ?? '', 10);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .sort((a, b) => numberOf(a) - numberOf(b));
}

/**
 * Applies every migration not yet recorded in each D1 database of `configPath` to the local state in
 * `persistTo` (`<persistTo>/v3/d1`, where the local runtime and wrangler keep it). Resolves to the names
 * applied. Rejects naming the migration that failed; the ones before it stay applied, as with wrangler.
 */
export async function applyLocalMigrations(configPath: string, persistTo: string): Promise<string[]> {
  const databases = readConfig({ config: configPath }).d1_databases;
  if (databases.length === 0) return [];
  const ids = Object.fromEntries(
    databases.map((d) => [d.binding, d.preview_database_id ?? d.database_id ?? d.binding] as const),
  );
  const mf = new Miniflare({ modules: true, script: '', d1Persist: join(persistTo, 'v3', 'd1'), d1Databases: ids });
  const applied: string[] = [];
  try {
    for (const d of databases) {
      const db = await mf.getD1Database(d.binding);
      const table = d.migrations_table ?? 'd1_migrations';
      const dir = resolve(dirname(configPath), d.migrations_dir ?? 'migrations');
      await db.batch([
        db.prepare(`CREATE TABLE IF NOT EXISTS ${table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`),
      ]);
      const done = new Set(
        (await db.prepare(`SELECT name FROM ${table} ORDER BY id`).all()).results.map((r) => String(r.name)),
      );
      for (const name of migrationFiles(dir).filter((f) => !done.has(f))) {
        const sql = `${readFileSync(join(dir, name), 'utf8')}\nINSERT INTO ${table} (name) values ('${name}');`;
        try {
          await db.batch(splitSqlQuery(sql).map((q) => db.prepare(q)));
        } catch (e) {
          const cause = (e as { cause?: unknown }).cause ?? e;
          throw new Error(`D1 migration ${name} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
        }
        applied.push(name);
      }
    }
  } finally {
    await mf.dispose();
  }
  return applied;
}
