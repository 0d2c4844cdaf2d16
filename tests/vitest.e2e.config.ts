import { defineConfig } from 'vitest/config';
import { GROUP_E2E } from './support/groups.js';
import { WAIT_MS } from './support/patience.js';

/**
 * Tests that start a local runtime (workerd through Miniflare or `wrangler dev`, or `npm start` itself)
 * and talk to it over HTTP: restarts, crashes, the CLIs end to end. Two files at a time: after the node and
 * worker projects in one `vitest run`.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('..', import.meta.url).pathname,
    include: ['tests/cli/e2e/**/*.test.ts', 'tests/client/e2e/**/*.test.ts'],
    environment: 'node',
    // One Worker bundle and one reading of wrangler.toml for every stack the tests start (inject('worker')), and
    // one Chromium for every browser test file, launched when the first asks (inject('browserBroker')).
    globalSetup: ['tests/support/worker-bundle.ts', 'tests/support/browser-broker.ts'],
    // Every response from a local stack is checked against its served OpenAPI document.
    setupFiles: ['tests/support/contract-fetch.ts'],
    // Two files at once: every stack takes free ports and its own state folder, and much of a file's
    // time is waiting (a runtime starting, a browser loading). Three (73-77 s, 3 clean runs on 2026-11-27)
    // stopped being safe once a 500-item npm start burst joined the files: on 2026-12-05 viewer pages waited
    // over 90 s for verdicts in 2 of 4 runs of the project with three at once, and none with the viewer
    // files alone.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // `expect.poll` waits on an event like any other wait (vitest's default is 1 s); polled every 50 ms.
    expect: { poll: { timeout: WAIT_MS, interval: 50 } },
    // `npm test` runs this project in a vitest process of its own (tests/support/run-suite.ts); in a plain
    // `vitest run`, after the node and worker projects' group (tests/support/groups.ts).
    sequence: { groupOrder: GROUP_E2E },
  },
});
