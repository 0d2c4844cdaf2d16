/**
 * @module
 * The Worker as a local stack runs it: bundled exactly as `wrangler deploy` would, wrangler.toml read through
 * wrangler, both prepared once for several stacks ({@link prepareWorker}), and the wrangler commands the
 * stacks run (quietly, offline). Node only.
 */
import { join } from 'node:path';
import type { WorkerSetup } from './worker-options.js';
import type { PreparedFiles } from './prepared-worker.js';
import { writePreparedWorker } from './prepared-worker.js';
import { buildRuntime } from './runtime-build.js';
import { spawnGroup } from './process-group.js';

/** Repository root (this file is src/cli/local-stack.ts). */
export const REPO_ROOT = new URL('../../', import.meta.url).pathname;

/** The project's wrangler binary. */
export const WRANGLER = join(REPO_ROOT, 'node_modules', '.bin', 'wrangler');
/** The project's wrangler.toml. */
export const CONFIG_PATH = join(REPO_ROOT, 'wrangler.toml');

/**
 * Environment of every wrangler process: no telemetry, no `request.cf` download and no update check
 * (each is a network call that prints an `ENOTFOUND` stack trace offline).
 */
export const WRANGLER_ENV: Record<string, string> = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  // The banner is where wrangler checks the registry for a newer version.
  WRANGLER_HIDE_BANNER: 'true',
};

/**
 * A Worker bundled and its wrangler.toml read once, for several stacks ({@link prepareWorker}): its entry module
 * ({@link buildWorker}), wrangler.toml as the runtime starts from it, the runtime child's module.
 */
export type PreparedWorker = PreparedFiles;

/**
 * Runs a wrangler command quietly, as a process group of its own (./process-group.ts: it and its esbuild or
 * workerd children go with this process, which stops them when a signal ends it); rejects with its output when
 * it fails. `command` is the wrangler binary ({@link WRANGLER}; `TRIBUNAL_WRANGLER` names another, a test's stub).
 */
export function wrangler(
  args: readonly string[],
  what: string,
  command = process.env.TRIBUNAL_WRANGLER ?? WRANGLER,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // CI: no prompt (migrations ask for confirmation on a terminal).
    const child = spawnGroup(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...WRANGLER_ENV, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => output.push(b));
    child.stderr?.on('data', (b: Buffer) => output.push(b));
    child.once('error', (e) => {
      reject(new Error(`${what} failed: ${e.message}`));
    });
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`${what} failed (${signal ?? `exit code ${String(code)}`}):\n${Buffer.concat(output).toString()}`),
        );
    });
  });
}

/**
 * The wrangler commands that migrate every D1 database of `config` (wrangler.toml's `d1_databases`) in
 * `persistTo`: the control database and each tenants' shard (`DB_00` …), which the API and the sweeps read.
 */
export function wranglerMigrationCommands(
  config: { d1_databases: readonly { binding: string }[] },
  persistTo: string,
): string[][] {
  return config.d1_databases.map(({ binding }) => [
    'd1',
    'migrations',
    'apply',
    binding,
    '--local',
    '--persist-to',
    persistTo,
  ]);
}

/**
 * Applies the numbered migrations to every local D1 database in `persistTo` with wrangler (before `wrangler dev`),
 * one database after another. Rejects with wrangler's output on failure.
 */
export async function wranglerMigrations(persistTo: string): Promise<void> {
  const { readWranglerConfig } = await import('./wrangler-config.js');
  for (const args of wranglerMigrationCommands(readWranglerConfig({ config: CONFIG_PATH }), persistTo))
    await wrangler(args, `D1 migrations (${args[3] ?? ''})`);
}

/** Bundles the Worker exactly as `wrangler deploy` would (dry run) into `outDir`; resolves to the entry module. */
export async function buildWorker(outDir: string): Promise<string> {
  await wrangler(['deploy', '--dry-run', '--outdir', outDir], 'bundling the Worker (wrangler deploy --dry-run)');
  return join(outDir, 'index.js');
}

/** wrangler.toml as the runtime starts from it (imports wrangler on first use: about 1.3 CPU-s). */
export async function readSetup(): Promise<WorkerSetup> {
  const { readWorkerSetup } = await import('./wrangler-config.js');
  return readWorkerSetup(CONFIG_PATH);
}

/** The bundle in `outDir` ({@link buildWorker}) and wrangler.toml as read now. */
export async function bundleAndSetup(outDir: string): Promise<{ entry: string; setup: WorkerSetup }> {
  const [entry, setup] = await Promise.all([buildWorker(outDir), readSetup()]);
  return { entry, setup };
}

/**
 * Bundles the Worker and the runtime child into `outDir` and reads wrangler.toml, once for several
 * stacks (`startLocalStack({ worker })`, or `TRIBUNAL_PREPARED_WORKER=<outDir>` for another process's):
 * each then starts without any of them.
 */
export async function prepareWorker(outDir: string): Promise<PreparedWorker> {
  const [built, runtime] = await Promise.all([bundleAndSetup(outDir), buildRuntime(outDir)]);
  const prepared = { ...built, runtime };
  writePreparedWorker(outDir, prepared);
  return prepared;
}
