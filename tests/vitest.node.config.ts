import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'node',
    root: new URL('..', import.meta.url).pathname,
    include: [
      'tests/architecture/**/*.test.ts',
      'tests/engine/**/*.test.ts',
      'tests/llm/**/*.test.ts',
      'tests/meta/**/*.test.ts',
      'tests/cli/**/*.test.ts',
      'tests/pipeline/**/*.test.ts',
      'tests/client/**/*.test.ts',
      'tests/web/**/*.test.ts',
    ],
    // Tests that start a local runtime are the e2e project's.
    exclude: ['tests/cli/e2e/**', 'tests/client/e2e/**'],
    environment: 'node',
  },
});
