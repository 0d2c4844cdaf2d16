import { defineConfig } from 'vitest/config';
import { GROUP_BEFORE_E2E, WORKERS_BEFORE_E2E } from './support/groups.js';
import { TEST_MS } from './support/patience.js';

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
    // Some tests simulate hundreds of tournaments or every DEBATE run up to n = 4: 1-7 s of CPU alone, so their
    // wall time grows with the load (the 40 tournaments of tests/meta/comparison went past 20 s at load 37). Such
    // a test is synchronous: a timeout cannot interrupt it, only fail it afterwards for its wall time, which is
    // the load's, not the code's (timing targets live in bench/). So the worker project's runner timeout, which
    // stays a guard for an awaited event that never comes.
    testTimeout: TEST_MS,
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
