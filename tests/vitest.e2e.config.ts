import { defineConfig } from 'vitest/config';
import { GROUP_E2E, WORKERS_E2E } from './support/groups.js';
import { WAIT_MS } from './support/patience.js';

/**
 * Tests that start a local runtime (workerd through Miniflare or `wrangler dev`, or `npm start` itself)
 * and talk to it over HTTP: restarts, crashes, the CLIs end to end. Three files at a time: after the node and
 * worker projects in one `vitest run`.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('..', import.meta.url).pathname,
    include: ['tests/cli/e2e/**/*.test.ts', 'tests/client/e2e/**/*.test.ts'],
    environment: 'node',
    // Files share their process and its module cache, as the node project's do: a fork per file loaded vitest,
    // Playwright's client, Ajv and the stack's modules again and compiled the served document's contract again
    // (tests/support/contract-fetch.ts keeps it across files): ~1.2 CPU-s a file (6 files that only import a
    // stack's and the viewer's modules: vitest's processes 15.0 / 14.1 CPU-s a fork each, 8.8 / 7.9 in one).
    // Every file stops what it starts in its hooks.
    isolate: false,
    // One Worker bundle and one reading of wrangler.toml for every stack the tests start, made in the background
    // while the other projects' files run (worker-ready.ts waits for it before each file), and one Chromium for
    // every browser test file, launched when the first asks (inject('browserBroker')).
    globalSetup: ['tests/support/worker-bundle.ts', 'tests/support/browser-broker.ts'],
    // A file starts once the run's bundle is made; every response from a local stack is checked against its
    // served OpenAPI document.
    setupFiles: ['tests/support/worker-ready.ts', 'tests/support/contract-fetch.ts'],
    // Three files at once: every stack takes free ports and its own state folder, and a file mostly waits (a
    // runtime starting, a browser loading, the mock's latency, a child process): alone at load 4-15 the project
    // used 39% of one core over 500 s with two at once. Three were reverted on 2026-12-05 (09:06) when viewer
    // pages waited over 90 s for verdicts beside the 500-item npm start burst; the likely cause, Miniflare's queue
    // broker delivering nothing more after one failed log call under load, was fixed that evening
    // (src/cli/miniflare-queue-broker.ts). Four at load 15-26 passed but one file: integrations' consumer tsc
    // (13 CPU-s) ran out of its hook's time.
    maxWorkers: WORKERS_E2E,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // `expect.poll` waits on an event like any other wait (vitest's default is 1 s); polled every 50 ms.
    expect: { poll: { timeout: WAIT_MS, interval: 50 } },
    // After the node and worker projects' group (tests/support/groups.ts); `npm test` runs
    // it in a second process, niced, beside them (tests/support/run-suite.ts).
    sequence: { groupOrder: GROUP_E2E },
    // Vite's transforms of the files this project imports (the stack's, the CLIs', the viewer's and the tests'
    // modules, each fork transforming them again), kept on disk between runs as the node project keeps its own
    // (tests/vitest.node.config.ts, where the key's limits are noted): a node environment reads it, unlike the
    // worker pool's runtime.
    experimental: { fsModuleCache: true },
  },
});
