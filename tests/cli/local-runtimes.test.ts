/**
 * The key a stopped stack's runtime child is kept under (src/cli/local-runtimes.ts): the e2e tests' next file
 * takes it only if vitest's per-file variables are left out of it.
 */
import { describe, expect, it } from 'vitest';
import { reuseEnv } from '../../src/cli/local-runtimes.js';

describe('a kept runtime child’s key', () => {
  it('leaves out vitest’s per-file variables, so the next file of the process takes the child', () => {
    const base = { PATH: '/usr/bin', LLM_BASE_URL: 'http://127.0.0.1:1' };
    expect(reuseEnv({ ...base, VITEST_WORKER_ID: '3', VITEST_POOL_ID: '1' })).toEqual(
      reuseEnv({ ...base, VITEST_WORKER_ID: '4', VITEST_POOL_ID: '1' }),
    );
  });

  it('keeps every other variable, in one order: a child spawned with another environment is not taken', () => {
    expect(reuseEnv({ B: '2', A: '1' })).toEqual([
      ['A', '1'],
      ['B', '2'],
    ]);
    expect(JSON.stringify(reuseEnv({ LLM_BASE_URL: 'http://a' }))).not.toBe(
      JSON.stringify(reuseEnv({ LLM_BASE_URL: 'http://b' })),
    );
  });
});
