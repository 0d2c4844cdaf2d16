/**
 * The local runtime starts workerd once on a state already migrated (src/cli/local-migrations.ts
 * `startOnMigratedState`): the marker the migration steps leave in D1's persist folder lets the Worker start
 * at once, and anything that could make the state lack a table (a migration added or changed, another shard
 * count, D1's files deleted) takes the D1-only phase again. The starts are counted through the injectable
 * Miniflare factory; the Worker here only reads the tables, so it proves they exist when it runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MiniflareFactory } from '../../src/cli/local-migrations.js';
import { isMigrated, MIGRATED_MARKER, startOnMigratedState } from '../../src/cli/local-migrations.js';
import type { D1Migrations, MiniflareInstance, MiniflareOptions } from '../../src/cli/worker-options.js';
import { Miniflare } from '../../src/cli/worker-options.js';
import { TEST_MS } from '../support/patience.js';

/** A migration creating `table`, recorded as wrangler records it. */
const migration = (name: string, table: string) => ({
  name,
  statements: [`CREATE TABLE ${table}(x INTEGER)`, `INSERT INTO d1_migrations (name) VALUES ('${name}')`],
});

const FIRST: D1Migrations[] = [{ binding: 'DB', table: 'd1_migrations', migrations: [migration('0001_a.sql', 'a')] }];

/** The state's options as the runtime gives them: a database, a persist root, the shard count (none). */
const stateOptions = (persistTo: string, shards = '0'): MiniflareOptions => ({
  d1Databases: { DB: 'marker-test-db' },
  defaultPersistRoot: join(persistTo, 'v3'),
  bindings: { D1_SHARDS: shards },
});

/** A Worker that answers the names of the tables it finds and the migrations recorded. */
const workerOf = (state: MiniflareOptions): MiniflareOptions => ({
  ...state,
  modules: true,
  host: '127.0.0.1',
  port: 0,
  cf: false,
  script: `export default {
    async fetch(request, env) {
      const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'b') ORDER BY name").all();
      const recorded = await env.DB.prepare('SELECT name FROM d1_migrations ORDER BY id').all();
      return Response.json({ tables: tables.results.map((r) => r.name), recorded: recorded.results.map((r) => r.name) });
    },
  };`,
});

const running: MiniflareInstance[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((mf) => mf.dispose()));
});

/** Starts the runtime's instance on `persistTo`; resolves to what the Worker read and how workerd started. */
async function start(persistTo: string, migrations: readonly D1Migrations[], shards = '0') {
  const state = stateOptions(persistTo, shards);
  const worker = workerOf(state);
  const starts: ('worker' | 'd1-only')[] = [];
  let swaps = 0;
  const create: MiniflareFactory = (options) => {
    starts.push(options === worker ? 'worker' : 'd1-only');
    const mf = new Miniflare(options);
    const setOptions = mf.setOptions.bind(mf);
    mf.setOptions = (next) => {
      swaps += 1;
      return setOptions(next);
    };
    return mf;
  };
  const { mf, carried } = await startOnMigratedState(state, migrations, worker, {}, create);
  running.push(mf);
  const read = (await (await fetch(await mf.ready)).json()) as { tables: string[]; recorded: string[] };
  await mf.dispose();
  running.splice(running.indexOf(mf), 1);
  return { starts, swaps, carried, ...read };
}

// Each workerd start costs 1-3 CPU-s: one state, two starts; the rest reads the marker as the runtime does.
describe('the runtime start on a migrated state', { timeout: 2 * TEST_MS }, () => {
  it('migrates with D1 alone first, then starts the Worker alone, until a migration, the shards or D1 change', async () => {
    const persistTo = join(mkdtempSync(join(tmpdir(), 'tribunal-marker-')), 'state');
    const first = await start(persistTo, FIRST);
    expect(first).toMatchObject({ starts: ['d1-only'], swaps: 1, tables: ['a'], recorded: ['0001_a.sql'] });
    expect(first.carried).not.toBeNull();
    expect(existsSync(join(persistTo, 'v3', 'd1', MIGRATED_MARKER))).toBe(true);

    expect(await start(persistTo, FIRST)).toMatchObject({ starts: ['worker'], swaps: 0, carried: null, tables: ['a'] });
    expect(isMigrated(stateOptions(persistTo), FIRST)).toBe(true);

    // A migration added, or one changed under the same name.
    const added: D1Migrations[] = [
      {
        binding: 'DB',
        table: 'd1_migrations',
        migrations: [migration('0001_a.sql', 'a'), migration('0002_b.sql', 'b')],
      },
    ];
    expect(isMigrated(stateOptions(persistTo), added)).toBe(false);
    const changed: D1Migrations[] = [
      { binding: 'DB', table: 'd1_migrations', migrations: [migration('0001_a.sql', 'a_renamed')] },
    ];
    expect(isMigrated(stateOptions(persistTo), changed)).toBe(false);
    // Another shard count: the carry-over has not run for it.
    expect(isMigrated(stateOptions(persistTo, '4'), FIRST)).toBe(false);
    // Another database id (other files), or no persist root to read a marker from.
    expect(isMigrated({ ...stateOptions(persistTo), d1Databases: { DB: 'another-db' } }, FIRST)).toBe(false);
    expect(isMigrated({ ...stateOptions(persistTo), defaultPersistRoot: undefined }, FIRST)).toBe(false);

    // The databases' files deleted, the marker kept; then D1's whole folder.
    rmSync(join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject'), { recursive: true });
    expect(existsSync(join(persistTo, 'v3', 'd1', MIGRATED_MARKER))).toBe(true);
    expect(isMigrated(stateOptions(persistTo), FIRST)).toBe(false);
    rmSync(join(persistTo, 'v3', 'd1'), { recursive: true });
    expect(isMigrated(stateOptions(persistTo), FIRST)).toBe(false);
  });
});
