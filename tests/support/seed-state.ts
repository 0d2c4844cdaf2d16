/**
 * A migrated, empty local state made once per e2e run, copied for each stack that starts on a fresh
 * state folder. A stack's runtime applies wrangler.toml's D1 migrations before its Worker runs
 * (src/cli/local-migrations.ts): every migration on each of five databases (DB and four shards), about
 * 2.7 CPU-s of a fresh start's 5.4 at load 12. The run's making process (./worker-prepare.ts) applies them once,
 * with the runtime's own steps (`migrateLocalState`: a Miniflare serving D1 alone, the same batches, then the
 * carry-over into the shards, which leave their marker in D1's folder), and a copy starts as a runtime whose
 * marker matches: its Worker starts at once, with no D1-only workerd before it. Stacks whose test is about the migrations or the first start itself
 * (tests/cli/e2e/start.test.ts) keep an empty folder. Node only.
 *
 * This module only copies: the migrating lives in ./worker-prepare.ts, so a test file importing
 * {@link seededState} does not load Miniflare (a 3.8 MB CommonJS file and undici, 0.5-1 CPU-s in every
 * e2e test process, which starts its stacks in child processes and never runs a Miniflare itself).
 */
import { cpSync, existsSync } from 'node:fs';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A state folder with every D1 migration applied and nothing else: copy it, never start on it. */
    seedState: string;
  }
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
