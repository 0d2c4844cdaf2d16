/**
 * The local runtime's own D1 migrations (src/cli/local-migrations.ts) keep wrangler's books: every file
 * of migrations/ is applied once, in order, on the runtime's D1 state (the same database the Worker's
 * options name), and `wrangler d1 migrations apply --local` on the same state afterwards finds nothing to
 * apply (same table, same names, same database), so a state made by either serves the other. A failing
 * migration is named, and the ones before it stay applied.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type * as WranglerModule from 'wrangler';
import type { D1Batch } from '../../src/cli/local-migrations.js';
import type { MiniflareInstance } from '../../src/cli/worker-options.js';
import type { D1Migrations, MiniflareOptions } from '../../src/cli/worker-options.js';
import {
  applyMigrations,
  carryOverLocal,
  d1BatchOver,
  d1OnlyOptions,
  migrateLocalState,
  STEP_ATTEMPTS,
} from '../../src/cli/local-migrations.js';
import { bucketOf, shardBindingNames, shardOfBucket } from '../../src/config/d1-buckets.js';
import { REPO_ROOT, WRANGLER_ENV } from '../../src/cli/worker-bundle.js';
import type { WorkerSetup } from '../../src/cli/worker-options.js';
import { Miniflare } from '../../src/cli/worker-options.js';
import { migrationStatements, readWorkerSetup, readWranglerConfig } from '../../src/cli/wrangler-config.js';
import { TEST_MS } from '../support/patience.js';

const CONFIG = join(REPO_ROOT, 'wrangler.toml');

/** The arguments and context wrangler's `d1 migrations apply` handler reads, typed as used here. */
type ApplyCommand = {
  handler(
    args: { database: string; local: boolean; remote: boolean; persistTo: string; preview: boolean },
    context: { config: unknown },
  ): Promise<void>;
};

/**
 * wrangler's `d1 migrations apply` command as its CLI defines it (wrangler's command registry). Required, not
 * imported, as src/cli/wrangler-config.ts requires wrangler: the same module, loaded once. Throws when wrangler
 * no longer has the command where its CLI puts it.
 */
function applyCommand(): ApplyCommand {
  const wrangler = createRequire(import.meta.url)('wrangler') as typeof WranglerModule;
  let node = wrangler.experimental_getWranglerCommands().registry;
  for (const segment of ['d1', 'migrations', 'apply']) {
    const next = node.subtree.get(segment);
    if (!next) throw new Error(`wrangler has no command "${segment}" under its d1 migrations`);
    node = next;
  }
  if (!node.definition || !('handler' in node.definition)) throw new Error('wrangler d1 migrations apply: no handler');
  return node.definition as unknown as ApplyCommand;
}

/** The Worker's Miniflare options of `setup` on the state at `persistTo`. */
const optionsOn = (setup: WorkerSetup, persistTo: string) => ({
  ...setup.workerOptions,
  defaultPersistRoot: join(persistTo, 'v3'),
});

/** A D1-only instance on `persistTo`, as the runtime starts one before its Worker. */
async function withD1<T>(setup: WorkerSetup, persistTo: string, use: (batch: D1Batch) => Promise<T>): Promise<T> {
  const mf = new Miniflare(d1OnlyOptions(optionsOn(setup, persistTo)));
  try {
    return await use(d1BatchOver(await mf.ready));
  } finally {
    await mf.dispose();
  }
}

/**
 * `mf` seen through a proxy that breaks the exchanges `before` picks (the connection closed, the batch never
 * sent on: a socket workerd closed while this process was starved) and those `after` picks (closed once the
 * batch ran: its answer lost), each by its number (from 1, in order of arrival) and body; `broke` lists the
 * numbers broken. Disposing of it stops the proxy only.
 */
async function breaking(
  mf: MiniflareInstance,
  before: (n: number, body: string) => boolean,
  after: (n: number, body: string) => boolean,
): Promise<{ proxied: MiniflareInstance; broke: number[] }> {
  const target = await mf.ready;
  let n = 0;
  const broke: number[] = [];
  const server = createServer((req, res) => {
    const i = ++n;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const cut = () => {
        broke.push(i);
        req.socket.destroy();
      };
      if (before(i, body)) {
        cut();
        return;
      }
      void fetch(target, { method: 'POST', body }).then(async (r) => {
        const text = await r.text();
        if (after(i, body)) cut();
        else res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const proxied: MiniflareInstance = {
    ready: Promise.resolve(url),
    setOptions: (o) => mf.setOptions(o),
    unsafeGetDirectURL: (name) => mf.unsafeGetDirectURL(name),
    dispose: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return { proxied, broke };
}

// wrangler's command starts workerd four times (twice per database): with wrangler processes, one after another,
// the first test took over 60 s at load 17-20 (and 150 s at load 30).
describe('applyMigrations', { timeout: 2 * TEST_MS }, () => {
  it('applies each migration once to every database, in order, and wrangler then finds nothing to apply', async () => {
    const setup = readWorkerSetup(CONFIG);
    const persistTo = join(mkdtempSync(join(tmpdir(), 'tribunal-migrations-')), 'state');
    const files = readdirSync(join(REPO_ROOT, 'migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files.length).toBeGreaterThan(0);
    const applied = await withD1(setup, persistTo, async (batch) => [
      await applyMigrations(batch, setup.d1),
      await applyMigrations(batch, setup.d1),
    ]);
    // The control database and each tenant shard (wrangler.toml), each from the same folder.
    expect(setup.d1.length).toBeGreaterThan(1);
    expect(applied).toEqual([setup.d1.flatMap(() => files), []]);

    // Wrangler on the control database and on the last shard, one after the other (their output is told apart by
    // when it is printed): each only reads its own database's books. The shards between are declared as the last is (wrangler.toml) and reach this code through
    // wrangler's own reading of it (readWorkerSetup): a wrangler run each (~1.5 CPU-s apiece, its local D1
    // started twice) repeated the last shard's check on another id. Their books are in `applied` above.
    const checked = [setup.d1[0], setup.d1.at(-1)].map((d) => d?.binding ?? '');
    expect(checked).toEqual(['DB', shardBindingNames(setup.d1.length - 1).at(-1)]);
    const printed: string[] = [];
    for (const binding of checked) printed.push(await wranglerApply(binding, persistTo));
    for (const [i, out] of printed.entries()) expect(out, checked[i]).toContain('No migrations to apply');
  });

  /**
   * What `wrangler d1 migrations apply <binding> --local` prints on the state at `persistTo`: wrangler's own command
   * (its handler, found through wrangler's command registry) run in this process on wrangler.toml as wrangler reads
   * it, with the environment `npm start` gives wrangler (no telemetry, no `request.cf` download, CI: no prompt).
   * A wrangler process each cost 3.5 CPU-s, 1.9 of it loading wrangler, which this process has loaded already
   * (src/cli/wrangler-config.ts); the command's own steps (its local D1 started twice per database) are the same.
   */
  const wranglerApply = async (binding: string, persistTo: string): Promise<string> => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    for (const [key, value] of Object.entries({ ...WRANGLER_ENV, CI: 'true' })) vi.stubEnv(key, value);
    try {
      await applyCommand().handler(
        { database: binding, local: true, remote: false, persistTo, preview: false },
        { config: readWranglerConfig({ config: CONFIG }) },
      );
      return printed.join('\n');
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
  };

  it('names the migration that failed and keeps the ones before it', async () => {
    const setup = readWorkerSetup(CONFIG);
    const persistTo = join(mkdtempSync(join(tmpdir(), 'tribunal-migrations-')), 'state');
    const broken: D1Migrations[] = [
      {
        binding: 'DB',
        table: 'd1_migrations',
        migrations: [
          {
            name: '0001_ok.sql',
            statements: migrationStatements('d1_migrations', '0001_ok.sql', 'CREATE TABLE ok (id INTEGER);'),
          },
          {
            name: '0002_broken.sql',
            statements: migrationStatements(
              'd1_migrations',
              '0002_broken.sql',
              'CREATE TABLE nope (id INTEGER);\nINSERT INTO missing VALUES (1);',
            ),
          },
        ],
      },
    ];
    await withD1(setup, persistTo, async (batch) => {
      await expect(applyMigrations(batch, broken)).rejects.toThrow(/^D1 migration 0002_broken\.sql failed: .*missing/);
      const names = async (q: string) => ((await batch('DB', [q]))[0] ?? []).map((r) => String(r.name));
      expect(await names('SELECT name FROM d1_migrations ORDER BY id')).toEqual(['0001_ok.sql']);
      // One transaction per migration: the failed one left no table behind.
      expect(await names("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ok', 'nope')")).toEqual([
        'ok',
      ]);
    });
  });

  // npm start's carry-over too: one state, one instance, where a test each migrated every database anew (205
  // batches) on an instance of its own.
  it("migrateLocalState (the runtime's and the e2e seed's steps) migrates, carries a one-database state's rows over into D1_SHARDS' shards once, and leaves D1 served, taking its steps again when an exchange breaks", async () => {
    const setup = readWorkerSetup(CONFIG);
    const persistTo = join(mkdtempSync(join(tmpdir(), 'tribunal-migrate-local-')), 'state');
    const tenant = 'tn_migratelocal1';
    const other = 'tn_migratelocal10';
    // One D1-only instance for the whole test: it writes the one-database state, and migrateLocalState is handed
    // it (its factory) where it would start its own on the same options, a second workerd start for the same
    // databases. What it asked for is checked to be that instance's options.
    const options = optionsOn(setup, persistTo);
    const one = new Miniflare(d1OnlyOptions(options));
    try {
      // A state written the one-database way: the control database migrated alone, one evaluation and its verdict
      // in it, with a value only a bound parameter keeps.
      const first = d1BatchOver(await one.ready);
      await applyMigrations(
        first,
        setup.d1.filter((d) => d.binding === 'DB'),
      );
      await first('DB', [
        `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at, winner, confidence)
           VALUES ('ev_migratelocal1', '${tenant}', 'succeeded', 'single', '{"a":"it''s \\"quoted\\""}', '{}', 1, 2, 'A', 0.75)`,
        // Another tenant's, in another shard: its group is moved after the first one's.
        `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at)
           VALUES ('ev_migratelocal2', '${other}', 'succeeded', 'single', '{}', '{}', 1, 2)`,
      ]);
      // wrangler.toml's D1_SHARDS (4), read from the Worker's bindings as the Worker reads it.
      const shard = shardBindingNames(4)[shardOfBucket(bucketOf(tenant), 4)] ?? 'none';
      const otherShard = shardBindingNames(4)[shardOfBucket(bucketOf(other), 4)] ?? 'none';
      expect(otherShard).not.toBe(shard);
      // Three exchanges break on the way: a shard's first migration never sent, a later one's and the carry-over's
      // second copy's answers lost once they ran (the first group moved by then). The steps are taken again from
      // where they stand: nothing twice, and the report counts every take's moves.
      let copies = 0;
      const { proxied, broke } = await breaking(
        one,
        (n) => n === 3,
        (n, body) => n === 60 || (body.includes('INSERT OR IGNORE INTO \\"evaluations\\"') && ++copies === 2),
      );
      const asked: MiniflareOptions[] = [];
      const { mf, carried } = await migrateLocalState(options, setup.d1, {}, (o) => {
        asked.push(o);
        return proxied;
      });
      expect(broke).toHaveLength(3);
      expect(asked).toEqual([d1OnlyOptions(options)]);
      expect(mf).toBe(proxied);
      expect(carried).toEqual({ moved: { evaluations: 2 }, done: true });
      const batch = d1BatchOver(await one.ready);
      const rows = await batch(shard, [
        "SELECT id, config FROM evaluations WHERE id = 'ev_migratelocal1'",
        "SELECT count(*) AS n FROM evaluations WHERE id = 'ev_migratelocal1' AND confidence IS NOT NULL",
      ]);
      const moved = await batch(otherShard, ["SELECT id FROM evaluations WHERE id = 'ev_migratelocal2'"]);
      const left = await batch('DB', ['SELECT count(*) AS n FROM evaluations']);
      expect([...rows, ...moved, ...left]).toEqual([
        [{ id: 'ev_migratelocal1', config: '{"a":"it\'s \\"quoted\\""}' }],
        [{ n: 1 }],
        [{ id: 'ev_migratelocal2' }],
        [{ n: 0 }],
      ]);
      // Once: npm start's carry-over again moves nothing, and every database's migrations are in.
      expect(await carryOverLocal(batch, 4)).toEqual({ moved: {}, done: true });
      expect(await applyMigrations(batch, setup.d1)).toEqual([]);
      // A group whose delete from DB ran but whose answer was lost moved all the same: the next take with the same
      // count counts it (read back from DB), and a group whose copy broke before its delete only once, when it moves.
      await batch('DB', [
        'DELETE FROM d1_carry_over',
        `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at)
           VALUES ('ev_migratelocal3', '${tenant}', 'succeeded', 'single', '{}', '{}', 1, 2)`,
        `INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at)
           VALUES ('ev_migratelocal4', '${other}', 'succeeded', 'single', '{}', '{}', 1, 2)`,
      ]);
      let deletes = 0;
      let copied = 0;
      let readBacks = 0;
      const lossy = await breaking(
        one,
        // The next take's read-back of that group breaks too (D1 still failing): the group stays unsure, counted
        // by the take after.
        (_n, body) => body.includes('SELECT count(*) AS n FROM \\"evaluations\\" WHERE') && ++readBacks === 1,
        (_n, body) =>
          (body.includes('DELETE FROM \\"evaluations\\"') && ++deletes === 1) ||
          (body.includes('INSERT OR IGNORE INTO \\"evaluations\\"') && ++copied === 2),
      );
      const count: Record<string, number> = {};
      const lossyBatch = d1BatchOver(await lossy.proxied.ready);
      try {
        for (let take = 0; take < 3; take++)
          await expect(carryOverLocal(lossyBatch, 4, Date.now(), count)).rejects.toThrow(/no answer from the local D1/);
        expect(await carryOverLocal(lossyBatch, 4, Date.now(), count)).toEqual({
          moved: { evaluations: 2 },
          done: true,
        });
      } finally {
        await lossy.proxied.dispose();
      }
      expect(lossy.broke).toHaveLength(3);
      expect(await batch('DB', ['SELECT count(*) AS n FROM evaluations'])).toEqual([[{ n: 0 }]]);
      // Every exchange broken (a runtime gone): each take breaks at its first batch, and the last break rejects.
      const gone = await breaking(
        one,
        () => true,
        () => false,
      );
      await expect(migrateLocalState(options, setup.d1, {}, () => gone.proxied)).rejects.toThrow(
        /^no answer from the local D1 \(DB\): fetch failed/,
      );
      expect(gone.broke).toEqual(Array.from({ length: STEP_ATTEMPTS }, (_, i) => i + 1));
    } finally {
      await one.dispose();
    }
  });
});
