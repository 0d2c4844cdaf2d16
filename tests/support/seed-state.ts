/**
 * A migrated, empty local state made once per e2e run, copied for each stack that starts on a fresh
 * state folder. A stack's runtime applies wrangler.toml's D1 migrations before its Worker runs
 * (src/cli/local-migrations.ts): 34 migrations on each of five databases (DB and four shards), about
 * 2.7 CPU-s of a fresh start's 5.4 at load 12. The run's making process (./worker-prepare.ts) applies them once,
 * with the runtime's own steps (`migrateLocalState`: a Miniflare serving D1 alone, the same batches, then the
 * carry-over into the shards), and a copy starts as a runtime that found its migrations recorded: it checks
 * them (one read per database) and applies none. Stacks whose test is about the migrations or the first start itself
 * (tests/cli/e2e/start.test.ts) keep an empty folder. Node only.
 */
import { cpSync, existsSync } from 'node:fs';
import { inject } from 'vitest';
import { migrateLocalState } from '../../src/cli/local-migrations.js';
import type { WorkerSetup } from '../../src/cli/worker-options.js';
import { miniflareOptionsOf } from '../../src/cli/worker-options.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A state folder with every D1 migration applied and nothing else: copy it, never start on it. */
    seedState: string;
  }
}

/**
 * Applies the D1 migrations of `setup` (wrangler.toml as read, src/cli/wrangler-config.ts) and the carry-over
 * into its shards to a new state folder `persistTo`. No Worker runs: the bundle is not needed.
 */
export async function migrateState(setup: WorkerSetup, persistTo: string): Promise<void> {
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

/**
 * A new state folder at `path` (it must not exist) holding the run's migrated empty state
 * (`inject('seedState')`); resolves to `path`, for `persistTo` or `npm start --persist-to`.
 */
export function seededState(path: string): string {
  if (existsSync(path)) throw new Error(`${path} exists: a seeded state starts from nothing`);
  cpSync(inject('seedState'), path, { recursive: true });
  return path;
}
