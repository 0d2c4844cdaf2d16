import { defineConfig } from 'vitest/config';

/**
 * Four projects: `node` (engine, LLM layer, metrics, CLI: plain Node), `worker` and `worker-shards` (the
 * Worker, queue consumers and Durable Objects inside workerd through the Cloudflare vitest integration) and
 * `e2e` (a local runtime started and driven over HTTP: restarts, crashes, npm start, the runner). `npm test`
 * runs e2e in a second `vitest run` beside the others (tests/support/run-suite.ts); a plain `vitest run`
 * runs it after them (tests/support/groups.ts).
 */
export default defineConfig({
  test: {
    projects: [
      'tests/vitest.node.config.ts',
      'tests/vitest.worker.config.ts',
      'tests/vitest.worker-shards.config.ts',
      'tests/vitest.e2e.config.ts',
    ],
    // After the summary: each project's wall time and where it went (tests/support/project-times.ts); workerd's
    // own log lines go to a file, named at the end of a failed run (tests/support/runtime-output.ts).
    reporters: ['default', './tests/support/project-times.ts', './tests/support/runtime-output.ts'],
    // A passing run prints only the report: the console of a test (our logger's JSON lines from the Worker,
    // the CLIs' output) is shown only when that test fails. The reporters read this from the root config, so
    // a project's own `silent` had no effect.
    silent: 'passed-only',
  },
});
