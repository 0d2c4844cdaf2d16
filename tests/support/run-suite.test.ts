/**
 * `npm test`'s two vitest processes (tests/support/run-suite.ts): e2e niced beside node and worker, each given
 * the same filters, and one run as asked when the arguments name a project.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { E2E_NICENESS, e2eNiceness, plan } from './run-suite.js';

/** The part of package.json this test reads. */
interface PackageScripts {
  scripts: Record<string, string | undefined>;
}

describe('npm test', () => {
  it('is run-suite.ts', () => {
    const script = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageScripts)
      .scripts.test;
    expect(script?.split('&&').at(-1)?.trim()).toBe('node --import tsx tests/support/run-suite.ts');
  });

  it('runs e2e niced beside node and worker, the niced output held', () => {
    expect(plan([])).toEqual([
      {
        label: 'node, worker',
        args: ['run', '--project', 'node', '--project', 'worker'],
        niced: false,
        held: false,
      },
      { label: 'e2e', args: ['run', '--project', 'e2e'], niced: true, held: true },
    ]);
  });

  it('hands a file or name filter to both, each passing when it leaves that side no file', () => {
    const runs = plan(['tests/worker/estimates.test.ts', '-t', 'prompts']);
    expect(runs.map((r) => r.args.slice(-4))).toEqual([
      ['--passWithNoTests', 'tests/worker/estimates.test.ts', '-t', 'prompts'],
      ['--passWithNoTests', 'tests/worker/estimates.test.ts', '-t', 'prompts'],
    ]);
  });

  it('runs vitest once, as asked, when the arguments name a project', () => {
    expect(plan(['--project', 'worker', 'x.test.ts'])).toEqual([
      { label: 'vitest', args: ['run', '--project', 'worker', 'x.test.ts'], niced: false, held: false },
    ]);
    expect(plan(['--project=e2e']).map((r) => r.args)).toEqual([['run', '--project=e2e']]);
  });

  it('nices the e2e side by 10 unless TRIBUNAL_TEST_E2E_NICE gives 0-19, and names the variable otherwise', () => {
    expect(e2eNiceness({})).toBe(E2E_NICENESS);
    expect(E2E_NICENESS).toBe(10);
    expect(e2eNiceness({ TRIBUNAL_TEST_E2E_NICE: '0' })).toBe(0);
    expect(e2eNiceness({ TRIBUNAL_TEST_E2E_NICE: '5' })).toBe(5);
    for (const bad of ['-1', '20', '2.5', 'low'])
      expect(() => e2eNiceness({ TRIBUNAL_TEST_E2E_NICE: bad })).toThrow(/TRIBUNAL_TEST_E2E_NICE/);
  });
});
