/**
 * @module
 * Applies wrangler.toml's D1 migrations to the local state as `wrangler d1 migrations apply --local
 * --persist-to` does (the same `d1_migrations` table, the same statements, one transaction per migration
 * with its row), through the local runtime's own Miniflare instance before its Worker runs: first the
 * instance serves D1 alone ({@link d1OnlyOptions}), the migrations go in over HTTP, then `setOptions`
 * swaps the Worker in (a workerd restart). wrangler's command starts seven workerd processes, and a
 * second Miniflare instance cost 1-1.5 CPU-s a start. Once all went in, a marker in D1's persist folder
 * says so, and a later start on that state whose migrations and shard count match starts the Worker at once
 * ({@link startOnMigratedState}): one workerd start instead of two. The migrations come read and split beforehand
 * (./wrangler-config.ts `readWorkerSetup`, each file's recording row included), so no wrangler import is needed here. Node only.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { D1Migrations, MiniflareInstance, MiniflareOptions } from './worker-options.js';
import { Miniflare } from './worker-options.js';
import type { CarryOverDb, CarryOverReport, SqlStatement } from '../config/d1-carry-over.js';
import { carryOver } from '../config/d1-carry-over.js';
import { shardBindingNames } from '../config/d1-buckets.js';
import { configOf } from '../config/vars.js';

/**
 * Runs `statements` as one D1 batch (one transaction) on the database bound as `binding`; resolves to
 * each statement's rows, or rejects with D1's message.
 */
export type D1Batch = (
  binding: string,
  statements: readonly (string | SqlStatement)[],
) => Promise<Record<string, unknown>[][]>;

/**
 * The Worker of the D1-only instance: runs a POSTed batch on a bound database. Plain HTTP from Node
 * instead of Miniflare's binding proxy, whose first use starts a worker thread that loads Miniflare again
 * (about 0.5 CPU-s a start).
 */
const D1_BATCH_WORKER = `export default {
  async fetch(request, env) {
    const { binding, statements } = await request.json();
    const db = env[binding];
    try {
      const results = await db.batch(
        statements.map((q) => (typeof q === 'string' ? db.prepare(q) : db.prepare(q.sql).bind(...q.params))),
      );
      return Response.json(results.map((r) => r.results));
    } catch (e) {
      return Response.json({ error: String(e?.cause?.message ?? e?.message ?? e) }, { status: 500 });
    }
  },
};`;

/**
 * The options of a Miniflare instance that serves only the D1 databases of `options` (a Worker's
 * options) behind {@link d1BatchOver}'s Worker, on the same state and a port of its own: nothing of the
 * Worker runs (an alarm left in the state would fire as soon as it does, and must find its tables).
 */
export function d1OnlyOptions(options: MiniflareOptions): MiniflareOptions {
  return {
    modules: true,
    script: D1_BATCH_WORKER,
    host: '127.0.0.1',
    port: 0,
    d1Databases: options.d1Databases,
    defaultPersistRoot: options.defaultPersistRoot,
    cf: false,
    ...(options.log === undefined ? {} : { log: options.log }),
  };
}

/**
 * A batch whose exchange with the D1-only instance broke (no answer read: the connection failed or closed),
 * unlike D1's own error, which comes answered. Whether the batch ran is not known.
 */
export class D1ConnectionError extends Error {
  constructor(binding: string, cause: unknown) {
    super(`no answer from the local D1 (${binding}): ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/**
 * Batches on the D1-only instance serving at `url` ({@link d1OnlyOptions}); a broken exchange rejects with
 * {@link D1ConnectionError}, D1's own error with its message.
 */
export function d1BatchOver(url: URL): D1Batch {
  return async (binding, statements) => {
    let text: string;
    try {
      text = await (await fetch(url, { method: 'POST', body: JSON.stringify({ binding, statements }) })).text();
    } catch (e) {
      throw new D1ConnectionError(binding, e);
    }
    const body = JSON.parse(text) as Record<string, unknown>[][] | { error: string };
    if ('error' in body) throw new Error(body.error);
    return body;
  };
}

/**
 * Applies every migration of `databases` not yet recorded in its table, each as one `batch`.
 * Resolves to the names applied. Rejects naming the migration that failed; the ones before it stay
 * applied, as with wrangler.
 */
export async function applyMigrations(batch: D1Batch, databases: readonly D1Migrations[]): Promise<string[]> {
  const applied: string[] = [];
  for (const d of databases) {
    const [, recorded = []] = await batch(d.binding, [
      `CREATE TABLE IF NOT EXISTS ${d.table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
      `SELECT name FROM ${d.table} ORDER BY id`,
    ]);
    const done = new Set(recorded.map((r) => String(r.name)));
    for (const { name, statements } of d.migrations.filter((m) => !done.has(m.name))) {
      try {
        await batch(d.binding, statements);
      } catch (e) {
        throw new Error(`D1 migration ${name} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      applied.push(name);
    }
  }
  return applied;
}

/**
 * How many times at most {@link migrateLocalState} takes its steps when batches' exchanges break: a break is
 * rare (a starved process), and a runtime that is gone breaks each take at its first batch.
 */
export const STEP_ATTEMPTS = 4;

/**
 * `steps`, taken again (at most {@link STEP_ATTEMPTS} times in all) when a batch's exchange broke
 * ({@link D1ConnectionError}): workerd closes a kept-alive connection idle for 5 s, and a process starved for
 * longer (a low-priority one on a loaded machine) sends its next batch on the closed socket ("fetch failed:
 * other side closed"). The steps resume where they stand: a migration's batch records it in the same
 * transaction, and the carry-over is resumable. D1's own errors, and a last broken exchange, reject.
 */
async function takenAgainIfUnreached<T>(steps: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++)
    try {
      return await steps();
    } catch (e) {
      if (attempt >= STEP_ATTEMPTS || !unreached(e)) throw e;
    }
}

/** Whether `e` or one of its causes is a {@link D1ConnectionError}. */
function unreached(e: unknown): boolean {
  for (let c = e; c instanceof Error; c = c.cause) if (c instanceof D1ConnectionError) return true;
  return false;
}

/** Makes a Miniflare instance (a test counts the starts with its own). */
export type MiniflareFactory = (options: MiniflareOptions) => MiniflareInstance;

const newMiniflare: MiniflareFactory = (options) => new Miniflare(options);

/**
 * The runtime's migration steps on the state of `options` (a Worker's Miniflare options): a new instance
 * serving D1 alone ({@link d1OnlyOptions}, with `extra` over its options, such as where workerd's output
 * goes), every one of `migrations` not yet applied, then the carry-over of a one-database state into the
 * shards the Worker's `D1_SHARDS` names. Resolves to the instance, still serving D1 alone (the runtime swaps
 * its Worker in with `setOptions`; a caller that only migrates disposes of it), and the carry-over's report.
 * A step that fails disposes of the instance and rejects. Once all went in, writes the marker that lets the next
 * start on this state skip these steps ({@link isMigrated}).
 */
export async function migrateLocalState(
  options: MiniflareOptions,
  migrations: readonly D1Migrations[],
  extra: MiniflareOptions = {},
  create: MiniflareFactory = newMiniflare,
): Promise<{ mf: MiniflareInstance; carried: CarryOverReport }> {
  const mf = create({ ...d1OnlyOptions(options), ...extra });
  try {
    const batch = d1BatchOver(await mf.ready);
    // One count over every take: a broken take's moves stay moved, and the next take does not see them again.
    const moved: Record<string, number> = {};
    const carried = await takenAgainIfUnreached(async () => {
      await applyMigrations(batch, migrations);
      return carryOverLocal(batch, configOf(options.bindings ?? {}).D1_SHARDS, Date.now(), moved);
    });
    markMigrated(options, migrations);
    return { mf, carried };
  } catch (e) {
    await mf.dispose();
    throw e;
  }
}

/**
 * Carries a one-database state over into the `shards` shard databases (src/config/d1-carry-over.ts) once the
 * migrations are in: a no-op after it finished for this count (one read), or with no shards.
 * @param moved the rows moved are added to it as they go, by table (default a fresh record; the report's own)
 */
export async function carryOverLocal(
  batch: D1Batch,
  shards: number,
  now = Date.now(),
  moved: Record<string, number> = {},
): Promise<CarryOverReport> {
  const over = (binding: string): CarryOverDb => ({ batch: (statements) => batch(binding, statements) });
  return carryOver(over('DB'), shardBindingNames(shards).map(over), now, Number.POSITIVE_INFINITY, moved);
}

/** The marker's file name, in D1's own persist folder: deleting D1's state deletes the marker with it. */
export const MIGRATED_MARKER = 'tribunal-migrated.json';

/** Where D1 keeps its databases' SQLite files under a persist root (Miniflare's layout). */
const D1_OBJECTS = 'miniflare-D1DatabaseObject';

/** D1's persist folder under the options' root, or undefined when the state is kept in memory. */
function d1Folder(options: MiniflareOptions): string | undefined {
  const root = options.defaultPersistRoot;
  return typeof root === 'string' ? join(root, 'd1') : undefined;
}

/** The installed Miniflare's version: where it keeps D1's files is its own choice, so an upgrade migrates again. */
function miniflareVersion(): string {
  const entry = createRequire(import.meta.url).resolve('miniflare');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return String(pkg.version);
}

/**
 * What a migrated state was migrated for: a hash of the databases (bindings and ids: the files they live in),
 * every migration's name and statements, the shard count the carry-over moved rows into, and Miniflare's version.
 * D1 files replaced by hand (a restored backup) keep their names and so their marker: delete the marker with them.
 */
export function migrationStamp(options: MiniflareOptions, migrations: readonly D1Migrations[]): string {
  const shards = configOf(options.bindings ?? {}).D1_SHARDS;
  return createHash('sha256')
    .update(
      JSON.stringify({ databases: options.d1Databases ?? null, migrations, shards, miniflare: miniflareVersion() }),
    )
    .digest('hex');
}

/** The marker's content: the stamp, and the D1 files that held the migrated databases then. */
interface Marker {
  stamp: string;
  files: string[];
}

function sqliteFiles(folder: string): string[] {
  const objects = join(folder, D1_OBJECTS);
  return existsSync(objects)
    ? readdirSync(objects)
        .filter((f) => f.endsWith('.sqlite'))
        .sort()
    : [];
}

/** Records that the state of `options` holds every one of `migrations` and the carry-over for its shard count. */
function markMigrated(options: MiniflareOptions, migrations: readonly D1Migrations[]): void {
  const folder = d1Folder(options);
  if (folder === undefined || !existsSync(folder)) return;
  const marker: Marker = { stamp: migrationStamp(options, migrations), files: sqliteFiles(folder) };
  writeFileSync(join(folder, MIGRATED_MARKER), JSON.stringify(marker));
}

/**
 * Whether the state of `options` was migrated by {@link migrateLocalState} for exactly `migrations` and this
 * shard count, with each of its D1 files still there. A missing or unreadable marker, another stamp or a
 * missing file answers false: the runtime then takes the migration steps again (they apply nothing already in).
 */
export function isMigrated(options: MiniflareOptions, migrations: readonly D1Migrations[]): boolean {
  const folder = d1Folder(options);
  if (folder === undefined) return false;
  let marker: Partial<Marker> | null;
  try {
    marker = JSON.parse(readFileSync(join(folder, MIGRATED_MARKER), 'utf8')) as Partial<Marker> | null;
  } catch {
    return false;
  }
  if (typeof marker !== 'object' || marker === null || !Array.isArray(marker.files)) return false;
  if (marker.stamp !== migrationStamp(options, migrations)) return false;
  const present = new Set(sqliteFiles(folder));
  return marker.files.length > 0 && marker.files.every((f) => present.has(f));
}

/**
 * Starts the runtime's one Miniflare instance with `worker` (the Worker's options) on the state of `options`.
 * On a state {@link isMigrated} says is migrated, the Worker starts at once (one workerd start); otherwise
 * D1 alone first ({@link migrateLocalState}, with `extra`), then `setOptions` swaps the Worker in, so an
 * alarm or queue message left in the state never runs before its tables exist. `carried` is null when the
 * steps were skipped. A failure disposes of the instance and rejects.
 */
export async function startOnMigratedState(
  options: MiniflareOptions,
  migrations: readonly D1Migrations[],
  worker: MiniflareOptions,
  extra: MiniflareOptions = {},
  create: MiniflareFactory = newMiniflare,
): Promise<{ mf: MiniflareInstance; carried: CarryOverReport | null }> {
  if (isMigrated(options, migrations)) return { mf: create(worker), carried: null };
  const { mf, carried } = await migrateLocalState(options, migrations, extra, create);
  try {
    await mf.setOptions(worker);
  } catch (e) {
    await mf.dispose();
    throw e;
  }
  return { mf, carried };
}
