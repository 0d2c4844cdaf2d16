import { defineConfig } from 'vitest/config';

/**
 * Three suites: `node` (engine, LLM layer, metrics, CLI: plain Node), `worker` (the Worker, queue
 * consumer and Durable Object inside workerd through the Cloudflare vitest integration) and `e2e` (a
 * local runtime started and driven over HTTP: restarts, crashes, npm start, the runner), run last.
 */
export default defineConfig({
  test: {
    projects: ['tests/vitest.node.config.ts', 'tests/vitest.worker.config.ts', 'tests/vitest.e2e.config.ts'],
    // After the summary: each project's wall time and where it went (tests/support/project-times.ts).
    reporters: ['default', './tests/support/project-times.ts'],
  },
});
