/**
 * Which project configs the root config lists for a command line (tests/support/project-configs.ts): only the
 * ones a `--project` filter selects, by vitest's own matching, and every one otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_CONFIGS, projectConfigs, projectFilters } from './project-configs.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const ALL = Object.values(PROJECT_CONFIGS);
const argv = (...args: string[]) => ['node', 'vitest.mjs', 'run', ...args];

describe('the project configs the root config lists', () => {
  it('lists every config without a filter, and only the selected ones with one', () => {
    expect(projectConfigs(argv())).toEqual(ALL);
    expect(projectConfigs(argv('--project', 'e2e', 'tests/cli/e2e/admin.test.ts'))).toEqual([PROJECT_CONFIGS.e2e]);
    expect(projectConfigs(argv('--project=node', '--project', 'worker'))).toEqual([
      PROJECT_CONFIGS.node,
      PROJECT_CONFIGS.worker,
    ]);
  });

  it('matches as vitest does: wildcards, negation, any case; a filter that selects none of ours lists all (vitest names it)', () => {
    expect(projectConfigs(argv('--project', 'work*'))).toEqual([PROJECT_CONFIGS.worker]);
    expect(projectConfigs(argv('--project', '!e2e'))).toEqual(ALL.filter((f) => f !== PROJECT_CONFIGS.e2e));
    expect(projectConfigs(argv('--project', 'E2E'))).toEqual([PROJECT_CONFIGS.e2e]);
    expect(projectConfigs(argv('--project', 'nothing'))).toEqual(ALL);
    expect(projectFilters(argv('-t', 'x', '--project=a', 'file', '--project', 'b'))).toEqual(['a', 'b']);
  });

  it('names every config file of tests/ by the project name it declares', () => {
    const files = readdirSync(`${ROOT}tests`)
      .filter((f) => /^vitest\..+\.config\.ts$/.test(f))
      .map((f) => `tests/${f}`);
    expect([...files].sort()).toEqual([...ALL].sort());
    for (const [name, file] of Object.entries(PROJECT_CONFIGS))
      expect(readFileSync(`${ROOT}${file}`, 'utf8')).toContain(`name: '${name}'`);
  });
});
