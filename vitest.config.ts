import { defineConfig } from 'vitest/config';
import { projectConfigs } from './tests/support/project-configs.js';
import { useTmpfsForRun } from './tests/support/run-tmpdir.js';

// Before the projects' configs load (the worker pool's Miniflare, the e2e stacks): the run's temp directory
// is a fresh folder on tmpfs where the machine has one, removed at the end (tests/support/run-tmpdir.ts).
useTmpfsForRun();

/**
 * Three suites: `node` (engine, LLM layer, metrics, CLI: plain Node), `worker` (the Worker, queue
 * consumer and Durable Object inside workerd through the Cloudflare vitest integration) and `e2e` (a
 * local runtime started and driven over HTTP: restarts, crashes, npm start, the runner), run last in one
 * `vitest run`. `npm test` runs e2e in a second `vitest run`, niced, beside node and worker
 * (tests/support/run-suite.ts). The worker project's tests/worker-shards/ files run with the D1 shards on.
 */
export default defineConfig({
  test: {
    // The three projects' configs, or only those a `--project` on the command line selects: vitest loads every
    // listed config before it filters, and the worker ones load wrangler and Miniflare (tests/support/project-configs.ts).
    projects: projectConfigs(),
    // After the summary: each project's wall time and where it went (tests/support/project-times.ts); workerd's
    // own log lines go to a file, named at the end of a failed run (tests/support/runtime-output.ts).
    reporters: ['default', './tests/support/project-times.ts', './tests/support/runtime-output.ts'],
    // A passing run prints only the report: the console of a test (our logger's JSON lines from the Worker,
    // the CLIs' output) is shown only when that test fails. The reporters read this from the root config, so
    // a project's own `silent` had no effect.
    silent: 'passed-only',
  },
});
