import { defineConfig } from 'vitest/config';
import { GROUP_BEFORE_E2E, WORKERS_BEFORE_E2E } from './support/groups.js';

export default defineConfig({
  test: {
    name: 'node',
    root: new URL('..', import.meta.url).pathname,
    // Every test that needs no workerd: the engine, the LLM layer, metrics, the CLIs, and the Worker's
    // modules of pure logic (tests/openai, tests/triggers, tests/webhooks, tests/comparisons).
    include: ['tests/**/*.test.ts'],
    // The Worker in workerd is the worker project's; tests that start a local runtime are the e2e project's.
    exclude: ['tests/worker/**', 'tests/worker-shards/**', 'tests/cli/e2e/**', 'tests/client/e2e/**'],
    environment: 'node',
    // Files share one process and its module cache (a fork per file cost ~0.3 s each); none changes
    // global state it does not restore (vi.stubEnv, spies and process.argv are put back).
    isolate: false,
    // Some tests simulate hundreds of tournaments or every DEBATE run up to n = 4: ~1 s alone, past vitest's
    // default 5 s when the machine is loaded (seen at load 11 on 2 cores).
    testTimeout: 20_000,
    // Both cores (vitest's default is the cores less one, which left one idle for ~25 s). One group with the
    // worker projects (tests/vitest.worker.config.ts, `GROUP_BEFORE_E2E`): a group shares one pool and its
    // `maxWorkers`, and its queue takes node's files first (by project name), so the first slot node frees
    // starts a worker runtime while the other still runs node's last files.
    maxWorkers: WORKERS_BEFORE_E2E,
    sequence: { groupOrder: GROUP_BEFORE_E2E },
    // Vite's transforms of the files this project imports, kept on disk between runs (keyed by each file's
    // content and the config): a run after the first took 92-98 CPU-s instead of 106 at load 4-7 (transform
    // 2.9 s instead of 10.4, summed). Node's project only: the worker pool's runtime cannot read that cache
    // (every file failed with "no such file or directory, readAll"). Its key leaves out tsconfig*.json: after
    // editing one, `npx vitest --clearCache` (CI starts without the cache).
    experimental: { fsModuleCache: true },
  },
});
