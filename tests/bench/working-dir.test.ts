/**
 * A bench's `--out` (bench:capacity) names a path from where the command was run, also under `npm run`, which
 * starts the script at the repository root and says where it was run in `INIT_CWD`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromWorkingDir } from '../../bench/working-dir.js';

describe('fromWorkingDir', () => {
  it("resolves a relative path against npm's INIT_CWD, not the script's working directory", () => {
    expect(fromWorkingDir('out/c.json', { INIT_CWD: '/work/repo/docs' })).toBe('/work/repo/docs/out/c.json');
    expect(fromWorkingDir('../c.json', { INIT_CWD: '/work/repo/docs' })).toBe('/work/repo/c.json');
  });

  it('keeps an absolute path, and uses the working directory without npm', () => {
    expect(fromWorkingDir('/tmp/c.json', { INIT_CWD: '/work/repo/docs' })).toBe('/tmp/c.json');
    expect(fromWorkingDir('c.json', {})).toBe(join(process.cwd(), 'c.json'));
  });
});
