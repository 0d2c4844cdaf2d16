/**
 * The local stack's bundle directory (src/cli/bundle-dir.ts): made with its owner's pid and removed when
 * the stack stops; one a killed process left behind is removed by the next stack's start once its owner
 * is gone, and never one whose owner still runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_DIR_PREFIX, makeBundleDir, removeStaleBundleDirs, UNOWNED_STALE_MS } from '../../src/cli/bundle-dir.js';

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('bundle directories', () => {
  it("are removed on stop, and at the next start once their owner is gone; a running owner's stay", () => {
    const root = mkdtempSync(join(tmpdir(), 'tribunal-bundle-dir-test-'));
    const mine = makeBundleDir(root);
    writeFileSync(join(mine.dir, 'index.js'), 'export default {};');

    // A stack killed before it could remove its own (an owner that has exited).
    const killed = makeBundleDir(root);
    writeFileSync(join(killed.dir, '.owner-pid'), String(deadPid()));
    // Made before owners were written: removed once older than a day, left while it may still be in use.
    const oldUnowned = join(root, `${BUNDLE_DIR_PREFIX}old`);
    const newUnowned = join(root, `${BUNDLE_DIR_PREFIX}new`);
    for (const d of [oldUnowned, newUnowned]) mkdirSync(d);
    const dayAgo = (Date.now() - UNOWNED_STALE_MS - 60_000) / 1000;
    utimesSync(oldUnowned, dayAgo, dayAgo);
    // Not a bundle directory: never looked at.
    mkdirSync(join(root, 'tribunal-start-x'));

    expect(removeStaleBundleDirs(root).sort()).toEqual(
      [killed.dir.slice(root.length + 1), `${BUNDLE_DIR_PREFIX}old`].sort(),
    );
    expect(readdirSync(root).sort()).toEqual(
      [mine.dir.slice(root.length + 1), `${BUNDLE_DIR_PREFIX}new`, 'tribunal-start-x'].sort(),
    );

    mine.remove();
    expect(existsSync(mine.dir)).toBe(false);
  });
});
