/**
 * `npm test`'s two vitest processes (tests/support/run-tests.ts): the e2e project beside the node and worker
 * projects, each given the same filters, and one run as asked when the arguments name a project.
 */
import { describe, expect, it } from 'vitest';
import { runsFor } from './run-tests.js';

describe('npm test', () => {
  it('runs the e2e project beside the node and worker projects, each passing when a filter leaves it no file', () => {
    expect(runsFor([])).toEqual([
      {
        label: 'node+worker',
        args: ['run', '--project', 'node', '--project', 'worker', '--project', 'worker-shards', '--passWithNoTests'],
      },
      { label: 'e2e', args: ['run', '--project', 'e2e', '--passWithNoTests'] },
    ]);
  });

  it('hands a file or name filter to both', () => {
    const runs = runsFor(['tests/worker/estimates.test.ts', '-t', 'prompts']);
    expect(runs.map((r) => r.args.slice(-3))).toEqual([
      ['tests/worker/estimates.test.ts', '-t', 'prompts'],
      ['tests/worker/estimates.test.ts', '-t', 'prompts'],
    ]);
  });

  it('runs vitest once, as asked, when the arguments name a project', () => {
    expect(runsFor(['--project', 'worker', 'x.test.ts'])).toEqual([
      { label: 'vitest', args: ['run', '--project', 'worker', 'x.test.ts'] },
    ]);
    expect(runsFor(['--project=e2e'])).toEqual([{ label: 'vitest', args: ['run', '--project=e2e'] }]);
  });
});
