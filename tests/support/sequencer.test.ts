/**
 * The run's order (tests/support/sequencer.ts) and worker-shards' place (tests/support/groups.ts): the shards
 * files go in behind the e2e group's first file, so one slot of three starts their runtime beside the two
 * longest e2e files, and only in a run that has e2e files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GROUP_BEFORE_E2E, GROUP_E2E, runsE2e, shardsSchedule, WORKERS_BEFORE_E2E, WORKERS_E2E } from './groups.js';
import { spliceShards } from './sequencer.js';

/** The part of package.json this test reads. */
interface PackageScripts {
  scripts: Record<string, string | undefined>;
}

const spec = (name: string, groupOrder: number, file: string) => ({
  project: { name, config: { sequence: { groupOrder } } },
  file,
});
const files = (specs: ReturnType<typeof spec>[]) => specs.map((s) => s.file);

describe('the run order', () => {
  const node = spec('node', GROUP_BEFORE_E2E, 'n1');
  const worker = [spec('worker', GROUP_BEFORE_E2E, 'w1'), spec('worker', GROUP_BEFORE_E2E, 'w2')];
  const e2e = ['e1', 'e2', 'e3', 'e4'].map((f) => spec('e2e', GROUP_E2E, f));
  const shards = ['s1', 's2', 's3'].map((f) => spec('worker-shards', GROUP_E2E, f));

  it("puts worker-shards' first file behind the e2e group's first, the others behind its second", () => {
    expect(files(spliceShards([node, ...worker, ...e2e, ...shards]))).toEqual([
      'n1',
      'w1',
      'w2',
      'e1',
      's1',
      'e2',
      's2',
      's3',
      'e3',
      'e4',
    ]);
  });

  it('keeps every file once with one e2e file, and leaves a group without shards or without e2e as it is', () => {
    expect(files(spliceShards([node, e2e[0]!, ...shards]))).toEqual(['n1', 'e1', 's1', 's2', 's3']);
    expect(files(spliceShards([node, ...e2e]))).toEqual(['n1', 'e1', 'e2', 'e3', 'e4']);
    expect(files(spliceShards([node, ...shards]))).toEqual(['n1', 's1', 's2', 's3']);
  });
});

describe("worker-shards' group", () => {
  it('is the e2e group when the run has e2e: no --project, or one naming it', () => {
    expect(runsE2e(['node', 'vitest', 'run'])).toBe(true);
    expect(runsE2e(['node', 'vitest', 'run', '--project', 'worker', '--project', 'e2e'])).toBe(true);
    expect(runsE2e(['node', 'vitest', 'run', '--project=e2e'])).toBe(true);
    expect(shardsSchedule(['node', 'vitest', 'run'])).toEqual({ groupOrder: GROUP_E2E, maxWorkers: WORKERS_E2E });
  });

  it("is the first group's otherwise (npm run test:fast): three slots alone would start three runtimes", () => {
    // The script as package.json has it, so a change there is a change here.
    const script = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageScripts)
      .scripts['test:fast'];
    const fast = ['node', ...(script?.split('&&').at(-1)?.trim().split(/\s+/) ?? [])];
    expect(fast.slice(0, 3)).toEqual(['node', 'vitest', 'run']);
    expect(runsE2e(fast)).toBe(false);
    expect(shardsSchedule(fast)).toEqual({ groupOrder: GROUP_BEFORE_E2E, maxWorkers: WORKERS_BEFORE_E2E });
  });
});
