/**
 * Global setup of the e2e project: bundles the Worker once (`wrangler deploy --dry-run`, as every local
 * stack would) and reads wrangler.toml once (through wrangler, as every stack would), and provides both as
 * `inject('worker')`, so each stack a test starts serves that bundle from that reading instead of making
 * its own (`startLocalStack({ worker })`). The processes the files start, `npm start` and the runner's own
 * stack run as a developer runs them (tests/cli/e2e/start.test.ts, meta-eval.test.ts), serve it too: this
 * process's environment names it (`TRIBUNAL_PREPARED_WORKER`, src/cli/prepared-worker.ts), and every test
 * process and its children inherit that. A bundle costs about 7 CPU-s (wrangler, esbuild and the assets'
 * build), a start without one a runtime's boot only. It also migrates one empty state, which the files copy
 * for their stacks' fresh state folders (./seed-state.ts): a fresh start then applies no migration.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { PreparedWorker } from '../../src/cli/local-stack.js';
import { prepareWorker, REPO_ROOT } from '../../src/cli/local-stack.js';
import { PREPARED_WORKER_ENV } from '../../src/cli/prepared-worker.js';
import { ARENA_HOOK_SOURCE } from './miniflare-arena.js';
import { migrateState, seedStateIn } from './seed-state.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Worker bundle every e2e stack serves, and wrangler.toml as read for it. */
    worker: PreparedWorker;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-e2e-bundle-'));
  // Every Node process of the run (test files, the stacks' runtime children, npm start) loads Miniflare with
  // its config serialization made linear (./miniflare-arena.ts): inherited through NODE_OPTIONS, like the bundle.
  const hook = join(dir, 'miniflare-arena.cjs');
  writeFileSync(hook, ARENA_HOOK_SOURCE);
  const nodeOptions = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = [nodeOptions, '--require', hook].filter(Boolean).join(' ');
  const preparing = prepareWorker(dir);
  // The seed needs wrangler.toml's reading only, not the bundle: it is made while wrangler bundles.
  const { readWorkerSetup } = await import('../../src/cli/wrangler-config.js');
  const [worker] = await Promise.all([
    preparing,
    migrateState(readWorkerSetup(join(REPO_ROOT, 'wrangler.toml')), seedStateIn(dir)),
  ]);
  project.provide('worker', worker);
  project.provide('seedState', seedStateIn(dir));
  process.env[PREPARED_WORKER_ENV] = dir;
  return () => {
    Reflect.deleteProperty(process.env, PREPARED_WORKER_ENV);
    if (nodeOptions === undefined) Reflect.deleteProperty(process.env, 'NODE_OPTIONS');
    else process.env.NODE_OPTIONS = nodeOptions;
    rmSync(dir, { recursive: true, force: true });
  };
}
