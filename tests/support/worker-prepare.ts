/**
 * @module
 * The e2e run's Worker bundle and seed state, made by a process of its own: `node --import tsx
 * tests/support/worker-prepare.ts <dir> <seed>` bundles the Worker into `dir` (its manifest,
 * src/cli/prepared-worker.ts) and migrates one empty state into the folder `seed` ({@link migrateState}; the files copy it: ./seed-state.ts), then
 * exits 0; on a failure it prints the error and exits 1. The global setup (./worker-bundle.ts) starts it at the lowest CPU priority, which its
 * children (wrangler, esbuild, workerd) inherit: it takes the cores the run's test files leave idle.
 */
import { join } from 'node:path';
import { prepareWorker, REPO_ROOT } from '../../src/cli/worker-bundle.js';
import { migrateLocalState } from '../../src/cli/local-migrations.js';
import type { WorkerSetup } from '../../src/cli/worker-options.js';
import { miniflareOptionsOf } from '../../src/cli/worker-options.js';
import { readWorkerSetup } from '../../src/cli/wrangler-config.js';

/**
 * Applies the D1 migrations of `setup` (wrangler.toml as read, src/cli/wrangler-config.ts) and the carry-over
 * into its shards to a new state folder `persistTo`. No Worker runs: the bundle is not needed.
 */
async function migrateState(setup: WorkerSetup, persistTo: string): Promise<void> {
  const { options } = miniflareOptionsOf({
    configPath: '',
    worker: setup,
    scriptPath: '',
    persistTo,
    host: '127.0.0.1',
    port: 0,
    bindings: {},
    devVars: false,
    varsFromEnv: false,
    logRequests: false,
  });
  const { mf } = await migrateLocalState(options, setup.d1);
  await mf.dispose();
}

const [dir, seed] = process.argv.slice(2);
if (!dir || !seed) {
  console.error('usage: worker-prepare.ts <dir> <seed>');
  process.exit(2);
}
try {
  // The seed needs wrangler.toml's reading only, not the bundle: it is made while wrangler bundles.
  await Promise.all([prepareWorker(dir), migrateState(readWorkerSetup(join(REPO_ROOT, 'wrangler.toml')), seed)]);
} catch (e) {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
}
